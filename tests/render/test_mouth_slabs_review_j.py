"""The open mouth's side walls and floor (blind review J, defect 5: "flat slabs", "lower teeth that look like they
float"). The walls seen beside the tongue in ``mouthOpen`` and ``viseme_aa`` are the lower back teeth (their inner
faces and biting tops): :func:`workbench.body.mouth.mouth_texture` painted them in the mouth's dark red, flat
red-brown panels; they are now enamel in shade, darker towards the back, set in a band of gum at their base. The
tongue's tip left a line of the mouth's floor (dark) between it and the lower front teeth; it now meets them.

Measured in tests/render/test_mouth_struts_review_j.py's close-up and its map of what each pixel shows."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from test_mouth_renders import avatar
from test_mouth_struts_review_j import SIZE, parts_map

from workbench.body.mouth import INNER, LOWER_EDGE, MOUTH_SIZE, mouth_texture
from workbench.render.framing import look_at
from workbench.render.raster import Camera, draw
from workbench.render.scene import Clip, Model

CASES = [(g, s) for g in ("feminine", "masculine") for s in ("mouthOpen", "viseme_aa")]


@cache
def lit(gender: str, shape: str) -> np.ndarray:
    """The close-up of :func:`parts_map`, drawn as the preview lights it."""
    model = Model(avatar(gender))
    rest = model.posed(Clip(model), 0.0)
    posed = model.posed(Clip(model), 0.0, morphs={shape: 1.0})
    teeth = np.concatenate([d.positions for d in rest.draws if d.mesh_name == "Teeth"])
    c = np.array([teeth[:, 0].mean(), teeth[:, 1].mean() - 0.005, teeth[:, 2].max() + 0.01])
    cam = Camera(view=look_at(c + [0, 0, 0.28], c), fov_deg=10.0, near=0.01)
    return draw(posed, cam, SIZE, background=(236, 238, 242))[..., :3].astype(float)


def walls(gender: str, shape: str) -> tuple[np.ndarray, np.ndarray]:
    """The lit colours of the lower teeth seen in the rows the tongue shows in (the side walls), and of those below
    the tongue (the front lower teeth)."""
    m, img = parts_map(gender, shape), lit(gender, shape)
    rows = np.flatnonzero(m["tongue"].any(1))
    side, front = m["lower"].copy(), m["lower"].copy()
    side[:rows.min()] = side[rows.max() + 1:] = False
    front[:rows.max() + 1] = False
    return img[side], img[front]


def redness(px: np.ndarray) -> float:
    """Red over green of the pixels' mean colour (enamel about 1.05; the mouth's dark red 2)."""
    mean = px.mean(0)
    return float(mean[0] / max(mean[1], 1e-6))


@pytest.mark.parametrize("gender,shape", CASES)
def test_the_side_walls_are_teeth_not_red_panels(gender, shape):
    """The side walls' red over green under 1.25 (the front lower teeth's 1.01 to 1.03): on main 1.40 to 1.51 (the
    mouth's dark red, (32, 21, 21) to (36, 26, 25)), now 1.16 to 1.18 (about (60, 52, 50))."""
    side, front = walls(gender, shape)
    assert len(side) > 1000
    assert redness(side) < 1.25, (redness(side), redness(front))


def test_the_lower_teeth_sit_in_a_gum_band():
    """The lower row's inner faces on the back teeth (u 0.55 to 0.9): near the biting edge a shaded enamel (red over
    green under 1.2), at the base a gum pink (over 1.4, and lighter than the mouth's dark). On main the mouth's dark red at both, (34, 17, 17) at the
    edge and (33, 15, 15) at the base; now (81, 73, 71) and (88, 45, 46)."""
    img = mouth_texture().astype(float)
    cols = slice(int(0.55 * MOUTH_SIZE), int(0.9 * MOUTH_SIZE))
    edge = img[int((LOWER_EDGE - 0.15 * INNER) * MOUTH_SIZE), cols].mean(0)
    base = img[int((LOWER_EDGE - 0.9 * INNER) * MOUTH_SIZE), cols].mean(0)
    assert edge[0] / edge[1] < 1.2, edge
    assert base[0] / base[1] > 1.4 and base[0] > 60, base


def gap(gender: str, shape: str) -> float:
    """Over the tongue's middle half (columns), the mean count of pixels of the mouth's floor or its dark (the lining,
    or lit darker than 0.6 of the tongue's median) between the tongue's lowest pixel and the lower teeth below it."""
    m, lum = parts_map(gender, shape), lit(gender, shape).mean(2)
    dark = m["lining"] | (lum < 0.6 * np.median(lum[m["tongue"]]))
    xs = np.flatnonzero(m["tongue"].any(0))
    counts = []
    for x in range(xs.min() + len(xs) // 4, xs.max() - len(xs) // 4):
        t = np.flatnonzero(m["tongue"][:, x]).max()
        below = np.flatnonzero(m["lower"][t + 1:, x])
        if len(below):
            counts.append(int(dark[t + 1:t + 1 + below[0], x].sum()))
    return float(np.mean(counts))


@pytest.mark.parametrize("gender,shape", CASES)
def test_the_tongue_meets_the_lower_front_teeth(gender, shape):
    """No dark line of the mouth's floor between the tongue's tip and the lower front teeth: under 0.3 px on average
    in the 384 px close-up. On main 1.77 px in the masculine viseme_aa (a red line under the whole tip), 0 to 0.1
    elsewhere; now 0.12 at most (the tongue 0.3 mm lower and 2 mm further forward, against the teeth)."""
    assert gap(gender, shape) < 0.3, gap(gender, shape)
