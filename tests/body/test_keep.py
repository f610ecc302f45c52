"""Kept arrays (workbench.body.keep): the file form read and written whole, what is not such a file refused,
and other code's copies forgotten after a day."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from workbench.body import keep


def test_every_kind_of_array_comes_back_the_same_and_read_only(tmp_path):
    arrays = {"scalar": np.float32(0.25), "empty": np.zeros((0, 3), np.int64), "flags": np.array([True, False]),
              "half": np.linspace(0, 1, 7, dtype=np.float16), "grid": np.arange(24, dtype=np.uint8).reshape(2, 3, 4),
              "strided": np.arange(12.0).reshape(3, 4).T}
    keep.write_arrays(tmp_path / "a.arrays", arrays)
    back = keep.read_arrays(tmp_path / "a.arrays")
    assert list(back) == list(arrays)
    for k, v in arrays.items():
        assert back[k].dtype == np.asarray(v).dtype and back[k].shape == np.shape(v)
        assert np.array_equal(back[k], v)
        assert not back[k].flags.writeable


def test_same_arrays_same_bytes(tmp_path):
    arrays = {"x": np.arange(100, dtype=np.int32), "y": np.ones((5, 5))}
    keep.write_arrays(tmp_path / "a.arrays", arrays)
    keep.write_arrays(tmp_path / "b.arrays", arrays)
    assert (tmp_path / "a.arrays").read_bytes() == (tmp_path / "b.arrays").read_bytes()


@pytest.mark.parametrize("harm", [
    lambda b: b[: len(b) // 2],                       # truncated
    lambda b: b + b"\0" * 64,                         # longer than its header says
    lambda b: b"PK\x03\x04" + b[4:],                  # another format
    lambda b: b[:30] + b"{not json" + b[39:],         # a torn header
    lambda b: b"",
])
def test_what_is_not_such_a_file_whole_is_refused(tmp_path, harm):
    path = tmp_path / "a.arrays"
    keep.write_arrays(path, {"x": np.arange(1000, dtype=np.float64)})
    path.write_bytes(harm(path.read_bytes()))
    with pytest.raises(ValueError):
        keep.read_arrays(path)


def test_objects_are_never_kept(tmp_path):
    with pytest.raises(TypeError, match="not booleans, integers or floats"):
        keep.write_arrays(tmp_path / "a.arrays", {"x": np.array([{}, []], dtype=object)})


def test_a_bad_kept_file_is_made_again_and_other_codes_old_copies_are_forgotten(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(tmp_path))
    folder = keep.compiled_dir()
    folder.mkdir(parents=True)
    mine = folder / f"thing-v1-{keep.code_digest()}{keep.KEPT_SUFFIX}"
    old, recent = folder / f"thing-v1-aaaaaaaaaaaa{keep.KEPT_SUFFIX}", folder / f"thing-v1-bbbbbbbbbbbb{keep.KEPT_SUFFIX}"
    other = folder / f"thing-v1-extra-cccccccccccc{keep.KEPT_SUFFIX}"    # another name's: never touched
    for path in (old, recent, other):
        keep.write_arrays(path, {"x": np.zeros(2)})
    for path in (old, other):   # last written in 1970: long more than a day ago
        os.utime(path, (0, 0))
    mine.write_bytes(b"garbage")
    made = []
    got = keep.kept("thing-v1", lambda: made.append(1) or {"x": np.arange(2.0)}, {"x": (2,)})
    assert made == [1] and got["x"].tolist() == [0.0, 1.0]
    assert keep.read_arrays(mine)["x"].tolist() == [0.0, 1.0]
    assert not old.exists() and recent.exists() and other.exists()


def test_of_other_codes_young_copies_only_the_newest_are_kept(tmp_path, monkeypatch):
    """A day of edits made a copy of every kept file per edit (59 GB): past keep.RECENT_KEPT, the oldest go."""
    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(tmp_path))
    folder = keep.compiled_dir()
    folder.mkdir(parents=True)
    now = time.time()
    others = [folder / f"thing-v1-{i:012x}{keep.KEPT_SUFFIX}" for i in range(keep.RECENT_KEPT + 3)]
    for i, path in enumerate(others):     # the first the newest, all younger than a day
        keep.write_arrays(path, {"x": np.zeros(2)})
        os.utime(path, (now - 60 * i, now - 60 * i))
    keep.kept("thing-v1", lambda: {"x": np.arange(2.0)}, {"x": (2,)})
    assert [p.exists() for p in others] == [True] * keep.RECENT_KEPT + [False] * 3
