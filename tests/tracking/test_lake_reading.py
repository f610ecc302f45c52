"""How a lake is stored and read back, and the kernels made cheap for a fresh process's first call: each checked
against a plain reference (bench/RESULTS.md, 2026-11-26, has the timings that motivated them)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking.analysis.common import stable_order, tie_order
from workbench.tracking.analysis.dispatch import columns_of
from workbench.tracking.lake import LakeWriter, promises_unique_ids, read_events, write_synth_lake
from workbench.tracking.schema import from_records

STEPS = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
DAY_MS = 86_400_000


def _check_files(files):
    for f in files:
        pf = pq.ParquetFile(f)
        for g in range(pf.metadata.num_row_groups):
            table = pf.read_row_group(g, columns=["visitorId", "key", "sessionId"])
            for name in ("visitorId", "key"):
                column = table.column(name).combine_chunks()
                used = pc.unique(column.indices.drop_null())
                assert len(column.dictionary) == len(used), (f, name)  # no value the file does not use
            chunk = pf.metadata.row_group(g)
            encodings = {chunk.column(i).path_in_schema: chunk.column(i).encodings for i in range(chunk.num_columns)}
            assert "DELTA_BINARY_PACKED" in encodings["timestamp"], encodings["timestamp"]


def test_synth_lake_files_hold_only_the_dictionary_values_they_use_and_times_as_deltas(tmp_path):
    lake = write_synth_lake(tmp_path / "l", 40_000, seed=5)
    files = sorted(lake.glob("date=*/part-*.parquet"))
    assert len(files) >= 5
    _check_files(files)


def test_lake_writer_files_hold_only_the_dictionary_values_they_use_and_times_as_deltas(tmp_path):
    records = [{"sessionId": f"s{i % 40}", "visitorId": f"u{i % 13}", "key": ["viewer_loaded", "heartbeat"][i % 2],
                "timestamp": 1_793_491_200_000 + i * 3_600_000, "id": f"e{i}"} for i in range(400)]
    with LakeWriter(tmp_path / "w", buckets=3, buffer_rows=150) as writer:
        writer.write(from_records(records[:200]))
        writer.write(from_records(records[200:]))
    files = sorted((tmp_path / "w").glob("date=*/part-*.parquet"))
    assert len(files) > 3
    _check_files(files)


def test_a_lake_reads_sessions_as_a_categorical_with_the_answers_of_plain_strings(tmp_path):
    lake = write_synth_lake(tmp_path / "l", 6_000, seed=2)
    ddf = read_events(lake)
    df = ddf.compute()
    assert isinstance(df["sessionId"].dtype, pd.CategoricalDtype)
    assert isinstance(ddf._meta["sessionId"].dtype, pd.CategoricalDtype)
    plain = df.assign(sessionId=df["sessionId"].astype(str)).reset_index(drop=True)
    pd.testing.assert_frame_equal(A.funnel(ddf, STEPS), A.funnel(plain, STEPS))
    pd.testing.assert_frame_equal(A.funnel(A.sessionize(ddf), STEPS, by="visit"),
                                  A.funnel(A.sessionize(plain), STEPS, by="visit"))
    pd.testing.assert_frame_equal(A.paths(ddf, start="viewer_loaded", by="sessionId"),
                                  A.paths(plain, start="viewer_loaded", by="sessionId"))


def test_questions_that_do_not_order_events_skip_the_id_only_where_the_lake_promises_it_unique(tmp_path):
    unique = read_events(write_synth_lake(tmp_path / "l", 2_000, seed=1))
    assert promises_unique_ids(unique)
    assert "id" not in columns_of(unique, "visitorId", "key", "timestamp", ties=False)
    assert "id" in columns_of(unique, "visitorId", "key", "timestamp")  # paths order ties by it
    with LakeWriter(tmp_path / "w", buckets=2) as writer:  # an export: ids may repeat (a retried batch)
        writer.write(from_records([{"sessionId": "s", "key": "heartbeat", "timestamp": 1_793_491_200_000,
                                    "id": "e"}] * 2))
    repeated = read_events(tmp_path / "w")
    assert not promises_unique_ids(repeated)
    assert "id" in columns_of(repeated, "sessionId", "key", "timestamp", ties=False)
    assert not promises_unique_ids(pd.DataFrame({"id": ["a"]}))


def _reference_retention(df: pd.DataFrame, periods: int) -> pd.DataFrame:
    """Rolling n-day retention counts by visitor, by plain loops over the rows: cohort (ms) x period."""
    ms = ((df["timestamp"] - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(milliseconds=1)).tolist()
    rows = list(zip(df["visitorId"].tolist(), df["key"].tolist(), ms, strict=True))
    t0: dict = {}
    for visitor, key, t in rows:
        if visitor is not None and key == "viewer_loaded":
            t0[visitor] = min(t, t0.get(visitor, t))
    back = {(visitor, (t - t0[visitor]) // DAY_MS) for visitor, _, t in rows if visitor in t0 and t >= t0[visitor]}
    table: dict = {}
    for visitor, start in t0.items():
        row = table.setdefault(start // DAY_MS * DAY_MS, [0] * (periods + 1))
        row[0] += 1
        for n in range(1, periods + 1):
            row[n] += (visitor, n) in back
    return pd.DataFrame.from_dict(table, orient="index").sort_index()


def test_retention_in_blocks_counts_what_a_plain_loop_counts_across_block_boundaries():
    import importlib

    R = importlib.import_module("workbench.tracking.analysis.retention")  # the package's name is the function
    rng = np.random.default_rng(7)
    n = 2 * R._BLOCK + 1234  # three blocks, the last a short one
    df = pd.DataFrame({"visitorId": pd.Categorical([f"u{i}" for i in rng.integers(0, 20_000, n)]),
                       "key": pd.Categorical(rng.choice(["viewer_loaded", "heartbeat", "cta_clicked"], n)),
                       "timestamp": pd.to_datetime(1_793_491_200_000 + rng.integers(0, 9 * DAY_MS, n), unit="ms",
                                                   utc=True).as_unit("ms")})
    df.loc[rng.integers(0, n, 50), "visitorId"] = None  # events without a visitor count nowhere
    got = A.retention(df, start_key="viewer_loaded", by="visitorId", periods=5)["count"]
    expected = _reference_retention(df.astype({"visitorId": object}).where(df.notna(), None), 5)
    assert 0 < expected[3].sum() < expected[0].sum()  # some come back on day 3, not all
    assert got.to_numpy().tolist() == expected.to_numpy().tolist()
    assert [c.value // 10**6 for c in got.index] == expected.index.tolist()


@pytest.mark.parametrize("tied", [40, 6_000])  # few ties are fetched one by one, many through iloc
def test_tie_order_puts_events_of_one_millisecond_in_id_order(tied):
    rng = np.random.default_rng(tied)
    ids = [f"e{i:05d}" for i in rng.permutation(tied)]
    frame = pd.DataFrame({"id": pd.array(ids, dtype="str")})
    g = np.zeros(tied, np.int64)
    t = np.repeat(np.arange(2), tied // 2)
    order = tie_order(g, t, np.arange(tied), frame)
    assert order.tolist() == sorted(range(tied), key=lambda i: (t[i], ids[i]))


@pytest.mark.parametrize("seed", range(6))
def test_stable_order_is_lexsorts_permutation(seed):
    # packed into one key and sorted by numpy's default sort, runs of equal keys mended; in time order already, the
    # position packed instead: the same permutation as np.lexsort's stable one in every case
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5_000))
    major = rng.integers(-3, int(rng.integers(1, 300)), n)
    minor = rng.integers(-2, int(rng.integers(1, 40)), n) * (10**15 if seed % 3 == 0 else 1)
    for m in (minor, np.sort(minor)):
        assert (stable_order(major, m) == np.lexsort((m, major))).all()
    wide = np.array([0, 2**62, 0, 5]), np.array([3, 1, 3, 2**62])  # too wide to pack: lexsort itself
    assert (stable_order(*wide) == np.lexsort(wide[::-1])).all()
