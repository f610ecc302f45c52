"""The analysis functions give the same answer on pandas and on Dask, on the same 250,000 events.

A quarter of the million these tests once drew: four partitions of whole sessions, sessions crossing
midnight, visitors coming back, ties and every funnel step are all there at this size, and the answers are
compared in full, row for row; a million only made each comparison four times longer (the analysis at a
million events and more is measured in bench/analysis.py and bench/scale.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking.lake import SESSION_PART, VISITOR_PART, read_events, write_synth_lake

N_EVENTS = 250_000

# slow: a lake of 250,000 events on a Dask cluster; the quick loop keeps pandas against Dask on a small random lake
# (tests/tracking/test_analysis_edges.py::test_pandas_equals_dask_on_random_lakes_bucketed_and_round_robin[1]).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    # 4 chunks of whole sessions: 4 partitions, sessions crossing midnight included
    return write_synth_lake(tmp_path_factory.mktemp("lake") / "events", N_EVENTS, seed=11, chunk_events=62_500)


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    # in-process workers: starts in a second, and the suite runs on 2 shared cores
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster, set_as_default=False) as c:
        yield c


@pytest.fixture(scope="module")
def both(lake):
    """The same events as one pandas frame (read straight from the files) and as a Dask frame."""
    pdf = pq.read_table(lake).to_pandas().drop(columns=["date"])
    return pdf, read_events(lake)


def _rows(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return df.sort_values(by, kind="stable").reset_index(drop=True)


def test_lake_holds_all_events_with_sessions_and_visitors_whole_per_partition(both):
    pdf, ddf = both
    assert len(pdf) == N_EVENTS and ddf.npartitions == 4
    assert ddf.index.name == VISITOR_PART and ddf.known_divisions
    for column in ("sessionId", "visitorId"):
        per_part = ddf[[column]].map_partitions(lambda p: p.drop_duplicates()).compute()
        assert per_part[column].is_unique  # none in two partitions
    # visitors come back: many have several sessions
    assert pdf.groupby("visitorId")["sessionId"].nunique().gt(1).sum() > 250
    assert pdf["timestamp"].dt.tz is not None and str(pdf["timestamp"].dt.tz) == "UTC"


def test_sessionize(both, client):
    pdf, ddf = both
    expected = _rows(A.sessionize(pdf), ["id"])
    got = _rows(A.sessionize(ddf, client=client).compute(), ["id"])
    assert len(got) == N_EVENTS
    assert got["visit"].astype(str).tolist() == expected["visit"].astype(str).tolist()
    assert (got["timestamp"] == expected["timestamp"]).all()


@pytest.mark.parametrize("by", ["sessionId", "visit"])
def test_funnel(both, client, by):
    pdf, ddf = both
    steps = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
    if by == "visit":
        pdf, ddf = A.sessionize(pdf), A.sessionize(ddf, client=client)
    expected = A.funnel(pdf, steps, by=by)
    assert expected["count"].iloc[-1] > 0
    pd.testing.assert_frame_equal(A.funnel(ddf, steps, by=by, client=client), expected)


def test_load_times(both, client):
    pdf, ddf = both
    pd.testing.assert_frame_equal(A.load_times(ddf, client=client), A.load_times(pdf))


def test_dwell_times(both, client):
    pdf, ddf = both
    expected = A.dwell_times(pdf)
    got = _rows(A.dwell_times(ddf, client=client).compute(), ["visit"])
    assert len(got) > 12_500
    got["visit"] = got["visit"].astype(object)
    expected["visit"] = expected["visit"].astype(object)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_ar_conversion(both, client):
    pdf, ddf = both
    expected = A.ar_conversion(pdf)
    assert expected["placed"].sum() > 0
    pd.testing.assert_frame_equal(A.ar_conversion(ddf, client=client), expected)


@pytest.mark.parametrize("key,field", [("hotspot_opened", "hotspotId"), ("variant_selected", "variantId")])
def test_rank(both, client, key, field):
    pdf, ddf = both
    pd.testing.assert_frame_equal(A.rank(ddf, key, field, client=client), A.rank(pdf, key, field))


@pytest.mark.parametrize("freq,by", [("1h", "key"), ("1D", None)])
def test_events_over_time(both, client, freq, by):
    pdf, ddf = both
    pd.testing.assert_frame_equal(A.events_over_time(ddf, freq=freq, by=by, client=client),
                                  A.events_over_time(pdf, freq=freq, by=by))


def test_viewer_kpis(both, client):
    pdf, ddf = both
    expected = A.viewer_kpis(pdf)
    got = A.viewer_kpis(ddf, client=client)
    # dwell means add per-partition sums: equal up to float rounding
    pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=1e-12)


def test_frames_without_session_buckets_are_shuffled_to_the_same_answer(both, lake, client):
    """A plain Parquet dataset (another tool's lake) has no bucket promise: the analysis shuffles by session."""
    import dask.dataframe as dd

    pdf, _ = both
    plain = dd.read_parquet(str(lake), columns=["sessionId", "key", "timestamp"])
    assert plain.index.name != SESSION_PART
    steps = ["viewer_loaded", "ar_requested", "ar_session_started"]
    pd.testing.assert_frame_equal(A.funnel(plain, steps, client=client), A.funnel(pdf, steps))


def test_scheduler_from_the_environment(both, client, monkeypatch):
    from workbench.tracking.cluster import close_embedded, get_client

    pdf, ddf = both
    monkeypatch.setenv("WORKBENCH_DASK_SCHEDULER", "threads")
    pd.testing.assert_frame_equal(A.rank(ddf), A.rank(pdf))
    # a scheduler's address, as a real cluster's tcp://HOST:8786 would be
    monkeypatch.setenv("WORKBENCH_DASK_SCHEDULER", client.scheduler.address)
    try:
        named = get_client()
        assert named is not client and named.scheduler.address == client.scheduler.address
        pd.testing.assert_frame_equal(A.ar_conversion(ddf), A.ar_conversion(pdf))
        assert get_client() is named
    finally:
        close_embedded()


def test_jsonl_and_parquet_files_open_too(tmp_path):
    from workbench.tracking.synth import generate, write_events

    jsonl = write_events(tmp_path / "e.jsonl", 3_000, seed=2)
    pdf = A.events_frame(jsonl)
    ddf = read_events(jsonl)
    assert len(ddf) == 3_000 and np.dtype("int64") != ddf["timestamp"].dtype
    steps = ["viewer_loaded", "model_loaded", "hotspot_opened"]
    pd.testing.assert_frame_equal(A.funnel(ddf, steps, client="sync"), A.funnel(pdf, steps))
    pd.testing.assert_frame_equal(A.load_times(ddf, client="sync"), A.load_times(pdf))
    generate(2_000, seed=3, flat=True).to_parquet(tmp_path / "e.parquet")
    assert len(read_events(tmp_path / "e.parquet", columns=["key"])) == 2_000
    with pytest.raises(ValueError, match="read_events"):
        read_events(tmp_path / "e.csv")


# ----------------------------------------------------------------------------------------------
# The product analytics questions: retention, funnel options, paths, experiments
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [
    {"by": "visitorId"},
    {"by": "visitorId", "kind": "unbounded", "calendar": True},
    {"by": "visitorId", "kind": "bracket", "brackets": [(1, 1), (2, 3), (4, 6)], "return_key": "cta_clicked"},
    {"by": "sessionId", "period": "6h", "periods": 4},
])
def test_retention(both, client, kw):
    pdf, ddf = both
    expected = A.retention(pdf, start_key="viewer_loaded", **kw)
    pd.testing.assert_frame_equal(A.retention(ddf, start_key="viewer_loaded", client=client, **kw), expected)
    assert expected[("size", "")].sum() > 2_500 and expected["count"].iloc[:, 1].sum() > 0


