"""The open mouth's teeth and tongue as blind review K saw them (defect 2: "each tooth row one flat white band, only
faint vertical lines hint at teeth; the tongue a flat pink slab with a line down its middle"), measured in our
renderer's front close-up of the mouth (test_mouth_renders.closeup's camera) and on the fitted Teeth mesh:

each upper front tooth's crown rounded into a dark V (an embrasure) at the biting edge, so the row's edge is scalloped
(the tongue's dome and groove are test_tongue_review_k's).

Which pixels show which part of the teeth is read from a drawing of the Teeth mesh's own texture coordinates
(workbench.body.mouth's layout: u along the arch, v from the gum down to the upper row's biting edge)."""

from __future__ import annotations

import numpy as np
import pytest
from test_mouth_renders import avatar, closeup, mouth_view, painted

from workbench.body import mouth

LUMA = np.array([0.2126, 0.7152, 0.0722])
SIZE = 512
EDGE_ROWS = 6


def uv_map(glb: bytes, morphs: dict) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of :func:`closeup`'s picture: the Teeth mesh's (u, v) where it shows (NaN elsewhere), drawn unlit with
    its texture coordinates as vertex colours (blue marks the mesh, and divides out the renderer's scale)."""
    posed, cam = mouth_view(glb, morphs)

    def uvs(d, colours):
        if d.mesh_name == "Teeth":
            colours[:, :2] = d.uv
            colours[:, 2] = 1

    from workbench.options.colour import srgb_to_linear
    img = srgb_to_linear(painted(posed, cam, uvs) / 255.0)
    shown = img[..., 2] > 0.2
    b = np.where(shown, img[..., 2], 1.0)
    return np.where(shown, img[..., 0] / b, np.nan), np.where(shown, img[..., 1] / b, np.nan)


def embrasures(gender: str, tone: str) -> float:
    """How dark the V between the two upper middle incisors is at their biting edge: the luminance of the upper row's
    outer face in its lowest EDGE_ROWS pixels (about 0.7 mm) at the middle line (the columns within 3 of where the row's median u is least),
    as a share of the same rows' median 15 to 40 columns (2 to 5 mm) to either side, on each incisor's face (1: one
    flat band; 0: black)."""
    glb = avatar(gender, tone=tone)
    morphs = {"viseme_aa": 1.0}
    lit, _ = closeup(glb, gender, morphs)
    u, v = uv_map(glb, morphs)
    lum = lit @ LUMA
    upper = v < mouth.UPPER_EDGE
    along = np.full(SIZE, np.inf)
    for x in np.flatnonzero(upper.sum(0) >= 20):
        along[x] = np.median(u[upper[:, x], x])
    mid = int(np.argmin(along))

    def edge(x: int) -> float:
        ys = np.flatnonzero(upper[:, x])
        return float(np.median(lum[ys[-EDGE_ROWS:], x]))

    face = np.median([edge(mid + s * k) for s in (-1, 1) for k in range(15, 41)])
    return min(edge(x) for x in range(mid - 3, mid + 4)) / face


@pytest.mark.parametrize("gender,tone", [("feminine", "#FFE0C4"), ("masculine", "#5E3F2B")])
def test_the_upper_teeth_have_scalloped_edges(gender, tone):
    """The V between the upper middle incisors under 0.8 of their faces at the biting edge (main: 0.92,
    the row's edge one straight band; now 0.56 and 0.59)."""
    ratio = embrasures(gender, tone)
    assert ratio < 0.8, ratio
