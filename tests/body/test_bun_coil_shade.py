"""The bun's coil in the hair's own shade (pass 65, blind review AW's "#7's bun an olive cap"): shaded as hair lying on
the head (heights over the head's envelope against the highest in each cell), a coil standing 4 cm over the head was
all under its own top, nine vertices in ten at the darkest (``1 - occlusion.DARK``), a blond bun drawn khaki. Shaded
by its depth under its own outside (:func:`workbench.body.hair.occlusion.hull`), its turns' outsides are in the full
light and only its grooves and inner layer under them: at most :data:`MOST_DARKEST` of its vertices at the darkest (0.90
before, 0.55 to 0.58 since) and a mean light of at least :data:`LEAST_MEAN` (0.47 before, 0.61 to 0.63 since), at LOD 0
and 1 on two bodies.

The coil's vertices: the hair's within 1.5 of the bun's base angle of its axis (:func:`~workbench.body.hair.coils.
bun_base_angle`) standing more than :data:`OVER` off the head, where no sleek card lies (``pieces.LIE``).
"""

import numpy as np
import pytest
from helpers import body_of

from workbench.body.hair import coils, hair_pieces
from workbench.body.hair.bake import hair_head
from workbench.body.hair.occlusion import DARK

MOST_DARKEST = 0.7
LEAST_MEAN = 0.57
OVER = 0.01


def coil_light(gender: str, lod: int) -> np.ndarray:
    """The vertex light of the bun's coil (see the module's text) on an average body of ``gender`` at ``lod``."""
    mesh = body_of(gender)
    head = hair_head(mesh, None)
    hair = hair_pieces(mesh, "bun", lod)["Hair"]
    rel = hair.positions.astype(np.float64) - head.centre
    r = np.linalg.norm(rel, axis=1)
    angle = np.arccos(np.clip(rel @ coils.bun_axis(head) / r, -1, 1))
    coil = (angle < 1.5 * coils.bun_base_angle(head)) & (r - head.envelope(rel / r[:, None]) > OVER)
    assert coil.sum() > 300, int(coil.sum())
    return hair.colors[coil, 0].astype(np.float64)


@pytest.mark.parametrize("lod", [0, 1])
@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_the_bun_coil_is_lit_on_its_outside(gender, lod):
    light = coil_light(gender, lod)
    darkest = float(np.mean(light <= 1 - DARK + 0.01))
    assert darkest <= MOST_DARKEST, darkest
    assert light.mean() >= LEAST_MEAN, float(light.mean())
