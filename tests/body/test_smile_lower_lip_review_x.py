"""The smile's lower lip stretched thin under the teeth (blind review X, defect 1, the smile 3/10: "the lips press into
a flat line ... The lower lip stays heavy"; seed 4634's #2, #5 and #6 as data/make_review_sheets.py draws them).

Measured on the body mesh (metres, facing +z) with mouthSmile's sum of shapes at full weight (tests/helpers.smile_mouth):
the red lower lip's height at the face's middle smiling, from the lower lip's inner edge (of the lips' inner edge's
vertices within 4 mm of the middle, the one highest at rest: the lower lip's, which the smile draws down) to its border
(the skin in front of the mouth's corners within 2 mm of the middle and 1.5 mm of the border's height at rest,
workbench.body.lip_heights.lip_borders), over the border's depth under the corners' line at rest (the lip's own height
as the face is built). The smile drops the lip's inner edge 4 to 5 mm with the jaw and mouthLowerDown to part the lips
on the teeth; held at its border (workbench.body.lip_lift.lower_hold), the lip showed taller under the teeth than the
whole lip stands at rest over the corners' line, where a smile stretches it thin."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import smile_mouth

from workbench.body.lip_heights import lip_borders
from workbench.body.mesh import morph_deltas
from workbench.options import normalize_avatar_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

#: Review X's #2, #5 and #6 (seed 4634, as the sheets draw them).
FACES = {f"#{k}": sheets.review_settings(12, 4634)[k - 1] for k in (2, 5, 6)}


@cache
def lower_lip(name: str) -> tuple[float, float]:
    """(mm: the red lower lip's height at the middle smiling, the border's depth under the corners' line at rest)."""
    m, p, q, tris, edge, ends = smile_mouth(FACES[name])
    # (the lips as the smile starts from them: the rest's lips set back and, since mouths37, the face's own lips'
    # heights taken off, as every expression of the mouth takes them off, lipsUnrolled, and as the lips' paint is drawn,
    # workbench.body.skin.reference_body; on the rest's own lips a face whose lower lip rest shortens picked a border
    # the smile's paint does not have)
    idx, delta = morph_deltas(normalize_avatar_settings(FACES[name]))["lipsUnrolled"]
    p = p.copy()
    p[idx] += delta
    mid, line, front = p[ends, 0].mean(), p[ends, 1].mean(), p[ends, 2].mean() - 0.002
    below = lip_borders(p, tris, (p[ends[0]], p[ends[1]]))[1]
    body = np.asarray(m.groups["body"])
    b = p[body]
    border = body[(np.abs(b[:, 0] - mid) < 0.002) & (b[:, 2] > front) & (np.abs(b[:, 1] - (line - below)) < 0.0015)]
    near = edge[np.abs(p[edge, 0] - mid) < 0.004]
    inner = near[np.argmax(p[near, 1])]
    return 1000 * float(q[inner, 1] - q[border, 1].mean()), 1000 * below


@pytest.mark.parametrize("name", list(FACES))
def test_the_smile_stretches_the_lower_lip_thin(name):
    """Smiling, the red lower lip at the middle is 0.75 of the lip's depth under the corners' line at rest or less. On
    main (54b1365e) 8.48 / 9.47 / 8.31 mm over 10.50 / 11.25 / 9.75 (0.81 / 0.84 / 0.85; #2 / #5 / #6); with
    workbench.body.lip_lift.lower_thin (its border lifted towards its edge) 6.66 / 6.88 / 7.06 (0.63 / 0.61 / 0.72)."""
    smiling, depth = lower_lip(name)
    assert smiling <= 0.75 * depth, (round(smiling, 2), round(depth, 2), round(smiling / depth, 2))
