"""The palm-on-the-hip solve's readings (``workbench.gltf.reach``): what their shortcuts rest on.

The solve reads each point's depth on all the trunk's surfaces together and on each surface (the body, the top,
the bottom) on its own, and looks a point up on each surface only where all surfaces together have a sample within
``reach.NEAR`` of it: exact only while every surface's samples are some of all's, checked here on a hip stance's
posed body. (The solve's result hangs on its readings to the last bit: a Powell search over a flat cost, where a
sum taken in another order moved 4 of 30 hip cases' hands 1 to 55 mm; tests/body/test_stances.py and
test_hands_review_p.py hold where they rest.)
"""

from __future__ import annotations

import numpy as np

from workbench.gltf.meshes import avatar_skeleton, parts
from workbench.gltf.reach import Surface, _rims_off, _sleeve, frames
from workbench.gltf.stances import _pose, outsides
from workbench.options import normalize_avatar_settings


def _body():
    s = normalize_avatar_settings({"gender": "masculine", "bodyShape": "heavy", "hair": {"style": "none"},
                                   "pose": "hands_on_hips", "outfit": {"topStyle": "hoodie", "bottomStyle": "skirt"}})
    rig, pieces = avatar_skeleton(s), parts(s)
    shells = outsides(s["outfit"], pieces)
    return rig, pieces, shells, Surface(rig, pieces, *frames(_pose("hands_on_hips", "masculine"), rig), shells)


def test_each_surface_is_some_of_all_surfaces():
    _, _, _, surface = _body()
    rows = {r.tobytes() for r in np.ascontiguousarray(surface.points)}
    for points, _ in surface.each:
        assert len(points) > 1000
        assert all(r.tobytes() in rows for r in np.ascontiguousarray(points))
    assert sum(len(p) for p, _ in surface.each) > len(surface.points) // 4     # (44 % of them here)


def test_the_sleeve_read_from_the_surface_is_the_sleeve_read_alone():
    rig, pieces, shells, surface = _body()
    assert surface.cloth is not None and surface.cloth[1].sum() < len(surface.cloth[1])   # (some vertices by a rim)
    for side in ("Left", "Right"):
        alone, shared = _sleeve(rig, pieces, shells["Outfit_Top"], side), _sleeve(rig, pieces, shells["Outfit_Top"],
                                                                                  side, surface.cloth)
        assert alone is not None and len(alone[0]) > 100
        assert all(np.array_equal(a, b) for a, b in zip(alone, shared, strict=True))
    top = pieces["Outfit_Top"]
    deep = _rims_off(np.asarray(top.positions, np.float64), np.asarray(top.indices).reshape(-1, 3), 0.015)
    assert np.array_equal(surface.cloth[1], deep[:shells["Outfit_Top"]])
