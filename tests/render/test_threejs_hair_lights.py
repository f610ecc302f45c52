"""Hair cards under a customer's directional lights in three.js: no black pixels.

The hair's cards carry ``KHR_materials_anisotropy``. three.js's anisotropic visibility term
(``V_GGX_SmithCorrelated_Anisotropic``) divided ``0.5 / (gv + gl)`` unguarded up to r183: where a pixel's shading
normal faces away from both the viewer and a directional light (a card's edge seen at a grazing slant, lit from
behind), both are 0, the specular infinite, and the light's zero irradiance times it NaN, drawn black (three.js issue
33201). r184 guards it (``max(gv + gl, EPSILON)``, PR 33205). Review R's #2 (seed 4628, a bob), 384 px portrait, a
plain page (``tests/browser/pages/three-lights.html``: the RoomEnvironment, directional lights, no shader patch),
black hair pixels (luminance under 12):

=================================================  =========  ==============================  =====
lights                                             r183.2     r183.2, that division guarded   r184
=================================================  =========  ==============================  =====
look.html's two rim lights, PBR Neutral            1,078      0                               0
one light from the side and behind, ACES filmic    495        0                               0
=================================================  =========  ==============================  =====

No value of the asset's removes it under r183: the term is infinite for any roughness, anisotropy strength or
direction wherever both dot products clamp to 0, so only a material without the anisotropy (or normals that face
every viewer, i.e. flat cards) avoids it. The notebook viewer (``workbench/widgets/static/viewer.js``) bundles the
three.js of ``package.json`` (0.184.0), the one this test loads from the repository's ``node_modules``: it holds
that that three.js, and so the viewer, draws the hair under such lights with no black pixel (it would fail were the
viewer's three.js put back to r183: 1,078). The browser tests' own three.js (``tests/browser/conftest.py``'s
NPM_PACKAGES, 0.183.2, model-viewer 4.4's peer) is r183, which is why ``data/threejs_look/look.html`` keeps its guard.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from make_hair_threejs import png_of, serve, wait_ready  # noqa: E402
from test_threejs_aces_review_r import mesh_masks  # noqa: E402
from test_threejs_look import SIZE  # noqa: E402

PAGE = ROOT / "tests" / "browser" / "pages" / "three-lights.html"
MODULES = ROOT / "node_modules"
# [intensity, direction towards the light (x the figure's left, y up, z its front)]
RIM = [[2.2, [0.9, 0.7, -1.0]], [1.6, [-0.9, 0.5, -1.0]]]
SIDE = [[3.0, [1.0, 0.3, -0.2]]]


# The sheets' avatars from the run's shared builds (conftest.py's sheets_built_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once")


def bundled_three() -> Path:
    """The repository's ``node_modules``, holding the three.js ``package.json`` pins (the viewer bundle's)."""
    pin = json.loads((ROOT / "package.json").read_text())["dependencies"]["three"]
    found = MODULES / "three" / "package.json"
    if not found.exists():
        pytest.skip("the repository's node_modules is not installed (npm ci): tools/install_test_tools.py")
    assert json.loads(found.read_text())["version"] == pin
    return MODULES


def test_the_viewer_bundle_is_built_from_that_threejs():
    """The bundle's three.js revision is package.json's (0.184.0: r184), the one the test below draws with."""
    pin = json.loads((ROOT / "package.json").read_text())["dependencies"]["three"]
    bundle = (ROOT / "workbench" / "widgets" / "static" / "viewer.js").read_text()
    assert re.search(r'__THREE__\s*=\s*"%s"' % pin.split(".")[1], bundle), pin   # the revision three.js stamps
    assert "0.5 / max( gv + gl, EPSILON )" in bundle


@pytest.mark.slow
def test_hair_is_not_black_under_directional_lights(monkeypatch):
    """Review R's #2's bob, 384 px portrait, under the rim lights (PBR Neutral) and one light from the side and
    behind (ACES): no black hair pixel (figures in the module's docstring: 1,078 and 495 with r183.2; now 0)."""
    modules = bundled_three()
    monkeypatch.setattr(sheets, "VIEWS", (("portrait", "portrait", 0.0, None),))
    avatar = sheets.Avatar(random_settings(12, 4628, with_added=True)[1])
    pivot, cam, yaw = avatar.cameras[0]
    hair = mesh_masks(avatar.glb, cam, SIZE)["Hair"]
    assert hair.sum() > 2000, int(hair.sum())
    black = {}
    with serve({"page.html": PAGE}, modules) as (base, site, driver):
        (site / "bob.glb").write_bytes(avatar.glb)
        wait_ready(driver, base + "/page.html")
        for name, lights, tone in (("rim", RIM, "neutral"), ("side", SIDE, "aces")):
            url = driver.execute_async_script(
                "const done = arguments[1]; window.shot(arguments[0]).then(done, e => done('error: ' + e));",
                {"model": f"{base}/bob.glb", "size": SIZE, "yaw": yaw, "pivot": [float(v) for v in pivot],
                 "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near,
                 "lights": lights, "tone": tone})
            assert not url.startswith("error"), url
            shot = np.asarray(png_of(url).convert("L")).astype(float)
            black[name] = int((hair & (shot < 12)).sum())
    assert black == {"rim": 0, "side": 0}, black