FUNNEL = ["viewer_loaded", "hotspot_opened", "cta_clicked"]


@pytest.mark.parametrize("steps,kw", [
    (FUNNEL, {"order": "ordered", "exclude": ["load_error"]}),
    (["viewer_loaded", "custom.experiment", "model_loaded"], {"order": "strict"}),
    (FUNNEL, {"order": "any"}),
    (FUNNEL, {"breakdown": "device", "attribution": "last_touch"}),
])
def test_funnel_options(both, client, steps, kw):
    pdf, ddf = both
    expected = A.funnel(pdf, steps, **kw)
    pd.testing.assert_frame_equal(A.funnel(ddf, steps, client=client, **kw), expected)
    assert expected["count"].iloc[-1] > 0


@pytest.mark.parametrize("kw", [
    {"start": "viewer_loaded", "exclude": ["heartbeat"]},
    {"end": "cta_clicked", "collapse": True, "steps": 4},
    {"start": "viewer_loaded", "end": "cta_clicked", "steps": 8, "exclude": ["heartbeat"]},
])
def test_paths(both, client, kw):
    pdf, ddf = both
    expected = A.paths(pdf, **kw)
    pd.testing.assert_frame_equal(A.paths(ddf, client=client, **kw), expected)
    assert len(expected) == 20 or kw.get("end")


def test_transitions(both, client):
    pdf, ddf = both
    expected = A.transitions(pdf, exclude=["heartbeat"])
    pd.testing.assert_frame_equal(A.transitions(ddf, exclude=["heartbeat"], client=client), expected)


@pytest.mark.parametrize("interval", ["fixed", "bayes"])
def test_compare_variants(both, client, interval):
    pdf, ddf = both
    kw = {"variant_field": "variant", "success_key": "cta_clicked", "interval": interval, "by": "visitorId"}
    expected = A.compare_variants(pdf, **kw)
    pd.testing.assert_frame_equal(A.compare_variants(ddf, client=client, **kw), expected)


def test_a_two_core_machine_runs_every_lake_on_threads(monkeypatch):
    """Above IN_PROCESS_ROWS a machine of THREADS_ONLY_CORES cores still takes the threads (its cluster was slower
    at 100 million events), and names no cluster; a larger machine is sent to the cluster (not started here)."""
    from workbench.tracking import cluster

    monkeypatch.delenv("WORKBENCH_DASK_SCHEDULER", raising=False)
    monkeypatch.setattr(cluster.os, "cpu_count", lambda: 2)
    assert cluster.get_client(rows=10 * cluster.IN_PROCESS_ROWS) == "threads"
    assert cluster.get_client(rows=None) == "threads"
    monkeypatch.setattr(cluster.os, "cpu_count", lambda: 8)
    assert cluster.get_client(rows=cluster.IN_PROCESS_ROWS) == "threads"
    monkeypatch.setattr(cluster, "_unguarded_script", lambda: True)  # a larger lake: the cluster's branch, refused
    with pytest.warns(UserWarning, match="worker processes"):
        assert cluster.get_client(rows=cluster.IN_PROCESS_ROWS + 1) == "threads"
