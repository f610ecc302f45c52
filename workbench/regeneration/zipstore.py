"""Writing zip archives byte for byte: stored (no compression), fixed timestamps, data aligned.

USDZ (contract section 8) needs every file's data to start on a 64-byte
boundary so a reader can map it in place; the space bundle uses the same
writer for its fixed timestamps. Alignment is padding in each local
header's extra field (ID 0x1986, as Pixar's ``usdzip`` writes it).
Python's ``zipfile`` does not expose the local header's offset before it is
written, hence this small writer.

>>> import io, zipfile
>>> data = stored_zip([("a.txt", b"hello"), ("b.bin", b"x" * 10)])
>>> zipfile.ZipFile(io.BytesIO(data)).read("a.txt")
b'hello'
"""

from __future__ import annotations

import struct
import zlib

__all__ = ["stored_zip", "local_entries"]

# 1980-01-01 00:00:00, the earliest DOS time: the archive never records when it was made.
_DOS_TIME, _DOS_DATE = 0, (0 << 9) | (1 << 5) | 1


def stored_zip(files: list[tuple[str, bytes]], align: int = 64) -> bytes:
    """A zip of ``files`` in the given order, each stored uncompressed with its data ``align``-aligned."""
    out = bytearray()
    central = bytearray()
    for name, data in files:
        fn = name.encode("utf-8")
        crc = zlib.crc32(data) & 0xFFFFFFFF
        offset = len(out)
        pad = (-(offset + 30 + len(fn) + 4)) % align
        extra = struct.pack("<HH", 0x1986, pad) + b"\x00" * pad
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, _DOS_TIME, _DOS_DATE, crc,
                           len(data), len(data), len(fn), len(extra))
        out += fn + extra
        assert len(out) % align == 0
        out += data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, _DOS_TIME, _DOS_DATE, crc,
                               len(data), len(data), len(fn), 0, 0, 0, 0, 0, offset)
        central += fn
    cd_offset = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(files), len(files), len(central), cd_offset, 0)
    return bytes(out)


def local_entries(data: bytes) -> list[dict]:
    """Walk the local file headers of a zip: name, compression method, data offset and size of each.

    >>> [e["offset"] % 64 for e in local_entries(stored_zip([("x", b"1"), ("y", b"22")]))]
    [0, 0]
    """
    pos, out = 0, []
    while pos + 30 <= len(data) and data[pos:pos + 4] == b"PK\x03\x04":
        (_, _, flags, method, _, _, crc, csize, usize, nlen, xlen) = struct.unpack_from("<IHHHHHIIIHH", data, pos)
        name = data[pos + 30: pos + 30 + nlen].decode("utf-8")
        start = pos + 30 + nlen + xlen
        out.append({"name": name, "method": method, "offset": start, "size": csize, "crc": crc})
        pos = start + csize
    return out
