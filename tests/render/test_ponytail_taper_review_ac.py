"""Blind review AC's slicked ponytail (issue 46, defect 4, ponytail 3.5: "In the 3/4 view the ponytail hangs straight
down like a paddle", sheet 1 #2 and sheet 3 #11, portrait 3/4), seed 4639's #2 (teal, a heavy masculine body) and #11
(dark, a short heavy feminine one) and the default feminine ponytail. Measured on the avatar as the previews draw it
(LOD 0, the idle clip's first frame: :func:`test_ponytail_review_v.posed`), the figure facing +z (x across, y up),
the tail (the hair under the tie's middle and behind it) cut level every so far under the tie, :data:`SLAB` thick,
its size at each cut the mean of its width from behind and its depth from the side (the 5th to 95th percentile of
points on its triangles: what a camera at 3/4 sees of it lies between the two).

- *A paddle*: a tail keeps its full size from a few centimetres under its tie down over the portrait's frame: on main
  its size 12 and 16 cm under the tie (:data:`UNDER`) was 1.01 and 0.90 of its fullest on #2, 0.96 and 0.84 on #11,
  0.98 and 0.90 on the default (the mean of the two 0.956 / 0.904 / 0.941): 5 to 5.4 cm across and straight-sided
  from 5 to 16 cm under the tie, then cut off by the portrait's frame, a slab. A gathered tail is fullest just out of
  its tie and tapers steadily to its tip: now 0.92 and 0.73, 0.80 and 0.61, 0.84 and 0.69 (means 0.824 / 0.707 /
  0.763; ``workbench.body.hair.tail.THINS_FROM`` 0.3 -> 0.2, ``TAPER``, and ``SAG``, its flare swelling under the
  tie). The mean at most :data:`MOST`.

Figures (main -> now) in :func:`figures`; docs/avatars.md, sleek39.
"""

import numpy as np
import pytest
from test_ponytail_review_x import cuts

AVATARS = ("AC#2", "AC#11", "default")
# (metres under the tie: the fullest is sought over the first ones, the taper read at the last two)
FULL = (0.03, 0.04, 0.05, 0.06, 0.07, 0.08)
UNDER = (0.12, 0.16)
MOST = 0.84


def sizes(name: str, under: tuple[float, ...]) -> list[float]:
    """Per height in ``under`` (metres under the tie): the tail's size there, the mean of its width and depth (cut as
    test_ponytail_review_x cuts it)."""
    return [float(np.mean(wd)) for wd in cuts(name, under)]


def shares(name: str) -> list[float]:
    """The tail's size at each of :data:`UNDER` over its fullest (over :data:`FULL`)."""
    return [s / max(sizes(name, FULL)) for s in sizes(name, UNDER)]


def figures(name: str) -> str:
    return (f"{name}: fullest {max(sizes(name, FULL)) * 1000:.1f} mm, at {UNDER} m under the tie "
            f"{[round(s, 2) for s in shares(name)]} of it")


@pytest.mark.parametrize("name", AVATARS)
def test_the_tail_tapers_from_its_tie(name):
    assert np.mean(shares(name)) <= MOST, figures(name)
