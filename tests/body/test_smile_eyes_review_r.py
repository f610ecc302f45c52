"""The smile's squint narrows the eyes without closing them (blind review R, defect 4: "The eye squint is the one good
part, but on #2 it nearly closes the eyes"; seed 4628's avatars).

Measured on the body mesh and mouthSmile's sum of shapes (tests/helpers.smile_mouth): per eye, the opening between
the upper lashes' lowest root and the lower lashes' highest within 3 mm of the eye's centre across (the lashes' rows
sit on the lids' margins), in the smile against at rest, averaged over both eyes. The squint lifts the lower lid
(eyeSquint, cheekSquint); on masculine faces it drew the upper lid 1.1 mm down as well (workbench.body.smile_lids)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings, smile_mouth

#: Review R's #2 (named), #11 and #4 (its other worst smiles), and the default masculine face.
FACES = {**{f"#{k}": random_settings(12, 4628, with_added=True)[k - 1] for k in (2, 11, 4)},
         "default masculine": {"gender": "masculine"}}
#: The least share of its rest opening an eye keeps in the smile. On main 0.41 / 0.38 / 0.51 / 0.49 (#2 / #11 / #4 /
#: the default masculine); now 0.54 / 0.51 / 0.51 / 0.60.
KEPT = 0.5
#: The most: the squint still narrows every eye (on main and now 0.60 at most, the default feminine face).
NARROWED = 0.7


def opening(m, q: np.ndarray) -> float:
    """Millimetres between the lids' margins over the eyes' centres (both eyes' mean) with the body at ``q``."""
    out = []
    for s in "lr":
        c = m.positions[m.groups[f"helper-{s}-eye"]].astype(np.float64).mean(0)
        up = q[m.groups[f"helper-{s}-eyelashes-2"]] - c
        lo = q[m.groups[f"helper-{s}-eyelashes-1"]] - c
        out.append(up[np.abs(up[:, 0]) < 0.003, 1].min() - lo[np.abs(lo[:, 0]) < 0.003, 1].max())
    return 1000 * float(np.mean(out))


@cache
def openings(name: str) -> tuple[float, float]:
    m, p, q, *_ = smile_mouth(FACES[name])
    return opening(m, p), opening(m, q)


@pytest.mark.parametrize("name", list(FACES))
def test_the_smiles_squint_keeps_the_eyes_open(name):
    """Smiling, each face's eyes keep KEPT of their rest opening or more, and NARROWED or less (the squint kept)."""
    rest, smiling = openings(name)
    assert KEPT * rest <= smiling <= NARROWED * rest, (round(rest, 1), round(smiling, 1), round(smiling / rest, 2))
