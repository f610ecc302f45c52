"""The work of a body's face shapes that was done and never read, or done again with the same inputs (suite31, issue
49: the CPU of a build), left out, with the same bytes (bench/build_preview.py --hashes: review U's 12 avatars and
both defaults, models and previews the same on main and here).

- :func:`workbench.body.soften.soften` read each round the facings of the edges it watches, but worked out every
  triangle's round the shape (a third to a half of them read);
- :func:`workbench.body.corner_shade.soft_corners` looked up the same balls round the same rest places each of its
  rounds, and took each ball's mean in a Python loop;
- :func:`workbench.body.soften.lip_edge`, the same for every body (MakeHuman's topology), was found seven times a
  body.
Each is counted here through a body's shapes (``workbench.body.mesh.morph_deltas``, what a model's face shapes are
made of); every one of these counts was over on main.
"""

from __future__ import annotations

import numpy as np

import workbench.body.corner_shade as corner_shade
import workbench.body.soften as soften
from workbench.body.face import _turned
from workbench.body.mesh import body_key, body_mesh, morph_deltas
from workbench.options import normalize_avatar_settings


def _settings(height: float) -> dict:
    # (Heights no other test builds: a body no cache holds.)
    return normalize_avatar_settings({"gender": "masculine", "height": height, "face": {"lipFullness": 0.4}})


def test_soften_works_out_the_facings_it_reads_only(monkeypatch):
    """On main a call worked out up to 4.0 times the facings its edges read (this body): the rest's (``_cosines``)
    and each round's (the compiled rounds' ``_facings``, of the triangles handed to ``_even``) are those only."""
    seen = []
    facings, even = soften._cosines, soften._even

    def counted(p, tris, a, b):
        seen.append((len(tris), len(np.unique(np.concatenate([a, b])))))
        return facings(p, tris, a, b)

    def rounds(pos, full, shared, ua, ub, *rest):
        seen.append((len(shared), len(np.unique(np.concatenate([ua, ub])))))
        return even(pos, full, shared, ua, ub, *rest)

    monkeypatch.setattr(soften, "_cosines", counted)
    monkeypatch.setattr(soften, "_even", rounds)
    morph_deltas(_settings(183.7))
    assert len(seen) > 10
    assert all(worked == read for worked, read in seen), max(w / r for w, r in seen)


def test_soft_corners_look_up_the_balls_once(monkeypatch):
    """On main each of the smile's three shaded shapes looked the balls up SOFT_ROUNDS (3) times: 9 look-ups; now once
    each, and once for the rest face's soft corners (pass 38, lips38: corner_shade.rest_normals): 4."""
    looked = []

    class Tree(corner_shade.cKDTree):
        def query_ball_point(self, *a, **k):
            looked.append(len(a[0]))
            return super().query_ball_point(*a, **k)

    monkeypatch.setattr(corner_shade, "cKDTree", Tree)
    s = _settings(184.9)
    _turned(body_key(s))
    assert len(looked) == 4 and min(looked) > 10


def test_soft_corners_mean_is_each_balls_own():
    """The balls' means, summed over all the balls at once, are the bits of each ball's ``mean(0)``."""
    m = body_mesh(_settings(184.9))
    tris = m.triangles[m.face_groups["body"]]
    share = corner_shade.seam_share(m)
    rng = np.random.default_rng(31)
    normals = rng.normal(size=(len(m.positions), 3))
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    got = corner_shade.soft_corners(m.positions, tris, normals, share)
    # The loop as it was: a ball looked up and averaged vertex by vertex, each round.
    near = np.intersect1d(np.flatnonzero(share > 0), tris)
    out = normals.copy()
    skin = np.unique(tris)
    tree = corner_shade.cKDTree(m.positions[skin])
    for _ in range(corner_shade.SOFT_ROUNDS):
        rows = tree.query_ball_point(m.positions[near], corner_shade.SOFT_BALL)
        mean = np.array([out[skin[r]].mean(0) for r in rows])
        out[near] += share[near][:, None] * (mean - out[near])
        out[near] /= np.maximum(np.linalg.norm(out[near], axis=1, keepdims=True), 1e-12)
    assert len(near) > 10
    assert got.tobytes() == out.tobytes()


def test_the_lips_edge_is_found_once():
    """On main each call found it again (a new, writable array)."""
    m = body_mesh(_settings(186.1))
    tris = m.triangles[m.face_groups["body"]]
    edge = soften.lip_edge(tris)
    assert soften.lip_edge(tris.copy()) is edge and not edge.flags.writeable
    other = tris[:-1]                             # (other triangles: their own edge)
    assert soften.lip_edge(other) is not edge
