"""Blind review W's long straight hair (issue 46, defect 1; long straight 2.5, "the worst asset on the sheets"):
seed 4633's #5 (masculine average 190 cm, #A25F3D), "two flat sheets ... no volume at the temples, and white specks sit
on the hairline". Measured on #5, the default feminine body with long hair and a masculine one with black long hair.

- The temples: the long hair's cards lay 3 to 9 mm over the head down to where they start to fall (the crown's dome
  aside), so from the front the hair's outline followed the skull's. Now they stand off the head's top and sides
  (:data:`workbench.body.hair.long.LONG_PUFF`). Measured on the groom fitted to each body (LOD 0, as the GLB carries
  it): how far (mm) the cards' points reach out to the side past the body's (ears included) at a third of a skull
  radius over the skull's centre, the temples. On main #5 -2.1, feminine 4.3, black 0.1; now 6.8, 12.3, 8.3.
- The specks: the hairline's fine strands (:func:`workbench.body.hair.groom.edge_wisps`) lay out over the forehead,
  each a few pixels lighter than the hair's fade around it (its tip's light colour over the skin): light strokes
  along the hairline (long33 took them off the face, which review F's hairline test refused: known, xfail below). Measured in the front
  portrait (512 px) over the forehead (the skin of the avatar drawn without hair, from the hair's top down 130 rows):
  pixels of the hair (changed by it) at least 10 levels lighter than their 5 x 5 median and lighter than halfway
  from the hair's crown to the skin under them. On main #5 33, feminine 34, black 24 (without the strands 7, 8, 5).
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.body.hair.canon import fitted
from workbench.body.hair.head import head_of
from workbench.body.mesh import body_mesh
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render

BACKGROUND = (236, 238, 242)
CASES = ("#5", "feminine", "black")
TEMPLE = 0.35          # skull radii over the skull's centre
LEAST_TEMPLE = 5.0     # mm past the body, each avatar (main: -2.1, 4.3, 0.1)
MOST_SPECKS = 15       # pixels, each avatar's front portrait (main: 33, 34, 24)
LUMA = np.array([0.2126, 0.7152, 0.0722])


@cache
def settings(case: str) -> dict:
    """The avatar of ``case``, normalized; ``hair`` set to ``style`` (``"none"``: the same avatar bald)."""
    if case == "#5":
        s = random_settings(12, 4633, with_added=True, heads=True, features=True, palettes=True)[4]
        assert s["hair"] == {"style": "long", "color": "#A25F3D"}, s["hair"]
    elif case == "feminine":
        s = {"gender": "feminine", "hair": {"style": "long"}}
    else:
        s = {"gender": "masculine", "hair": {"style": "long", "color": "#262424"}}
    return normalize_avatar_settings(s)


def temple(case: str) -> float:
    """How far (mm) the long hair's cards reach out past the body at :data:`TEMPLE` over the skull's centre."""
    mesh = body_mesh(settings(case))
    head = head_of(mesh)
    c, r = head.centre, head.radius
    pts = fitted(mesh, "long", 0, head).cards.pts.reshape(-1, 3)
    body = mesh.positions[np.unique(mesh.triangles)]
    y = c[1] + TEMPLE * r

    def reach(p: np.ndarray) -> float:
        near = (np.abs(p[:, 1] - y) < 0.006) & (np.abs(p[:, 2] - c[2]) < 1.3 * r)
        return float(np.abs(p[near, 0] - c[0]).max())

    return 1000 * (reach(pts) - reach(body))


@cache
def portrait(case: str, style: str) -> np.ndarray:
    s = dict(settings(case), hair=dict(settings(case)["hair"], style=style))
    g = build_avatar(s, ModelOptions(lod=0, animations=("idle",)))
    im = render(g, size=512, camera="portrait", background=BACKGROUND, pose=(g, 0.0))
    return np.asarray(im.convert("RGB")).astype(float)


def specks(hair: np.ndarray, bald: np.ndarray) -> int:
    """Light specks along the hairline: pixels the hair changed, over the bald avatar's skin, from the hair's top down
    130 rows, at least 10 levels lighter than their 5 x 5 median and lighter than halfway from the hair's crown (its
    first 60 rows' median) to the skin under them."""
    luma, under = hair @ LUMA, bald @ LUMA
    changed = np.abs(hair - bald).max(2) > 12
    top = int(np.flatnonzero(changed.any(1))[0])
    rows = np.arange(len(luma))[:, None]
    crown = float(np.median(luma[changed & (rows < top + 60)]))
    skin = np.abs(bald - BACKGROUND).max(2) > 14
    found = (skin & changed & (luma - ndimage.median_filter(luma, 5) > 10) & (luma > crown + 0.5 * (under - crown))
             & (rows < top + 130))
    return int(found.sum())


def test_long_hair_stands_off_the_temples():
    found = {case: round(temple(case), 1) for case in CASES}
    assert min(found.values()) >= LEAST_TEMPLE, found


# Known, not fixed: long33 took the hairline's fine strands off the forehead (none rooted within 70 degrees of the face),
# which cleared these specks (33 / 34 / 24 -> 7 / 8 / 5), but review F's test_hair_long_review_f wants those strands there,
# lying across the hairline (its "hard, drawn-on hairline"): the whole suite on the merged main failed it, and the
# strands were put back at the stop. (Fixed by flecks37, 2 December: the light specks were the skin showing where the
# renderer kept the two nearest of three blended fragments, two faint strands over the scalp's band; it now drops the
# faintest, and the strands stay for review F. The strict xfail passed, so it is a plain test again.)
@pytest.mark.parametrize("case", CASES)
def test_long_hair_has_no_light_specks_on_the_hairline(case):
    found = specks(portrait(case, "long"), portrait(case, "none"))
    assert found <= MOST_SPECKS, found


def test_the_measure_finds_light_specks():
    """A few light strokes drawn over the forehead under a dark cap are found; the cap alone has none."""
    bald = np.full((200, 200, 3), 220.0)
    bald[:, :20] = bald[:, -20:] = BACKGROUND
    hair = bald.copy()
    hair[:60] = 60.0
    hair[60:80] = np.linspace(60.0, 220.0, 20)[:, None, None]
    assert specks(hair, bald) == 0
    hair[64:67, 50] = hair[64:67, 120] = 200.0
    assert specks(hair, bald) == 6
