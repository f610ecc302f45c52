"""Blind review Q's defect 3 (issue 46): seed 4627's #3 and #10, curly hair, "sits on top of the head like a tuft or
crown, with a bare, hard-edged high hairline and bare temples ... Near the ears they look thin and sparse". Should be:
a curl mass covering the temples and around the ears, with a soft hairline.

Measured as the reviewer saw it: each avatar drawn in our renderer in a portrait turned 35 degrees (the sheets' 3/4)
and 90 (a side view), with its curls and again bald (the same body, camera and light); over the side of the head the
camera faces, points on the head's envelope (:meth:`workbench.body.hair.head.Head.envelope`) over the temple (between
the brow's outer end and the ear, above the brow) and over the ear's top, projected into both pictures; the share of
them where the skin still shows (the two pictures within :data:`SAME` grey levels of each other: no hair drawn over
it). In the bind pose, where the GLB's head is the body mesh's.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings

from workbench.body.hair.head import directions, head_of
from workbench.body.mesh import body_mesh
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame
from workbench.render.pictures import _pivot, _turned
from workbench.render.raster import draw
from workbench.render.scene import Model
from workbench.render.stage import project

SIZE = 320
SAME = 12.0
# The windows (degrees from the face, from the crown) over the camera's side of the head.
# (The temple: from the forehead's corner back to the sideburn, down to the brow's outer end; by the ear: in front
# of its top half.)
WINDOWS = {"temple": ((45.0, 75.0), (50.0, 78.0)), "ear": ((80.0, 96.0), (84.0, 98.0))}
# The share of a window's points that may show skin, at most, by window and turn. On main (#3, #10): the temple
# 0.667, 0.654 at 35 degrees and 0.346, 0.321 at 90; by the ear 0.407, 0.333 at 35 and 0.457, 0.469 at 90. Now
# 0.333, 0.358; 0.086, 0.086; by the ear 0.0 to 0.025. (At 35 degrees the temple's front, past the forehead's corner, is the rootline's.)
MOST_BARE = {("temple", 35.0): 0.45, ("temple", 90.0): 0.2, ("ear", 35.0): 0.15, ("ear", 90.0): 0.15}


@cache
def pictures(n: int, yaw: float) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Review Q's #``n`` drawn with its hair and bald at ``yaw`` (grey levels, (SIZE, SIZE)), and each window's
    points in the picture ((N, 2) pixels, those on the head's side towards the camera)."""
    drawn = random_settings(12, 4627, with_added=True)[n - 1]
    s = normalize_avatar_settings(drawn)
    both = [Model(build_avatar(normalize_avatar_settings(dict(drawn, hair=hair)), ModelOptions(animations=("idle",)))).posed()
            for hair in (drawn["hair"], {"style": "none"})]
    pivot = _pivot(both[0])                       # (both turned about the same axis, drawn by the same camera)
    both = [_turned(posed, yaw, pivot) for posed in both]
    cam = frame(both[0], "portrait")
    grey = [draw(posed, cam, SIZE, background=(255, 255, 255))[..., :3].astype(float).mean(-1) for posed in both]
    head = head_of(body_mesh(s))
    a = np.radians(yaw)
    R = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    toward = np.linalg.inv(cam.view)[:3, 3] - head.centre
    points = {}
    for name, ((a0, a1), (p0, p1)) in WINDOWS.items():
        az, pol = np.meshgrid(np.r_[np.linspace(-a1, -a0, 9), np.linspace(a0, a1, 9)], np.linspace(p0, p1, 9))
        d = directions(az.ravel(), pol.ravel())
        world = (head.centre + d * head.envelope(d)[:, None] - pivot) @ R.T + pivot
        facing = (d @ R.T) @ (toward / np.linalg.norm(toward)) > 0.35
        xy, ok = project(world[facing], cam, SIZE)
        points[name] = xy[ok]
    return grey[0], grey[1], points


def bare(n: int, yaw: float, window: str) -> float:
    """The share of ``window``'s points where review Q's #``n`` at ``yaw`` shows its skin (see the module's text)."""
    haired, bald, points = pictures(n, yaw)
    x, y = np.clip(points[window].round().astype(int), 0, SIZE - 1).T
    assert len(x) >= 20 and (bald[y, x] < 250).all()                 # on the head, not the backdrop
    return float(np.mean(np.abs(haired[y, x] - bald[y, x]) < SAME))


@pytest.mark.parametrize("n", [3, 10])
@pytest.mark.parametrize("yaw", [35.0, 90.0])
@pytest.mark.parametrize("window", ["temple", "ear"])
def test_curls_cover_the_temples_and_round_the_ears(n, yaw, window):
    share = bare(n, yaw, window)
    assert share <= MOST_BARE[window, yaw], (n, yaw, window, round(share, 3))
