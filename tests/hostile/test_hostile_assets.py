"""A service without its body assets, asked for many models at once while pip cannot reach a registry
(issue 40, item 4): one pip at a time, every other request answered at once, the failure remembered for
its Retry-After, and the cache folder shown to nobody but the service's log."""

from __future__ import annotations

import socketserver
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from conftest import ServerProcess
from helpers import auth, error_of, new_avatar, wait_for


class StallingIndex:
    """A package index on loopback that takes pip's connections and answers nothing until released; after
    that it hangs up on every connection at once."""

    def __init__(self):
        self.connections = 0
        self.released = threading.Event()
        outer = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                outer.connections += 1
                outer.released.wait(120)

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/simple/"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self):
        self.released.set()
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture()
def stalled(tmp_path, monkeypatch):
    index = StallingIndex()
    cache = tmp_path / "empty-cache"
    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(cache))
    monkeypatch.setenv("PIP_INDEX_URL", index.url)
    monkeypatch.setenv("PIP_CONFIG_FILE", str(tmp_path / "missing-pip.conf"))
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_NO_INDEX"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "data").mkdir()
    server = ServerProcess(tmp_path / "data").start()
    yield server, index, cache
    server.stop()
    index.close()


def test_requests_without_the_assets_are_answered_at_once_while_one_pip_runs(stalled):
    server, index, cache = stalled
    ids = [new_avatar(server, {"gender": "masculine", "height": 160 + i})["modelId"] for i in range(21)]

    def get(url: str) -> httpx.Response:
        return httpx.get(url, headers=auth(server), timeout=90)

    def model(i: int) -> httpx.Response:
        return get(f"{server.avatar_base_url}/model/{ids[i]}.glb")

    with ThreadPoolExecutor(25) as pool:
        first = pool.submit(model, 0)
        assert wait_for(lambda: index.connections >= 1, timeout=60), "pip never asked the index"
        # pip is now waiting on the index, for up to its own timeout: nobody else waits with it.
        urls = [f"{server.avatar_base_url}/model/{i}.glb" for i in ids[1:11]] + \
               [f"{server.avatar_base_url}/preview/{i}.png" for i in ids[11:]]
        answers = list(pool.map(get, urls))
        animations = get(f"{server.avatar_base_url}/animations")
        during = index.connections
        index.released.set()   # pip's download fails now
        answers.append(first.result())
    assert animations.status_code == 200
    for r in answers:
        error = error_of(r, 503, "assets_missing")
        assert "`workbench assets fetch`" in error["message"] and 1 <= int(r.headers["retry-after"]) <= 60
        assert str(cache) not in r.text and "empty-cache" not in r.text, r.text
    assert during <= 2, f"{during} connections: pip ran more than once (it retries once)"

    # The failure is remembered for its Retry-After: 10 more requests, and pip does not run again.
    before = index.connections
    with ThreadPoolExecutor(10) as pool:
        again = list(pool.map(model, range(1, 11)))
    for r in again:
        error_of(r, 503, "assets_missing")
        assert 1 <= int(r.headers["retry-after"]) <= 60 and str(cache) not in r.text
    assert index.connections == before
    # Where the assets are missing from is said in the service's log, for the person running it.
    log = (server.data_dir.parent / f"serve-{server.port}.log").read_text(errors="replace")
    assert str(cache) in log
