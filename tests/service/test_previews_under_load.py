"""Previews drawn on a busy machine are the bytes one-at-a-time previews on another fresh service give
(issue 45 item 1: under CPU load the service drew previews with another avatar's textures, and cached them).

The busy service runs with CPU-bound processes beside it and ``sys.setswitchinterval`` small in its own
process, so its threads are interleaved as finely as a loaded machine's scheduler interleaves them; its
avatars cover every hair style, top, bottom, shoe and glasses option, each in its own colours, so a part
drawn with another avatar's texels shows. ``bench/previews_under_load.py`` does the same for a minute.
"""

from __future__ import annotations

import httpx
import pytest
from conftest import ServerProcess
from helpers import auth, busy_cpu

from workbench import options as opts

pytestmark = pytest.mark.slow

# The preview sizes whose textures the renderer packs into its one buffer (512 px keeps every texture, 256 px
# most); a 128 px preview's textures are resized instead, a path of its own the other tests cover.
PREVIEWS = ((512, "full"), (256, "portrait"))


def covering_settings() -> list[dict]:
    """Avatars that between them wear every hair style, top, bottom, shoe and glasses option, no two alike in
    colour (a part drawn with another's texels shows as the wrong colour)."""
    n = max(len(opts.HAIR_STYLES), len(opts.TOP_STYLES), len(opts.BOTTOM_STYLES), len(opts.GLASSES))
    out = []
    for i in range(n):
        out.append({
            "gender": opts.GENDERS[i % 2], "bodyShape": opts.BODY_SHAPES[i % len(opts.BODY_SHAPES)],
            "skinTone": ("#F1C27D", "#8D5524", "#E0AC69", "#5C3A21", "#C68642", "#FFDBAC", "#3B2219")[i % 7],
            "hair": {"style": opts.HAIR_STYLES[i % len(opts.HAIR_STYLES)], "color": f"#{(40 + 30 * i) % 256:02X}2B10"},
            "outfit": {"top": f"#{(37 * i) % 256:02X}{(90 + 50 * i) % 256:02X}C0", "bottom": f"#30{(60 * i) % 256:02X}40",
                       "topStyle": opts.TOP_STYLES[i % len(opts.TOP_STYLES)],
                       "bottomStyle": opts.BOTTOM_STYLES[(i + 1) % len(opts.BOTTOM_STYLES)],
                       "shoeStyle": opts.SHOE_STYLES[i % len(opts.SHOE_STYLES)]},
            "glasses": opts.GLASSES[i % len(opts.GLASSES)]})
    return out


def previews(server: ServerProcess, settings: list[dict]) -> dict[tuple[int, int, str], bytes]:
    """Every avatar registered, then its previews asked for one at a time."""
    out = {}
    with httpx.Client(timeout=300) as http:
        for k, s in enumerate(settings):
            r = http.post(server.avatar_base_url + "/avatar", json=s, headers=auth(server))
            assert r.status_code == 201, r.text
            mid = r.json()["data"]["modelId"]
            for size, camera in PREVIEWS:
                r = http.get(f"{server.avatar_base_url}/preview/{mid}.png", params={"size": size, "camera": camera})
                assert r.status_code == 200, r.text
                out[(k, size, camera)] = r.content
    return out


def test_previews_on_a_busy_machine_are_the_one_at_a_time_bytes(tmp_path):
    settings = covering_settings()
    quiet = ServerProcess(tmp_path / "quiet").start()
    try:
        expected = previews(quiet, settings)
    finally:
        quiet.stop()
    with busy_cpu():
        busy = ServerProcess(tmp_path / "busy", switch_interval=1e-6).start()
        try:
            got = previews(busy, settings)
        finally:
            busy.stop()
    differ = [key for key in expected if got[key] != expected[key]]
    assert differ == [], f"{len(differ)} of {len(expected)} previews differ under load: {differ}"
