"""A lake's table of visitor numbers (workbench.tracking.visitor_numbers) and the writers that use it: every file
LakeWriter and lake_from_parquet write holds each visitor's one number, stable across flushes, buckets and days and
the same as the table's; writers numbering at once (processes) never give one number to two visitors nor two
numbers to one; a writer that fails before its rename leaves the table whole and the next one numbers after it."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os

import fsspec
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking import lake_rows
from workbench.tracking.lake import LakeWriter, lake_files, lake_from_parquet, read_events
from workbench.tracking.schema import SCHEMA, from_records
from workbench.tracking.visitor_numbers import (
    _EMPTY,
    NUMBERS_FILE,
    STAMP,
    VISITOR_NUMBER,
    VisitorNumbers,
    _next,
    lake_stamps,
    read_numbers,
)


def _events(n: int, seed: int) -> pa.Table:
    """``n`` events of 300 visitors' sessions over five days, in random order, a tenth without a visitor."""
    rng = np.random.default_rng(seed)
    visitor = rng.integers(0, 300, n)
    session = visitor * 4 + rng.integers(0, 4, n)
    anonymous = session % 10 == 0
    records = [{"sessionId": f"s{s}", "visitorId": None if a else f"v{v}", "id": f"e{i}",
                "key": ["interaction_start", "viewer_loaded", "cta_clicked"][i % 3],
                "timestamp": int(1_795_000_000_000 + t)}
               for i, (s, v, a, t) in enumerate(zip(session, visitor, anonymous, rng.integers(0, 5 * 86_400_000, n),
                                                    strict=True))]
    return from_records(records)


def _pairs(lake) -> pd.DataFrame:
    files = [f for fs in lake_files(lake).values() for f in fs]
    assert files and all(VISITOR_NUMBER in pq.read_schema(f).names for f in files)
    table = pa.concat_tables(pq.read_table(f, columns=["visitorId", VISITOR_NUMBER]) for f in files)
    return table.to_pandas().astype({"visitorId": object}).drop_duplicates()


def _check_one_number_each(lake) -> pd.DataFrame:
    """The (visitor, number) pairs of the lake's files: one number per visitor, one visitor per number, each the
    table's."""
    pairs = _pairs(lake)
    named = pairs.dropna()
    assert pairs.loc[pairs["visitorId"].isna(), VISITOR_NUMBER].isna().all()  # anonymous rows: no number
    assert named["visitorId"].is_unique and named[VISITOR_NUMBER].is_unique
    table = read_numbers(lake).to_pandas()
    assert table[VISITOR_NUMBER].tolist() == list(range(len(table)))
    assert dict(zip(named["visitorId"], named[VISITOR_NUMBER], strict=True)).items() <= dict(
        zip(table["visitorId"], table[VISITOR_NUMBER], strict=True)).items()
    return named


def test_lake_writer_numbers_each_visitor_once_across_flushes_buckets_and_days(tmp_path):
    events = _events(6_000, seed=1)
    with LakeWriter(tmp_path / "lake", buckets=3, buffer_rows=500) as w:  # twelve flushes
        for start in range(0, events.num_rows, 700):
            w.write(events.slice(start, 700))
    named = _check_one_number_each(tmp_path / "lake")
    assert len(named) == 300 == len(read_numbers(tmp_path / "lake"))
    assert len(lake_files(tmp_path / "lake")) == 3


def test_lake_from_parquet_numbers_the_visitors_and_the_questions_read_them(tmp_path, monkeypatch):
    events = _events(4_000, seed=2)
    pq.write_table(events, tmp_path / "export.parquet")
    lake, rows = lake_from_parquet(tmp_path / "export.parquet", tmp_path / "lake", buckets=2, batch_rows=900)
    assert rows == 4_000
    _check_one_number_each(lake)
    read = []
    numbered = lake_rows._numbered
    monkeypatch.setattr(lake_rows, "_numbered", lambda codes: read.append(len(codes)) or numbered(codes))
    whole = events.to_pandas()
    for ask in (lambda d: A.stickiness(d, event="interaction_start", by="visitorId"),
                lambda d: A.lifecycle(d, event="interaction_start", by="visitorId")):
        read.clear()
        here = ask(read_events(lake, columns=["visitorId", "key", "timestamp"]))
        assert read
        pd.testing.assert_frame_equal(here, ask(whole))


def _number(args):
    root, names, start = args
    numbers = VisitorNumbers(fsspec.filesystem("file"), root)
    got = []
    start.wait()  # all four at once: spawned workers start a second apart, longer than one's appends take
    for lo in range(0, len(names), 8):  # many small appends, each under the lock
        chunk = names[lo:lo + 8]
        got.extend(zip(chunk, numbers.of(pa.array(chunk)).to_pylist(), strict=True))
    return got, numbers.stamp


