"""Visitor numbers in a lake (workbench.tracking.lake.VISITOR_NUMBER): a synthetic lake's files give each visitor one
int32 number across its buckets and days, the one its table (_visitor_numbers.arrow) holds; stickiness and
lifecycle by visitor read those numbers instead of the visitor ids and answer exactly as pandas on the ids, as Dask
in several partitions, as the same lake written before the numbers (no column: read by the ids, as before) and as
the lake with one file dropped in by hand without them (read by the ids); anonymous rows stay anonymous."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking import lake_rows
from workbench.tracking.lake import VISITOR_NUMBER, lake_files, read_events, write_synth_lake
from workbench.tracking.visitor_numbers import NUMBERS_FILE, read_numbers

COLUMNS = ["visitorId", "key", "timestamp"]
QUESTIONS = {
    "stickiness": lambda d, **k: A.stickiness(d, event="interaction_start", by="visitorId", **k),
    "stickiness by hour in a zone": lambda d, **k: A.stickiness(d, event="hotspot_opened", by="visitorId",
                                                                period="1h", within="1D", tz="Asia/Kolkata", **k),
    "lifecycle (PostHog's new)": lambda d, **k: A.lifecycle(d, event="interaction_start", by="visitorId", **k),
    "lifecycle (first active)": lambda d, **k: A.lifecycle(d, event="interaction_start", by="visitorId",
                                                           definition="first_active", **k),
    "lifecycle weekly": lambda d, **k: A.lifecycle(d, event="cta_clicked", by="visitorId", period="7D", **k),
}


def _rewritten(lake, to, change, which=None):
    """A copy of ``lake`` at ``to`` with each file's table (or only the file ``which`` of the list of all)
    passed through ``change``."""
    shutil.copytree(lake, to)
    files = [f for fs in lake_files(to).values() for f in fs]
    for f in files if which is None else [files[which]]:
        pq.write_table(change(pq.read_table(f)), f, compression="zstd")
    return to


def _anonymous(table: pa.Table) -> pa.Table:
    """Every fifth session's rows without a visitor (id and number)."""
    hidden = pa.array(pd.util.hash_pandas_object(table.column("sessionId").to_pandas().astype(str), index=False)
                      .to_numpy() % 5 == 0)
    for name in ("visitorId", VISITOR_NUMBER):
        i = table.schema.get_field_index(name)
        column = table.column(i)
        if pa.types.is_dictionary(column.type):
            column = column.cast(column.type.value_type)
        table = table.set_column(i, pa.field(name, column.type), pc.if_else(hidden, pa.nulls(len(table), column.type),
                                                                            column))
    return table


@pytest.fixture(scope="module")
def lakes(tmp_path_factory):
    """The synthetic lake (five chunks: five buckets of whole visitors over seven days), the same lake as written
    before the numbers (no column, no table), the lake with one file put back by hand without the column, and the
    lake with a fifth of its sessions anonymous."""
    root = tmp_path_factory.mktemp("visitor_numbers")
    lake = write_synth_lake(root / "numbered", 30_000, seed=5, chunk_events=7_000)

    def unnumbered(table):
        return table.drop_columns([VISITOR_NUMBER])

    old = _rewritten(lake, root / "before", unnumbered)
    (old / NUMBERS_FILE).unlink()
    by_hand = _rewritten(lake, root / "by hand", unnumbered, which=7)
    anonymous = _rewritten(lake, root / "anonymous", _anonymous)
    return {"numbered": lake, "before the numbers": old, "one file by hand": by_hand, "anonymous": anonymous}


def test_a_synthetic_lake_numbers_each_visitor_once_across_its_buckets_and_days(lakes):
    lake = lakes["numbered"]
    files = [f for fs in lake_files(lake).values() for f in fs]
    assert len(lake_files(lake)) == 5 and len(files) > 20
    table = pa.concat_tables(pq.read_table(f, columns=["visitorId", VISITOR_NUMBER]) for f in files)
    assert table.schema.field(VISITOR_NUMBER).type == pa.int32()
    pairs = table.to_pandas().astype({"visitorId": str}).drop_duplicates()
    visitors = pairs["visitorId"].nunique()
    # one number per visitor and one visitor per number: 0, 1, 2, ... with none skipped
    assert len(pairs) == visitors > 1_000
    assert sorted(pairs[VISITOR_NUMBER]) == list(range(visitors))
    # the lake's table holds the same pairs, in number order
    kept = read_numbers(lake).to_pandas()
    assert kept[VISITOR_NUMBER].tolist() == list(range(visitors))
    pd.testing.assert_frame_equal(pairs.sort_values(VISITOR_NUMBER).reset_index(drop=True), kept, check_dtype=False)
    # the lake's frames keep their columns: the numbers are the files' own, not read_events'
    assert VISITOR_NUMBER not in read_events(lake).columns


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_stickiness_and_lifecycle_read_the_numbers_and_answer_as_by_the_ids(lakes, name, monkeypatch):
    ask = QUESTIONS[name]
    read = []
    numbered = lake_rows._numbered
    monkeypatch.setattr(lake_rows, "_numbered", lambda codes: read.append(len(codes)) or numbered(codes))
    for which in ("numbered", "anonymous"):
        lake = lakes[which]
        by_ids = ask(read_events(lake, columns=COLUMNS).compute().reset_index(drop=True))  # pandas, on the strings
        assert by_ids["count" if "count" in by_ids else "active"].sum() > 0
        read.clear()
        here = ask(read_events(lake, columns=COLUMNS))  # this process, the numbers
        assert read, "the numbers were not read"
        pd.testing.assert_frame_equal(here, by_ids)
        read.clear()
        spread = ask(read_events(lake, columns=COLUMNS), client="sync")  # Dask, five partitions, the ids
        assert not read
        pd.testing.assert_frame_equal(spread, by_ids)
    numbered = ask(read_events(lakes["numbered"], columns=COLUMNS))
    for which in ("before the numbers", "one file by hand"):  # a file without the numbers: read by the ids
        read.clear()
        pd.testing.assert_frame_equal(ask(read_events(lakes[which], columns=COLUMNS)), numbered)
        assert not read, which


def test_anonymous_rows_stay_anonymous_and_a_question_by_session_reads_the_ids(lakes, monkeypatch):
    lake = lakes["anonymous"]
    whole = read_events(lake, columns=["sessionId", *COLUMNS]).compute().reset_index(drop=True)
    assert 0.1 < whole["visitorId"].isna().mean() < 0.3
    read = []
    numbered = lake_rows._numbered
    monkeypatch.setattr(lake_rows, "_numbered", lambda codes: read.append(np.count_nonzero(codes < 0)) or numbered(codes))
    out = A.stickiness(read_events(lake, columns=COLUMNS), event="interaction_start", by="visitorId")
    assert read and read[0] > 0  # the anonymous rows read, as -1: no unit
    visitors = whole.loc[whole["key"] == "interaction_start", "visitorId"].dropna()
    weeks = whole.loc[visitors.index, "timestamp"].dt.tz_convert(None).dt.to_period("W-SUN")
    assert out["count"].sum() == len(pd.DataFrame({"v": visitors, "w": weeks}).drop_duplicates())
    read.clear()
    by_session = A.stickiness(read_events(lake, columns=["sessionId", "key", "timestamp"]), event="interaction_start",
                              by="sessionId")
    assert not read
    pd.testing.assert_frame_equal(by_session, A.stickiness(whole, event="interaction_start", by="sessionId"))
