"""The mouth's turned normals at every level of detail (the code review of pass 22, M1): the lining's deep vertices
face out of the mouth (teeth_walls.LINING_NORMAL) and the teeth keep the walls' and rows' normals LOD 0 gave them;
the decimated pieces' recomputed normals had lost both at LOD 1 and 2 (lining: 4 % and 7 % of its deep vertices out
of the mouth, against all at LOD 0)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.body.mesh import body_of
from workbench.body.mouth import lining_depth
from workbench.body.teeth_walls import LINING_NORMAL
from workbench.gltf.meshes import _key, _parts
from workbench.options import normalize_avatar_settings

KEY = _key(normalize_avatar_settings({"gender": "feminine"}))


@pytest.mark.parametrize("lod", [1, 2])
def test_the_linings_deep_vertices_face_out_of_the_mouth(lod):
    body = _parts(KEY, lod)["Body"]
    deep = lining_depth(body_of(KEY.body))[body.source] > 0.006
    assert deep.sum() > 50
    assert float((body.normals[deep] @ np.array(LINING_NORMAL) > 0.99).mean()) == 1.0


@pytest.mark.parametrize("lod", [1, 2])
def test_the_teeth_keep_their_normals(lod):
    whole, teeth = _parts(KEY, 0)["Teeth"], _parts(KEY, lod)["Teeth"]
    assert len(teeth.source) < len(whole.source)
    at = {(int(s), *map(float, t)): n for s, t, n in zip(whole.source, whole.uv, whole.normals, strict=True)}
    expected = np.array([at[(int(s), *map(float, t))] for s, t in zip(teeth.source, teeth.uv, strict=True)])
    np.testing.assert_array_equal(teeth.normals, expected)
