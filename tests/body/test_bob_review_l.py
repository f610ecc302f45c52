"""Blind review L's bob (issue 46, defect 9, seed 4622's #2 and #10: "slab sides, spiky tips ... helmet hairline"),
measured on those two avatars.

- **Round at the cheek, curved in under the jaw**: the hair's cards (fitted to the body,
  :func:`~workbench.body.hair.canon.fitted`) cut at cheek height (:data:`CHEEK` metres under the skull's centre) and
  5 cm lower; at the sides (azimuths 60 to 100 degrees from the face) the outermost card per :data:`BIN` degrees; the
  median of how much farther out it is at cheek height than 5 cm lower, at least :data:`TUCKED` metres. On main the
  sides hung straight down over the head envelope, the ends turned under 1.2 cm: 7.4 and 5.7 mm; now bulged over the
  ear (:data:`workbench.body.hair.styles.BOB_ROUND`) and turned under 1.5 cm (:data:`workbench.body.hair.canon.TUCK`):
  12.2 and 10.6 mm.
- **An even hem**: the service's portrait from behind (:func:`workbench.render.render`); over the neck, each column's
  lowest hair pixel (nearer the hair's colour than the neck's); its departure from its own running median over
  :data:`RUN` columns: spikes (runs of columns more than :data:`SPIKE` pixels under it) at most :data:`MOST_SPIKES`,
  the 95th percentile departure at most :data:`MOST_DEPART` pixels. On main 6 and 6 spikes, 12 and 11 pixels (the
  ends' strands 6 to 10 mm wide running up to 2.2 cm past the tips, the tips' heights 12 mm apart: teeth); now 3 and
  3, 8 and 7 pixels (the bob's end strands 3 to 5 mm wide, at most 1 cm past, on nine cards in ten,
  :data:`workbench.body.hair.ends.ENDS`; its tips' heights 6 mm apart, :data:`workbench.body.hair.styles.BOB_JITTER`).
- **No specks at the parting**: the portrait from the front; over the hair's top (the rows from the middle column's
  first dark pixel, under :data:`DARK` of the skin's brightness at the nose, to its first skin), light flecks: pixels
  at least :data:`SPECK` of the skin's brightness and :data:`RIDGE` of it brighter than both pixels :data:`GAP` to
  either side (a thin light line across dark hair; the hairline's fade runs across, not along, a row). At most
  :data:`MOST_SPECKS`. On main 10 and 17 (skin-white streaks at the parting: the bob's edge wisps there,
  blended, crossing over the scalp layer's blended band, which ours then dropped); now 1 and 4 (the bob's edge wisps
  not rooted within :data:`workbench.body.hair.styles.BOB_FRONT` degrees of the face on the parting's side; the 4 left are a grey line on
  the crown's outline, background seen between its outer cards, left as it was).
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.body.hair.bake import hair_head
from workbench.body.hair.canon import fitted
from workbench.body.mesh import body_mesh
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render

# The portrait as it was framed when these measures were tuned (conftest.py's tuned_framing).
pytestmark = pytest.mark.usefixtures("tuned_framing")

AVATARS = (2, 10)
CHEEK = 0.05
BIN = 10.0
TUCKED = 0.010
BACKGROUND = (236, 238, 242)
SIZE = 384
RUN = 21
SPIKE = 7
# (a spike and a pixel over the branch's 3 and 8, still well under main's 6 and 12: whole pixels of one render)
MOST_SPIKES = 4
MOST_DEPART = 9.0
SPECK = 0.6
RIDGE = 0.2
GAP = 3
DARK = 0.45
MOST_SPECKS = 6


@cache
def settings(index: int, seed: int = 4622) -> dict:
    """Avatar ``index`` (1-based) of the review's draw (``seed``: review L's; review M's is 4623), a bob."""
    s = normalize_avatar_settings(random_settings(12, seed)[index - 1])
    assert s["hair"]["style"] == "bob"
    return s


