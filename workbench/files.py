"""Reading files that something else may have replaced: only a regular file inside its folder, of a bounded size.

The service's data folder and the body's kept arrays hold files the code wrote, but anything on the machine may
have changed them since (issue 45, item 3): a cached model replaced by a symlink to a file outside the folder was
served as the model, a FIFO hung the request (and a FIFO among the kept arrays hung every model and preview, and
SIGTERM with them), a link to ``/dev/zero`` grew the service to 4.6 GB. :func:`read_inside` is the one reader of
such files: every folder on the way from ``root`` and the file itself are opened without following a link
(``O_NOFOLLOW``), the file without waiting for a writer (``O_NONBLOCK``: a FIFO opens at once, and is then refused),
and only a regular file (``fstat``'s ``S_ISREG``) of at most ``limit`` bytes is read. Anything else raises
:class:`NotOurs` (an ``OSError``), saying what was found, so the caller makes the file again and logs why.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "a.bin").write_bytes(b"xyz")
>>> read_inside(root, root / "a.bin", 10)
b'xyz'
>>> (root / "link.bin").symlink_to(root / "a.bin")
>>> try:
...     read_inside(root, root / "link.bin", 10)
... except NotOurs as e:
...     print(e.reason)
it is a symbolic link, not a regular file
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NotOurs", "read_inside", "read_inside_stat", "link_on_the_way", "describe"]

# Opening a folder on the way, or the file: never through a link, never waiting (a FIFO), never kept by a child.
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotOurs(OSError):
    """A path that is there but is not a regular file inside the folder, or is larger than allowed.

    ``reason`` says what was found (for the log).
    """

    def __init__(self, path: Path, reason: str):
        super().__init__(errno.EINVAL, f"{path}: {reason}")
        self.path, self.reason = path, reason


def describe(mode: int) -> str:
    """What kind of file ``mode`` (an ``st_mode``) is, in words.

    >>> describe(stat.S_IFIFO), describe(stat.S_IFREG)
    ('a FIFO', 'a regular file')
    """
    kinds = [(stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"),
             (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket")]
    return next((words for test, words in kinds if test(mode)), "something else")


def _lstat_kind(path: Path) -> str:
    try:
        return describe(os.lstat(path).st_mode)
    except OSError:
        return "something else"


def read_inside(root: Path, path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` below ``root`` of at most ``limit`` bytes (:func:`read_inside_stat`)."""
    return read_inside_stat(root, path, limit)[0]


def read_inside_stat(root: Path, path: Path, limit: int) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``path`` below the folder ``root``, when it has at most ``limit`` bytes.

    Raises FileNotFoundError when nothing is there (a folder on the way missing too), :class:`NotOurs` when
    something else is (a link anywhere below ``root``, a FIFO, a device, a folder, a file past ``limit``,
    or a path outside ``root``), and OSError for the rest (a file without read permission). The ``stat`` is
    the file's as it was opened (its inode, size and time tell a changed file from the one read before).
    """
    root, path = Path(root), Path(path)
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        raise NotOurs(path, f"it is not inside {root}") from None
    if not parts or ".." in parts:
        raise NotOurs(path, f"it is not a file inside {root}")
    fd = os.open(root, _DIR_FLAGS)
    try:
        for i, name in enumerate(parts[:-1]):
            try:
                inner = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as e:
                if e.errno in (errno.ELOOP, errno.ENOTDIR):
                    where = root.joinpath(*parts[:i + 1])
                    raise NotOurs(path, f"the folder {where} on its way is {_lstat_kind(where)}") from None
                raise
            os.close(fd)
            fd = inner
        try:
            file = os.open(parts[-1], _FILE_FLAGS, dir_fd=fd)
        except OSError as e:
            if e.errno == errno.ELOOP:   # O_NOFOLLOW met a link
                raise NotOurs(path, "it is a symbolic link, not a regular file") from None
            if e.errno in (errno.ENXIO, errno.EISDIR, errno.EOPNOTSUPP):   # a socket, or a folder opened for reading
                raise NotOurs(path, f"it is {_lstat_kind(path)}, not a regular file") from None
            raise
    finally:
        os.close(fd)
    try:
        st = os.fstat(file)
        if not stat.S_ISREG(st.st_mode):
            raise NotOurs(path, f"it is {describe(st.st_mode)}, not a regular file")
        if st.st_size > limit:
            raise NotOurs(path, f"it holds {st.st_size} bytes, more than the {limit} allowed")
        os.set_blocking(file, True)
        chunks, size = [], 0
        while True:   # to its end, and never past the bound even if it grows meanwhile
            chunk = os.read(file, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise NotOurs(path, f"it grew past the {limit} bytes allowed while being read")
        return b"".join(chunks), st
    finally:
        os.close(file)


def link_on_the_way(root: Path, path: Path) -> Path | None:
    """The first folder between ``root`` and ``path`` (``path`` excluded) that is there but is not a folder of
    its own (a link, a file), or None: a file written at ``path`` then stays inside ``root``.

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "a").symlink_to("/tmp")
    >>> link_on_the_way(root, root / "a" / "b.bin") == root / "a", link_on_the_way(root, root / "c" / "b.bin")
    (True, None)
    """
    root, path = Path(root), Path(path)
    at = root
    for name in path.relative_to(root).parts[:-1]:
        at = at / name
        try:
            mode = os.lstat(at).st_mode
        except FileNotFoundError:
            return None
        if not stat.S_ISDIR(mode):
            return at
    return None
