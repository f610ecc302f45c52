"""A lake that fits in this process is answered without Dask's scheduler (issue 47 item 4): each bucket read by Arrow
into pandas and the question's kernel run on it, with pandas' answer; a named scheduler, a larger lake or another
Dask frame still goes through Dask, to the same answer."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking.analysis import dispatch
from workbench.tracking.lake import LakeWriter, read_events, write_synth_lake
from workbench.tracking.schema import from_records

QUESTIONS = {
    "lifecycle": lambda d, **k: A.lifecycle(d, event="interaction_start", by="visitorId", **k),
    "stickiness": lambda d, **k: A.stickiness(d, event="interaction_start", by="visitorId", **k),
    "retention": lambda d, **k: A.retention(d, start_key="viewer_loaded", by="visitorId", periods=4, **k),
    "paths": lambda d, **k: A.paths(d, start="viewer_loaded", steps=4, by="sessionId", exclude=["heartbeat"], **k),
    "funnel by visit": lambda d, **k: A.funnel(A.sessionize(d, **k), ["viewer_loaded", "hotspot_opened",
                                                                       "cta_clicked"], by="visit", **k),
    "time to convert": lambda d, **k: A.time_to_convert(d, ["viewer_loaded", "cta_clicked"], **k),
    "readout": lambda d, **k: A.compare_variants(d, variant_field="variant", success_key="cta_clicked",
                                                 by="visitorId", **k),
    "correlation": lambda d, **k: A.funnel_correlation(d, ["viewer_loaded", "cta_clicked"], properties=["device"], **k),
}


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    # three buckets: the pool runs them side by side
    return write_synth_lake(tmp_path_factory.mktemp("in_process") / "events", 30_000, seed=5, chunk_events=10_000)


@pytest.fixture(scope="module")
def frame(lake):
    return pq.read_table(lake).to_pandas().drop(columns=["date"])


@pytest.fixture()
def no_dask(monkeypatch):
    """Dask's compute made to fail: an answer given anyway was computed in this process."""
    def refuse(*a, **k):
        raise AssertionError("Dask computed a lake that fits in this process")

    monkeypatch.setattr(dispatch, "compute", refuse)
    for module in (A.lifecycle, A.stickiness, A.retention, A.paths, A.funnel, A.time_to_convert, A.compare_variants,
                   A.funnel_correlation):
        monkeypatch.setattr(__import__(module.__module__, fromlist=["x"]), "compute", refuse, raising=False)


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_lake_that_fits_is_answered_here_with_pandas_answer(lake, frame, no_dask, name):
    ask = QUESTIONS[name]
    assert read_events(lake).npartitions == 3
    pd.testing.assert_frame_equal(ask(read_events(lake)), ask(frame))


@pytest.mark.parametrize("name", ["lifecycle", "funnel by visit", "readout"])
def test_a_named_scheduler_a_larger_lake_and_a_filtered_frame_go_through_dask(lake, frame, monkeypatch, name):
    ask = QUESTIONS[name]
    calls = []
    real = dispatch.compute
    monkeypatch.setattr(dispatch, "compute", lambda *a, **k: calls.append(1) or real(*a, **k))
    expected = ask(frame)
    pd.testing.assert_frame_equal(ask(read_events(lake), client="sync"), expected)
    assert len(calls) == 1
    monkeypatch.setattr(dispatch, "IN_PROCESS_ROWS", 1_000)  # the lake no longer fits
    pd.testing.assert_frame_equal(ask(read_events(lake)), expected)
    assert len(calls) == 2
    monkeypatch.undo()
    ddf = read_events(lake)
    kept = ddf[ddf["key"] != "custom.add_to_cart"]  # not a plain read of the lake: Dask
    calls.clear()
    monkeypatch.setattr(dispatch, "compute", lambda *a, **k: calls.append(1) or real(*a, **k))
    pd.testing.assert_frame_equal(ask(kept), ask(frame[frame["key"] != "custom.add_to_cart"]))
    assert len(calls) == 1


def test_buckets_that_do_not_hold_whole_visitors_are_read_as_one_frame(tmp_path, no_dask):
    """A LakeWriter lake whose visitor is named only on a session's later events keeps sessions whole, not visitors:
    by visitor, the lake is read into one frame and the kernel runs once (a bucket at a time would split a visitor)."""
    rng = np.random.default_rng(0)
    t0 = 1_793_491_200_000
    records = []
    for v in range(40):
        for s in range(3):
            day = int(rng.integers(0, 5))
            for e in range(3):
                named = e > 0 or s == 0  # a session's first event anonymous, but on the visitor's first session
                records.append({"sessionId": f"s{v}-{s}", "visitorId": f"v{v}" if named else None,
                                "key": "interaction_start" if e else "viewer_loaded", "id": f"e{v}-{s}-{e}",
                                "timestamp": t0 + day * 86_400_000 + e * 1000, "payload": {}})
    with LakeWriter(tmp_path / "lake", buckets=4) as w:  # each session's first event first: its bucket is fixed then
        w.write(from_records([r for r in records if r["id"].endswith("-0")]))
        w.write(from_records([r for r in records if not r["id"].endswith("-0")]))
    assert not w.visitors_whole
    ddf = read_events(tmp_path / "lake")
    expected = A.lifecycle(pd.DataFrame(records).assign(timestamp=lambda d: pd.to_datetime(d["timestamp"], unit="ms",
                                                                                              utc=True)),
                           event="interaction_start", by="visitorId")
    pd.testing.assert_frame_equal(A.lifecycle(ddf, event="interaction_start", by="visitorId"), expected,
                                  check_dtype=False)
