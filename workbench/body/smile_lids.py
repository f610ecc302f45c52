"""The upper lids held open in ``mouthSmile`` (part of ``smileLids``, :mod:`.expressions`).

The smile's squint (``eyeSquint`` at :data:`~workbench.body.expressions.SMILE_EYES`' weight) lifts the lower lid
2.6 to 2.7 mm, the cheek's squint 1.1 more: the narrowed eye a smile reads by. On faces whose upper lid rests low
(masculine faces: their lids opened at rest by eyeWide, workbench.body.details.rest_face) the squint's field reaches
the upper lid too and draws it 1.1 mm down, so the eye closed from above and below at once: the opening between the
lashes' roots over the eye's centre 0.38 to 0.41 of its rest, "on #2 it nearly closes the eyes" (blind review R,
#2 and #11; tests/body/test_smile_eyes_review_r.py). A smile narrows the eye from below; :func:`upper_lids_kept` takes
the squint's drop off the upper lid in the smile, so its lower lid still rises as before.

>>> UPPER_FROM, LID_REACH
((0.0005, 0.003), (0.012, 0.018))
"""

from __future__ import annotations

import numpy as np

from .eyes import _smoothstep

__all__ = ["upper_lids_kept"]

# The upper lid: everything the squint moves from UPPER_FROM[0] over the eye's centre (none of it) to UPPER_FROM[1]
# (all of it), within LID_REACH[0] of the eye's centre (all of it), none from LID_REACH[1] (the brow the squint draws
# down stays drawn down); metres for the reference face (workbench.body.expressions.EYES_APART).
UPPER_FROM = (0.0005, 0.003)
LID_REACH = (0.012, 0.018)


def upper_lids_kept(positions: np.ndarray, groups, units: dict, weight: float,
                    unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The shape (sorted vertex indices, deltas) that takes off ``weight`` of each side's ``eyeSquint`` (``units``:
    name -> sorted indices, deltas) where it draws the upper lid down (see :data:`UPPER_FROM`): its skin and its
    lashes (the body mesh's ``groups``; ``positions`` at rest, metres; ``unit`` the face's size against the
    reference face's)."""
    full = np.zeros((len(positions), 3))
    for side, name in (("l", "eyeSquintLeft"), ("r", "eyeSquintRight")):
        centre = positions[groups[f"helper-{side}-eye"]].astype(np.float64).mean(0)
        idx, delta = units[name]
        p = positions[idx].astype(np.float64)
        w = _smoothstep(centre[1] + UPPER_FROM[0] * unit, centre[1] + UPPER_FROM[1] * unit, p[:, 1]) \
            * _smoothstep(LID_REACH[1] * unit, LID_REACH[0] * unit, np.linalg.norm(p[:, :2] - centre[:2], axis=1))
        drop = np.minimum(delta[:, 1].astype(np.float64), 0.0)
        full[idx, 1] -= weight * w * drop
    keep = np.flatnonzero(full[:, 1] > 1e-6)
    return keep.astype(np.int32), full[keep].astype(np.float32)
