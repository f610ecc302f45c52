"""The hair defects left after hair3's pass (issue 46, pass four), each measured where it comes from:

- **Curls in flakes**: each coil's triangles shaded with their own normal (flat flakes, and in light hair a
   white band of those facing the light); a coil's normals are shared along it and turn smoothly.
"""

from functools import cache

import numpy as np

from workbench.body.hair import hair_pieces
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings


@cache
def _curls() -> dict:
    s = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "curly", "color": "#E6CFA0"}})
    return hair_pieces(body_mesh(s), "curly", 0)


def test_a_coils_vertices_share_their_normals():
    """No seam in a coil's shading: vertices at one place (a coil's corners, shared by its triangles) have one
    normal (each triangle's own normal made every corner several, up to a quarter turn apart)."""
    p = _curls()["Hair"]
    key = np.round(p.positions.astype(np.float64) / 1e-5).astype(np.int64)
    _, group = np.unique(key, axis=0, return_inverse=True)
    group = group.reshape(-1)
    n = p.normals.astype(np.float64)
    mean = np.zeros((group.max() + 1, 3))
    np.add.at(mean, group, n)
    mean /= np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12)
    off = np.degrees(np.arccos(np.clip(np.sum(n * mean[group], axis=1), -1, 1)))
    assert np.percentile(off, 99) < 1.0, np.percentile(off, 99)
