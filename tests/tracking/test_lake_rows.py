"""Reading some of a lake's rows (workbench.tracking.lake_rows): the rows picked in Arrow are the rows asked plus each
file's first and last event, the lifecycle and stickiness answers on them equal pandas' on the whole table (on the
synthetic lake, on the same events dealt round-robin, on lakes of one event and of none of the event asked), and
anything but a plain read of a lake that promises unique ids is read whole."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking.analysis.dispatch import events_of
from workbench.tracking.lake import LakeWriter, lake_files, read_events, write_synth_lake
from workbench.tracking.lake_rows import frame_of, narrowed
from workbench.tracking.schema import from_records, lake_note

COLUMNS = ["visitorId", "key", "timestamp"]
ENDS = ("timestamp", "visitorId")

QUESTIONS = {
    "lifecycle": lambda d: A.lifecycle(d, event="interaction_start", by="visitorId"),
    "lifecycle of a rare event, weekly in a zone": lambda d: A.lifecycle(d, event="cta_clicked", by="visitorId",
                                                                        period="7D", tz="America/New_York"),
    "stickiness": lambda d: A.stickiness(d, event="interaction_start", by="visitorId"),
    "stickiness by hour in a zone": lambda d: A.stickiness(d, event="hotspot_opened", by="visitorId", period="1h",
                                                           within="1D", tz="Asia/Kolkata"),
}


@pytest.fixture(scope="module")
def lakes(tmp_path_factory):
    """The synthetic lake (bucketed, unique ids promised) and the same events dealt round-robin into plain files."""
    root = tmp_path_factory.mktemp("lake_rows")
    lake = write_synth_lake(root / "bucketed", 30_000, seed=11, chunk_events=7_000)
    table = pq.read_table(lake).drop_columns(["date"])
    plain = root / "round_robin"
    plain.mkdir()
    for i in range(3):  # a visitor's events in every file
        pq.write_table(table.take(np.arange(i, table.num_rows, 3)), plain / f"part-{i}.parquet")
    return lake, table.to_pandas(), plain


def _promised(path):
    """A LakeWriter lake's note rewritten to promise unique ids (LakeWriter itself never checks them)."""
    (path / "_workbench_lake.json").write_text(lake_note(session_buckets=True, visitor_buckets=True, unique_ids=True))
    return path


def _small_lake(path, records):
    with LakeWriter(path, buckets=2) as w:
        w.write(from_records(records))
    return _promised(path)


def _expected_rows(lake, keys) -> pd.DataFrame:
    """By hand, from pandas: per bucket file, the rows of ``keys`` and the earliest and latest row with a visitor."""
    frames = []
    for number, files in lake_files(lake).items():
        for f in files:
            df = pq.read_table(f, columns=COLUMNS).to_pandas()
            df["visitorId"] = df["visitorId"].astype(object)
            df["key"] = df["key"].astype(object)
            ok = df["visitorId"].notna() & df["timestamp"].notna()
            keep = df["key"].isin(keys).to_numpy().copy()
            if ok.any():  # the first of equal times, as numpy's argmin and argmax pick
                keep[[df.loc[ok, "timestamp"].idxmin(), df.loc[ok, "timestamp"].idxmax()]] = True
            frames.append(df[keep].assign(part=number))
    return pd.concat(frames, ignore_index=True)


def _sorted(df: pd.DataFrame) -> pd.DataFrame:
    df = df.assign(visitorId=df["visitorId"].astype(object), key=df["key"].astype(object))
    return df.sort_values(["part", "timestamp", "key", "visitorId"], na_position="first").reset_index(drop=True)


@pytest.mark.parametrize("keys", [["interaction_start"], ["cta_clicked", "viewer_closed"], ["custom.never_sent"]])
def test_the_rows_picked_are_the_keys_and_each_files_ends(lakes, keys):
    lake = lakes[0]
    ddf = read_events(lake, columns=COLUMNS)
    few = narrowed(ddf, COLUMNS, "key", keys, ENDS)
    assert few is not None and few.npartitions == ddf.npartitions and few.divisions == ddf.divisions
    got = few.compute()
    assert list(got.columns) == COLUMNS and got.index.name == ddf.index.name
    whole = ddf.compute()
    assert [str(d) for d in got.dtypes] == [str(d) for d in whole.dtypes]  # category, category, datetime64[ms, UTC]
    assert [d.categories.dtype for d in got.dtypes[:2]] == [d.categories.dtype for d in whole.dtypes[:2]]
    got = got.reset_index().rename(columns={ddf.index.name: "part"})
    expected = _expected_rows(lake, keys)
    pd.testing.assert_frame_equal(_sorted(got)[["part", *COLUMNS]], _sorted(expected)[["part", *COLUMNS]],
                                  check_dtype=False)
    assert len(got) < len(whole)  # fewer rows turned into pandas


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_pandas_equals_dask_on_the_synthetic_lake_narrowed_and_round_robin(lakes, name):
    lake, pdf, plain = lakes
    question = QUESTIONS[name]
    expected = question(pdf)
    assert len(expected), name
    whole = read_events(lake, columns=COLUMNS)
    assert events_of(whole, ["interaction_start"], "visitorId", "key", "timestamp").expr._name != whole.expr._name
    for layout, ddf in {"bucketed": whole, "bucketed, every column": read_events(lake),
                        "round robin": read_events(plain)}.items():
        pd.testing.assert_frame_equal(question(ddf), expected, obj=f"{name} on the {layout} lake")


