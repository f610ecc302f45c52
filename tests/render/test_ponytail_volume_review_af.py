"""Blind review AF's slicked ponytail (issue 46, defect 4, ponytail 3.5: "The ponytail is one flat ribbon. It is a
single wide, flat card hanging from the back of a painted scalp cap, with no volume and no tie", seed 4642's #4,
sheet 1 row 4, portrait 3/4 and back), and review AE's two (seed 4641's #7 and #9) and the default feminine ponytail.
Measured on the avatar as the previews draw it (LOD 0, the idle clip's first frame:
:func:`test_ponytail_review_v.posed`), the figure facing +z, the tail cut level every so far under its tie as
:func:`test_ponytail_review_x.cuts` cuts it (its width from behind and its depth from the side, the 5th to 95th
percentiles of points on its triangles).

- *No volume*: the tail's size over its upper part (the mean of its width and depth at :data:`UNDER` metres under the
  tie, the part the portraits at 3/4 and from behind show). On main it was round in section but thin for a gathered
  tail of hair: 49.5 / 46.9 / 47.5 / 46.7 mm (AF#4 / AE#7 / AE#9 / the default), a band behind the ear at 3/4 and a
  strip from behind at the sheets' 288 px. Now (``workbench.body.hair.tail.TAIL_RADIUS``' fullest 34 -> 42 mm, its
  tie's 11 -> 13 mm, its clumps gathered nearer its line, ``CLUMP_OFF``, and each fuller, ``CLUMP_RADIUS``) 59.1 /
  57.7 / 57.9 / 57.5 mm (the widths and depths at each cut in :func:`figures`). At least :data:`LEAST_SIZE` on every
  one.

Its roundness in section (depth over width) stays held by review X's and S's tests, its tie by review V's and L's, its
taper by review AC's. docs/avatars.md, tail42.
"""

import numpy as np
import pytest
from test_ponytail_review_x import cuts

AVATARS = ("AF#4", "AE#7", "AE#9", "default")
UNDER = (0.03, 0.05, 0.08, 0.11)
LEAST_SIZE = 0.053


def size(name: str) -> float:
    """The mean over :data:`UNDER` of the tail's size (the mean of its width and depth), metres."""
    return float(np.mean([np.mean(wd) for wd in cuts(name, UNDER)]))


def figures(name: str) -> str:
    return (f"{name}: size {size(name) * 1000:.1f} mm; (width, depth) mm at {UNDER} m under the tie "
            + str([(round(w * 1000, 1), round(d * 1000, 1)) for w, d in cuts(name, UNDER)]))


@pytest.mark.parametrize("name", AVATARS)
def test_the_tail_has_the_volume_of_a_gathered_tail(name):
    assert size(name) >= LEAST_SIZE, figures(name)
