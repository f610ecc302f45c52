"""Blind review U's bob (issue 46, defect 4, 3.5/10, the lowest hair style; seed 4631's #5, #262121 on #997148): "a
solid black helmet of chunky flat panels with no strand breakup, flyaways or light transmission", drawn by our renderer
as the review's sheets draw it (LOD 0, the idle clip's first frame, 512 px portraits from behind and at three
quarters). The hair is told from the rest by drawing the avatar again without it, on the same camera: the pixels that
change.

**Strands across the surface.** The luminance's variation at a strand's scale over the hair: the standard deviation of
its high-pass (luminance less its Gaussian blur of 2 pixels) inside the hair (3 pixels in from its edge), over the
hair's mean luminance. On main d6c26fa 0.107 from behind and 0.116 at three quarters (the curly #3, the reviewer's
standard, 0.169 and 0.149); with black hair's darker shades deepened (:data:`workbench.body.hair.texture.DARK_CONTRAST`)
and its tips lighter (:data:`workbench.body.hair.texture.ROOT`): 0.131 and 0.140; with the room's even reflection
dimmed too (:data:`workbench.body.hair.look.SPECULAR_OF`) 0.143 and 0.150.

**An outline of strands.** Where the hair is seen against the backdrop (the backdrop in the drawing without it), the
share of those pixels in features under 5 pixels thick (gone in a morphological opening of 2), per pixel of that hair's
edge: on main 0.047 from behind and 0.094 at three quarters; with narrow locks lifted off the cards
(:data:`workbench.body.hair.styles.BOB_FLYAWAYS`): 0.062 and 0.119.
"""

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render

# The portrait as it was framed when these measures were tuned (conftest.py's tuned_framing).
pytestmark = pytest.mark.usefixtures("tuned_framing")

BACKDROP = (236, 238, 242)
VIEWS = {"back": 180.0, "three-quarter": 35.0}
# The least (strand-scale variation, outline breakup) per view (main 0.107 / 0.047 and 0.116 / 0.094; now 0.143 /
# 0.062 and 0.150 / 0.119). The three-quarter breakup 0.107 -> 0.106 with pass 35's level heads (level35: the head no
# longer tipped up in its stance, 0.1067; main's defect was 0.094). -> 0.105 with pass 62's hands (palms62: the clasped
# right hand's middle finger curled less moves the portrait's frame, which takes in the hands; the hair the same bytes:
# 0.1058).
# (Back variation 0.12 -> 0.11, 2 December, pass 41, knowingly: bob41's ends curled under shade the hem's last 3 cm
# evenly from behind, 0.121 -> 0.115; its breakup 0.072 -> 0.100, three quarters 0.165 / 0.123 -> 0.175 / 0.125.)
LEAST = {"back": (0.11, 0.055), "three-quarter": (0.13, 0.105)}


def luminance(rgb: np.ndarray) -> np.ndarray:
    return rgb @ np.array([0.2126, 0.7152, 0.0722])


def strand_variation(rgb: np.ndarray, hair: np.ndarray) -> float:
    """The high-pass's deviation over the mean luminance inside ``hair`` (see the module's text)."""
    lum = luminance(rgb)
    inner = ndimage.binary_erosion(ndimage.binary_opening(hair), iterations=3)
    return float((lum - ndimage.gaussian_filter(lum, 2.0))[inner].std() / lum[inner].mean())


def outline_breakup(hair: np.ndarray, bare: np.ndarray) -> float:
    """Thin hair over the backdrop per pixel of its edge (see the module's text)."""
    sky = hair & (np.abs(bare - BACKDROP).sum(-1) < 6)
    thin = sky & ~ndimage.binary_opening(sky, iterations=2)
    return float(thin.sum() / max(int((sky & ~ndimage.binary_erosion(sky)).sum()), 1))


def draw() -> dict:
    """The bob's avatar and the same without its hair, per view: RGB (rows, columns, 3)."""
    s = random_settings(12, 4631, with_added=True, heads=True)[4]
    assert s["hair"] == {"style": "bob", "color": "#262121"}
    out = {}
    for name, settings in (("hair", s), ("bare", {**s, "hair": {**s["hair"], "style": "none"}})):
        glb = build_avatar(normalize_avatar_settings(settings), ModelOptions(lod=0, animations=("idle",)))
        for view, yaw in VIEWS.items():
            rgb = render(glb, size=512, camera="portrait", background=BACKDROP, pose=(glb, 0.0), yaw_deg=yaw)
            out[name, view] = np.asarray(rgb.convert("RGB"), float)
    return out


def figures(drawn: dict, view: str) -> tuple[float, float]:
    """(strand-scale variation, outline breakup) of the bob seen from ``view``."""
    rgb, bare = drawn["hair", view], drawn["bare", view]
    hair = np.abs(rgb - bare).sum(-1) > 30
    return strand_variation(rgb, hair), outline_breakup(hair, bare)


@pytest.fixture(scope="module")
def drawn():
    return draw()


@pytest.mark.parametrize("view", list(VIEWS))
def test_bob_reads_as_strands(drawn, view):
    variation, breakup = figures(drawn, view)
    assert variation >= LEAST[view][0], (view, round(variation, 3))
    assert breakup >= LEAST[view][1], (view, round(breakup, 3))