def test_only_a_plain_read_of_a_lake_that_promises_unique_ids_is_narrowed(lakes, tmp_path):
    lake, _, plain = lakes
    ddf = read_events(lake, columns=COLUMNS)
    assert narrowed(ddf[["visitorId", "key", "timestamp"]], COLUMNS, "key", ["heartbeat"], ENDS) is not None
    assert narrowed(ddf[ddf["key"] != "heartbeat"], COLUMNS, "key", ["heartbeat"], ENDS) is None  # a filter
    assert narrowed(ddf.assign(x=1), COLUMNS, "key", ["heartbeat"], ENDS) is None  # a new column
    assert narrowed(read_events(plain), COLUMNS, "key", ["heartbeat"], ENDS) is None  # not a lake
    assert narrowed(read_events(lake, columns=["key", "timestamp"]), ["key", "timestamp"], "key", ["heartbeat"],
                    ENDS) is None  # a column of the ends not read
    records = [{"sessionId": "s", "visitorId": "u", "key": "interaction_start", "timestamp": 1_793_491_200_000,
                "id": "e"}] * 2  # the same id twice, and no promise
    with LakeWriter(tmp_path / "dup", buckets=1) as w:
        w.write(from_records(records))
    assert narrowed(read_events(tmp_path / "dup"), COLUMNS, "key", ["interaction_start"], ENDS) is None
    assert A.lifecycle(read_events(tmp_path / "dup"), event="interaction_start", by="visitorId")["new"].tolist() == [1]


T0 = 1_793_491_200_000  # 2026-11-01T00:00:00Z, a Sunday


@pytest.mark.parametrize("records", [
    [{"sessionId": "s", "visitorId": "u", "key": "interaction_start", "timestamp": T0 + 5_000, "id": "e0"}],
    [{"sessionId": "s", "visitorId": "u", "key": "heartbeat", "timestamp": T0 + 5_000, "id": "e0"}],
    [{"sessionId": "s", "visitorId": None, "key": "interaction_start", "timestamp": T0, "id": "e0"},
     {"sessionId": "t", "visitorId": "u", "key": "heartbeat", "timestamp": T0 + 3 * 86_400_000, "id": "e1"}],
    [{"sessionId": f"s{i}", "visitorId": f"u{i % 3}" if i % 4 else None, "key": ["heartbeat", "interaction_start"][i % 2],
      "timestamp": T0 + i * 7_200_000, "id": f"e{i}"} for i in range(60)],
], ids=["one event", "one event of another key", "the event without a visitor", "anonymous rows among others"])
@pytest.mark.parametrize("name", ["lifecycle", "stickiness"])
def test_pandas_equals_dask_on_lakes_of_one_event_or_none_of_the_key(tmp_path, records, name):
    lake = _small_lake(tmp_path / "l", records)
    ddf = read_events(lake, columns=COLUMNS)
    assert narrowed(ddf, COLUMNS, "key", ["interaction_start"], ENDS) is not None
    pdf = pq.read_table(lake).drop_columns(["date"]).to_pandas()
    question = QUESTIONS[name]
    pd.testing.assert_frame_equal(question(ddf), question(pdf), obj=name)


def test_a_narrowed_file_of_no_row_asked_and_no_visitor_gives_an_empty_frame(tmp_path):
    lake = _small_lake(tmp_path / "l", [{"sessionId": "s", "visitorId": None, "key": "heartbeat", "timestamp": T0,
                                          "id": "e0"}])
    ddf = read_events(lake, columns=COLUMNS)
    got = narrowed(ddf, COLUMNS, "key", ["interaction_start"], ENDS).compute()
    assert len(got) == 0 and [str(d) for d in got.dtypes] == [str(d) for d in ddf.compute().dtypes]
    assert len(A.lifecycle(ddf, event="interaction_start", by="visitorId")) == 0
    assert len(A.stickiness(ddf, event="interaction_start", by="visitorId")) == 0