def test_writers_numbering_at_once_give_each_visitor_one_number_and_no_number_twice(tmp_path):
    rng = np.random.default_rng(3)
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(4) as pool:
        start = manager.Barrier(4)
        jobs = [(str(tmp_path), [f"v{i}" for i in rng.permutation(600)[:400]], start) for _ in range(4)]  # overlapping
        results = pool.map(_number, jobs)
    table = read_numbers(tmp_path).to_pandas()
    assert table[VISITOR_NUMBER].tolist() == list(range(len(table)))
    assert table["visitorId"].is_unique
    assert set(table["visitorId"]) == {v for _, names, _ in jobs for v in names}
    final = dict(zip(table["visitorId"], table[VISITOR_NUMBER], strict=True))
    for got, _ in results:  # what each writer stored is the table's number
        assert all(final[v] == n for v, n in got)
    # the stamps, which readers trust (code review 23, M3): each writer's last one listed by the table, so a file it
    # stamped is read by its numbers; and the list one chain, each stamp recomputed from the rows the one before left
    listed = json.loads(read_numbers(tmp_path).schema.metadata[STAMP.encode()])
    assert {stamp for _, stamp in results} <= lake_stamps(tmp_path) == set(listed)
    ends = [int(s.split(":")[0]) for s in listed]
    assert ends[0] == 0 and ends == sorted(set(ends)) and ends[-1] == len(table)
    ids = table["visitorId"].to_numpy(dtype=object)
    chain = [_EMPTY]
    for lo, hi in itertools.pairwise(ends):
        chain.append(_next(chain[-1], lo, ids[lo:hi]))
    assert chain == listed
    assert len(listed) > 10  # many appends of many writers, not one


def test_a_writer_failing_before_its_rename_leaves_the_table_whole(tmp_path, monkeypatch):
    fs = fsspec.filesystem("file")
    first = VisitorNumbers(fs, str(tmp_path))
    assert first.of(pa.array(["a", "b"])).to_pylist() == [0, 1]
    before = (tmp_path / NUMBERS_FILE).read_bytes()
    (tmp_path / f".{NUMBERS_FILE}.killed.tmp").write_bytes(b"half a table")  # a writer killed mid-write
    failing = VisitorNumbers(fs, str(tmp_path))

    def no_rename(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(OSError, match="disk full"):
        failing.of(pa.array(["c"]))
    monkeypatch.undo()
    assert (tmp_path / NUMBERS_FILE).read_bytes() == before  # untouched
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == [f".{NUMBERS_FILE}.killed.tmp"]
    # the old writer knows only a and b: it reads the table again before numbering, and c and d come after
    assert first.of(pa.array(["d", "a", "c"])).to_pylist() == [2, 0, 3]
    assert failing.of(pa.array(["c", "b"])).to_pylist() == [3, 1]
    assert read_numbers(tmp_path).column("visitorId").to_pylist() == ["a", "b", "d", "c"]


def test_the_files_keep_the_lake_schema_and_the_numbers_beside_it(tmp_path):
    with LakeWriter(tmp_path / "lake", buckets=1) as w:
        w.write(_events(50, seed=4))
    names = pq.read_schema(lake_files(tmp_path / "lake")[0][0]).names
    assert names == [*SCHEMA.names, VISITOR_NUMBER]
    assert list(read_events(tmp_path / "lake").columns) == SCHEMA.names


def test_a_bucket_with_copies_of_an_event_is_read_again_by_the_ids(tmp_path, monkeypatch):
    # one event stored twice in its session, once before its visitor was known: the bucket's numbers are read, an
    # id repeats in it, so it is read again by the ids for the copy rule (which may order copies by the visitor's
    # text); a session with two visitors makes the lake whole by session only, read by the ids from the start
    rows = [{"sessionId": "s1", "visitorId": v, "id": "e1", "key": "interaction_start", "timestamp": 1_795_000_000_000}
            for v in ("w0", None)]
    rows += [{"sessionId": f"s{2 + d}", "visitorId": v, "id": "e2", "key": "interaction_start",
              "timestamp": 1_795_000_000_000 + 86_400_000 * d} for d in (1, 2) for v in ("v9", "w0")[d - 1:d]]
    events = from_records(rows)
    with LakeWriter(tmp_path / "lake", buckets=1) as w:
        w.write(events)
    assert w.visitors_whole and read_numbers(tmp_path / "lake").column("visitorId").to_pylist() == ["w0", "v9"]
    read, ids = [], []
    numbered, again = lake_rows._numbered, lake_rows._picked_frame
    monkeypatch.setattr(lake_rows, "_numbered", lambda codes: read.append(len(codes)) or numbered(codes))
    monkeypatch.setattr(lake_rows, "_picked_frame", lambda *a, **k: ids.append(k.get("numbered")) or again(*a, **k))
    for ask in (lambda d: A.stickiness(d, event="interaction_start", by="visitorId", period="1D", within="7D"),
                lambda d: A.lifecycle(d, event="interaction_start", by="visitorId")):
        read.clear()
        ids.clear()
        here = ask(read_events(tmp_path / "lake"))
        assert read and ids == ["visitorId", None]  # the numbers, then the bucket again by the ids
        pd.testing.assert_frame_equal(here, ask(events.to_pandas()))
