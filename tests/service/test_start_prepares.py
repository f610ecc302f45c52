"""A service's start makes ready what every avatar shares, in the background, and says so in its health."""

from __future__ import annotations

import httpx
from helpers import auth, new_avatar, wait_for


def test_the_health_says_when_the_start_has_prepared_the_generator(server):
    health = lambda: httpx.get(server.local_url + "/health").json()["data"]   # noqa: E731
    assert health()["generator"] in ("preparing", "ready")
    assert wait_for(lambda: health()["generator"] == "ready", timeout=120)
    # and a first preview after it answers (its idle pose by name: it never waits for the library's files)
    mid = new_avatar(server, {"gender": "feminine"})["modelId"]
    r = httpx.get(f"{server.avatar_base_url}/preview/{mid}.png", headers=auth(server), timeout=300)
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