def test_frame_of_equals_arrows_own_conversion():
    chunks = [pa.array(["b", None, "a"]).dictionary_encode(), pa.array(["c", "a"]).dictionary_encode(),
              pa.array([], pa.string()).dictionary_encode()]
    table = pa.table({"k": pa.chunked_array(chunks), "n": pa.chunked_array([[1, 2, 3], [4, 5], []]),
                      "t": pa.chunked_array([pa.array([0, None, 2], pa.timestamp("ms", "UTC")),
                                             pa.array([3, 4], pa.timestamp("ms", "UTC")),
                                             pa.array([], pa.timestamp("ms", "UTC"))])})
    for t in (table, table.slice(0, 0), table.slice(3)):
        pd.testing.assert_frame_equal(frame_of(t), t.to_pandas())


def test_frame_of_with_chunks_sharing_a_dictionary_equals_arrows_own_conversion():
    # the batches a scan reads of one file share its dictionary: frame_of hashes it once (lake_rows._codes), and the
    # categories and codes are those of Arrow's unification whatever the chunks' order
    day1, day2 = pa.array(["v1", "v2", "v3"]), pa.array(["v3", "v4"])
    chunks = [pa.DictionaryArray.from_arrays(pa.array(i, pa.int32()), d) for i, d in
              (([2, 0, None], day1), ([1, 1], day1), ([1, 0], day2), ([0], day1), ([], day2), ([1], day2))]
    for column in (chunks, chunks[::-1]):
        table = pa.table({"visitorId": pa.chunked_array(column, pa.dictionary(pa.int32(), pa.string()))})
        ours, arrow = frame_of(table)["visitorId"], table.unify_dictionaries().to_pandas()["visitorId"]
        assert ours.tolist() == arrow.tolist()
        assert ours.cat.categories.tolist() == arrow.cat.categories.tolist()
        assert ours.cat.codes.tolist() == arrow.cat.codes.tolist()
    # a null among a dictionary's values (Arrow cannot unify those): its rows are missing, as Arrow reads one chunk
    with_null = pa.DictionaryArray.from_arrays(pa.array([0, 1, 0], pa.int32()), pa.array(["v9", None]))
    table = pa.table({"visitorId": pa.chunked_array([chunks[0], with_null])})
    read = frame_of(table)["visitorId"]
    assert read.astype(object).where(read.notna(), None).tolist() == ["v3", "v1", None, "v9", None, "v9"]


@pytest.mark.parametrize("firsts", [None, "visitorId"])
def test_rows_picked_into_numpy_and_hashed_bucket_by_bucket_equal_arrows_tables(lakes, firsts):
    # lake_rows.picked writes each batch's rows straight into numpy and, for a column whose values lie each in one
    # bucket (a lake's visitors), hashes the dictionaries bucket by bucket: the same frame, categories in the same
    # order and the same codes, as Arrow's tables of the rows picked of each file, converted whole
    from workbench.tracking.lake_rows import _picked, _scan, lake_items, picked

    lake = lakes[0]
    items = lake_items(read_events(lake, columns=COLUMNS))
    assert len(items) > 1  # several buckets, several files each
    rows = ("key", ("interaction_start",), ENDS, firsts)
    tables = [_picked(_scan([f], COLUMNS), *rows) for item in items for f in item[1]]
    expected = frame_of(pa.concat_tables(tables))
    for closed in (None, "visitorId"):
        got = picked(items, COLUMNS, rows, closed=closed)
        pd.testing.assert_frame_equal(got, expected, obj=f"closed={closed}")
        assert got["visitorId"].cat.categories.tolist() == expected["visitorId"].cat.categories.tolist()


def test_a_whole_bucket_read_batch_by_batch_equals_arrows_table_converted(lakes):
    # lake_rows.bucket without rows (retention's, a funnel's read of a one-bucket lake) writes each batch's columns
    # into the frame's own arrays: the same frame, every column (nulls in the payload's, dictionaries per file), the
    # same categories in the same order and codes, as the files' Arrow table converted whole
    from workbench.tracking.lake import READ_SCHEMA
    from workbench.tracking.lake_rows import _scan, bucket, lake_items

    for item in lake_items(read_events(lakes[0])):
        for columns in (COLUMNS, list(READ_SCHEMA.names)):
            got = bucket(item, columns)
            expected = frame_of(_scan(list(item[1]), columns), unique=True)
            expected.index = got.index
            pd.testing.assert_frame_equal(got, expected)
            for name in columns:
                if isinstance(got[name].dtype, pd.CategoricalDtype):
                    assert got[name].cat.categories.tolist() == expected[name].cat.categories.tolist()
                    assert (got[name].cat.codes.to_numpy() == expected[name].cat.codes.to_numpy()).all()
