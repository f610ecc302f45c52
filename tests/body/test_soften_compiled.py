"""The face shapes' evening and unfolding rounds, compiled (workbench.body.soften._even,
workbench.body.expressions.unfolding), give the shapes numpy's rounds gave, to the bit: the rounds as they were
written in numpy are kept here as the reference, and a face's whole set of shapes is made with each."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings

from workbench.body import expressions, mesh, sets, soften
from workbench.options import normalize_avatar_settings


def _even_numpy(pos, full, shared, ua, ub, limit, tri_a, tri_b, indptr, indices, count, free, rounds):
    from scipy.sparse import csr_matrix

    ring = csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(pos), len(pos)))
    tris_a_b = np.concatenate([tri_a, tri_b])
    for _ in range(rounds):
        creased = soften._cosines(pos + full, shared, ua, ub) < limit
        if not creased.any():
            break
        region = np.zeros(len(pos), bool)
        region[tris_a_b[np.concatenate([creased, creased])].ravel()] = True
        for _ in range(soften.SPREAD):
            region |= (ring @ region.astype(np.float64)) > 0
        at = np.flatnonzero(region & free)
        full[at] = ((full + ring @ full) / (1 + count)[:, None])[at]


def _unfolding_numpy(pos, full, seen, rest, indptr, indices, count, rounds):
    from scipy.sparse import csr_matrix

    ring = csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(pos), len(pos)))
    for _ in range(rounds):
        q = pos + full
        flipped = (np.cross(q[seen[:, 1]] - q[seen[:, 0]], q[seen[:, 2]] - q[seen[:, 0]]) * rest).sum(1) < 0
        if not flipped.any():
            break
        region = np.zeros(len(pos), bool)
        region[seen[flipped].ravel()] = True
        at = np.flatnonzero(region | ((ring @ region.astype(np.float64)) > 0))
        full[at] = ((q + ring @ q) / (1 + count)[:, None])[at] - pos[at]


@pytest.mark.parametrize("k", [0, 1])
def test_the_compiled_rounds_make_numpys_shapes(monkeypatch, k):
    settings = normalize_avatar_settings(random_settings(2, seed=4721, with_added=True, heads=True, features=True,
                                                         spread=True, recent=True)[k])
    key = mesh.body_key(settings)
    compiled = mesh._morphs.__wrapped__(*key)
    monkeypatch.setattr(soften, "_even", _even_numpy)
    monkeypatch.setattr(expressions, "unfolding", _unfolding_numpy)
    reference = mesh._morphs.__wrapped__(*key)
    assert compiled.keys() == reference.keys()
    smiles = [n for n in reference if n.startswith("mouthSmile")]
    assert smiles and any(len(reference[n][0]) for n in smiles)
    for name, (idx, delta) in reference.items():
        assert np.array_equal(compiled[name][0], idx), name
        assert compiled[name][1].tobytes() == delta.tobytes(), name


def test_the_sets_are_numpys():
    rng = np.random.default_rng(49)
    for _ in range(200):
        a, b = rng.integers(-3, 30, rng.integers(0, 40)), rng.integers(-3, 30, rng.integers(0, 40)).astype(np.int32)
        assert np.array_equal(sets.unique(a), np.unique(a)) and sets.unique(a).dtype == np.unique(a).dtype
        for ours, theirs in ((sets.union, np.union1d), (sets.intersection, np.intersect1d),
                             (sets.difference, np.setdiff1d)):
            assert np.array_equal(ours(a, b), theirs(a, b)) and ours(a, b).dtype == theirs(a, b).dtype