@cache
def outer(index: int, drop: float) -> tuple[np.ndarray, np.ndarray]:
    """Per :data:`BIN` degrees of azimuth (from the face, the figure's left positive): the bins' middles and the
    outermost distance (metres, from the vertical through the skull's centre) of the bob's cards ``drop`` metres
    under the skull's centre (NaN where none)."""
    s = settings(index)
    mesh = body_mesh(s)
    head = hair_head(mesh, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"])
    p = fitted(mesh, "bob", 0, head).cards.pts
    y = head.centre[1] - drop
    a, b = p[:, :-1], p[:, 1:]
    cross = (a[..., 1] - y) * (b[..., 1] - y) <= 0
    dy = a[..., 1] - b[..., 1]
    t = (a[..., 1] - y) / np.where(np.abs(dy) > 1e-9, dy, 1.0)
    q = (a + (b - a) * t[..., None])[cross] - head.centre
    az, rho = np.degrees(np.arctan2(q[:, 0], q[:, 2])), np.hypot(q[:, 0], q[:, 2])
    mids = np.arange(-180.0, 180.0, BIN) + BIN / 2
    most = np.array([rho[np.abs(az - m) <= BIN / 2].max(initial=-1.0) for m in mids])
    return mids, np.where(most > 0, most, np.nan)


@pytest.mark.parametrize("index", AVATARS)
def test_bob_sides_round_out_and_curve_in_under_the_jaw(index):
    mids, high = outer(index, CHEEK)
    _, low = outer(index, CHEEK + 0.05)
    sides = (np.abs(mids) >= 60) & (np.abs(mids) <= 100)
    inward = np.nanmedian(high[sides] - low[sides])
    assert inward >= TUCKED, round(float(inward), 4)


@cache
def view(index: int, yaw: float, seed: int = 4622) -> np.ndarray:
    """That avatar's portrait at ``yaw``, as the review sheets draw it (LOD 0, the idle's first frame), RGB floats."""
    s = settings(index, seed)
    g = build_avatar(s, ModelOptions(lod=0, animations=("idle",)))
    im = render(g, size=SIZE, camera="portrait", background=BACKGROUND, pose=(g, 0.0), yaw_deg=yaw)
    return np.asarray(im.convert("RGB")).astype(float)


def hem(rgb: np.ndarray) -> np.ndarray:
    """Over the columns where the neck shows at 73 % of the picture's height: the row of each column's lowest hair
    pixel above it (nearer the hair's colour, the median over the head's middle, than the neck's)."""
    h, w = rgb.shape[:2]
    neck_row = int(0.73 * h)
    back = np.abs(rgb - np.array(BACKGROUND)).sum(2) > 40
    cols = np.flatnonzero(back[neck_row])
    cols = cols[(cols > cols.min() + 4) & (cols < cols.max() - 4)]
    neck = np.median(rgb[neck_row, cols], 0)
    hair = np.median(rgb[int(0.25 * h):int(0.4 * h), w // 2 - 20:w // 2 + 20].reshape(-1, 3), 0)
    is_hair = back & (np.linalg.norm(rgb - hair, axis=2) < np.linalg.norm(rgb - neck, axis=2))
    rows = np.array([np.flatnonzero(is_hair[:neck_row, c]).max(initial=0) for c in cols], float)
    return rows


def hem_spikes(index: int) -> tuple[int, float]:
    rows = hem(view(index, 180.0))
    depart = rows - ndimage.median_filter(rows, RUN, mode="nearest")
    spikes = ndimage.label(depart > SPIKE)[1]
    return int(spikes), float(np.percentile(np.abs(depart), 95))


@pytest.mark.parametrize("index", AVATARS)
def test_bob_hem_is_even_from_behind(index):
    spikes, depart = hem_spikes(index)
    assert spikes <= MOST_SPIKES and depart <= MOST_DEPART, (spikes, round(depart, 2))


def specks(index: int) -> int:
    """Light flecks in the dark hair over the forehead, in the portrait from the front (see the module's text)."""
    rgb = view(index, 0.0)
    lum = rgb.mean(2)
    h, w = lum.shape
    drawn = np.abs(rgb - np.array(BACKGROUND)).sum(2) > 40
    skin = float(np.median(lum[int(0.4 * h):int(0.45 * h), w // 2 - 20:w // 2 + 20]))
    middle = drawn[:, w // 2] & (lum[:, w // 2] < DARK * skin)
    top = int(np.flatnonzero(middle)[0])
    brow = top + int(np.flatnonzero(lum[top:, w // 2] > 0.9 * skin)[0])
    side = np.maximum(np.roll(lum, GAP, 1), np.roll(lum, -GAP, 1))
    flecks = drawn & (lum >= SPECK * skin) & (lum - side >= RIDGE * skin)
    return int(flecks[top:brow].sum())


@pytest.mark.parametrize("index", AVATARS)
def test_bob_has_no_light_specks_at_the_parting(index):
    assert specks(index) <= MOST_SPECKS, specks(index)
