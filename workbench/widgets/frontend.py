"""The viewer's front-end files as the widget serves them: the three.js bundle, the loader, the
kernel-frame viewer and the stylesheet.

Their sources are in ``js/viewer/`` (one module per feature, see ``js/viewer/core.js``). The bundle
(``static/viewer.js``) is built by esbuild when the package is built (``hatch_build.py``); the other
files need no build: a wheel carries them in ``static/`` (``force-include`` in ``pyproject.toml``), a
source checkout reads them from ``js/viewer/``. The kernel-frame viewer imports the one DOM helper,
``dom.js``; where there is no bundle it is served as one module, ``dom.js`` in front of it.

>>> 'from "./dom.js"' in kernel_frames_module()
False
>>> css().startswith(".wb-avatar-viewer")
True
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
# The three.js front-end, built by the package's build (npm run build); absent in a build without Node.js.
BUNDLE = STATIC / "viewer.js"
# The files served as they are: in a wheel beside the bundle, in a source checkout where they are written.
SOURCES = STATIC if (STATIC / "kernel_frames.js").is_file() else HERE.parent.parent / "js" / "viewer"
_DOM_IMPORT = re.compile(r'^import \{[^}]*\} from "\./dom\.js";\n', re.M)


def bundle_path() -> Path | None:
    """The built three.js front-end, or None where the package was built without Node.js.

    >>> bundle_path() is None or bundle_path().name == "viewer.js"
    True
    """
    return BUNDLE if BUNDLE.is_file() and BUNDLE.stat().st_size else None


def bundle() -> tuple[str, bytes]:
    """The bundle's id (its bytes' hash: a page loads each version once) and its bytes."""
    return _bundle(BUNDLE, BUNDLE.stat().st_mtime)


@functools.lru_cache(maxsize=1)
def _bundle(path: Path, mtime: float) -> tuple[str, bytes]:
    data = path.read_bytes()
    return hashlib.sha256(data).hexdigest()[:16], data


def loader() -> Path:
    """The widget's module where the bundle exists: a small loader that asks the kernel for it."""
    return SOURCES / "loader.js"


def kernel_frames_module() -> str:
    """The kernel-frame viewer as one ES module (``dom.js`` in front of ``kernel_frames.js``)."""
    frames = (SOURCES / "kernel_frames.js").read_text(encoding="utf-8")
    if not _DOM_IMPORT.search(frames):
        raise RuntimeError("kernel_frames.js no longer imports dom.js as frontend.py expects")
    return (SOURCES / "dom.js").read_text(encoding="utf-8") + "\n" + _DOM_IMPORT.sub("", frames)


def css() -> str:
    """The viewers' stylesheet."""
    return (SOURCES / "viewer.css").read_text(encoding="utf-8")
