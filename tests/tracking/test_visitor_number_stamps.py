"""A lake's visitor numbers are trusted only from its own table: every file a writer numbers is stamped with the state
of the lake's table its numbers came from (workbench.tracking.visitor_numbers.STAMP), and stickiness and lifecycle by
visitor read the numbers only when every file's stamp is one its table lists. A file copied in from another lake (the same rows,
numbered by that lake's table) is read by the ids, and the answers are those of the ids on pandas and on Dask in
several partitions; so is a lake written before the stamps (numbers, no stamp, a table that lists no stamps). A second
writer appending to a lake numbers by the same table (old visitors keep their numbers, new ones come after), stamps
its file the same, and the lake is still read by the numbers."""

from __future__ import annotations

import shutil

import fsspec
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from workbench.tracking import analysis as A
from workbench.tracking import lake_rows
from workbench.tracking.lake import VISITOR_NUMBER, LakeWriter, lake_files, read_events, write_synth_lake
from workbench.tracking.schema import SCHEMA, from_records
from workbench.tracking.visitor_numbers import NUMBERS_FILE, STAMP, VisitorNumbers, lake_stamps, read_numbers

COLUMNS = ["visitorId", "key", "timestamp"]
QUESTIONS = {
    "stickiness": lambda d, **k: A.stickiness(d, event="interaction_start", by="visitorId", **k),
    "stickiness by hour": lambda d, **k: A.stickiness(d, event="hotspot_opened", by="visitorId", period="1h",
                                                      within="1D", **k),
    "lifecycle": lambda d, **k: A.lifecycle(d, event="interaction_start", by="visitorId", **k),
}


def _files(lake) -> list[str]:
    return [f for fs in lake_files(lake).values() for f in fs]


def _pairs(path) -> dict:
    table = pq.read_table(path, columns=["visitorId", VISITOR_NUMBER]).to_pandas().dropna().drop_duplicates()
    return dict(zip(table["visitorId"].astype(str), table[VISITOR_NUMBER], strict=True))


def _with_a_file_of_another_lake(lake, to, work, which: int):
    """A copy of ``lake`` at ``to`` whose file ``which`` is replaced by the same rows as another lake numbered them:
    that file alone made into a lake of its own (its table numbers its visitors from 0), its one file copied back."""
    shutil.copytree(lake, to)
    target = _files(to)[which]
    other = LakeWriter(work / f"other-{which}", buckets=1)
    with other:
        other.write(pq.read_table(target).select(SCHEMA.names))
    (copied,) = _files(other.out)
    here, there = _pairs(target), _pairs(copied)
    assert here.keys() == there.keys() and here != there  # the same visitors, other numbers
    shutil.copyfile(copied, target)
    return to


def _unstamped(lake, to):
    """A copy of ``lake`` at ``to`` as the last pass wrote it: the numbers in every file, no stamp in any, a table
    without stamps."""
    shutil.copytree(lake, to)
    for f in _files(to):
        table = pq.read_table(f)
        kept = {k: v for k, v in (table.schema.metadata or {}).items() if k != STAMP.encode()}
        pq.write_table(table.replace_schema_metadata(kept), f, compression="zstd")
    numbers = read_numbers(to)
    with pa.OSFile(str(to / NUMBERS_FILE), "wb") as sink, pa.ipc.new_file(sink, numbers.schema.remove_metadata()) as w:
        w.write_table(numbers.replace_schema_metadata(None))
    assert lake_stamps(to) == frozenset() and numbers.num_rows > 100
    return to


@pytest.fixture(scope="module")
def lakes(tmp_path_factory):
    """A synthetic lake (its questions read narrowed rows of five buckets), a LakeWriter lake (no unique-ids promise:
    read bucket by bucket), each with one file copied from another lake, and the synthetic lake unstamped."""
    root = tmp_path_factory.mktemp("visitor_number_stamps")
    synth = write_synth_lake(root / "synth", 20_000, seed=8, chunk_events=5_000)
    events = read_events(synth, columns=SCHEMA.names).compute().reset_index(drop=True)
    with LakeWriter(root / "writer", buckets=3, buffer_rows=3_000) as w:  # numbered in the events' own order
        w.write(pa.Table.from_pandas(events.sample(frac=1.0, random_state=2), preserve_index=False))
    return {"synth": synth, "writer": w.out,
            "synth, a file of another lake": _with_a_file_of_another_lake(synth, root / "synth-mixed", root, 3),
            "writer, a file of another lake": _with_a_file_of_another_lake(w.out, root / "writer-mixed", root, 4),
            "synth, written before the stamps": _unstamped(synth, root / "synth-before")}


def _spy(monkeypatch) -> list:
    """The sizes of the visitor-number columns the questions read (lake_rows._numbered's calls)."""
    read: list = []
    numbered = lake_rows._numbered
    monkeypatch.setattr(lake_rows, "_numbered", lambda codes: read.append(len(codes)) or numbered(codes))
    return read


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_a_file_copied_from_another_lake_is_read_by_the_ids_with_their_answer(lakes, name, monkeypatch):
    ask, read = QUESTIONS[name], _spy(monkeypatch)
    for which in ("synth", "writer"):
        whole = read_events(lakes[which], columns=COLUMNS)
        by_ids = ask(whole.compute().reset_index(drop=True))  # pandas, on the strings
        assert by_ids["count" if "count" in by_ids else "active"].sum() > 0
        read.clear()
        pd.testing.assert_frame_equal(ask(read_events(lakes[which], columns=COLUMNS)), by_ids)
        assert read, f"{which}: the lake's own numbers were not read"
        mixed = lakes[f"{which}, a file of another lake"]
        read.clear()
        # the copied file's numbers name other visitors here: trusted, they merged visitors (lake22's answer)
        pd.testing.assert_frame_equal(ask(read_events(mixed, columns=COLUMNS)), by_ids)
        assert not read, f"{which}: a file of another lake was read by its numbers"
        # the same lake on pandas and on Dask in several partitions (3 and 5 buckets): the same answer
        frames = read_events(mixed, columns=COLUMNS)
        assert frames.npartitions >= 3
        pd.testing.assert_frame_equal(ask(frames.compute().reset_index(drop=True)), by_ids)
        pd.testing.assert_frame_equal(ask(frames, client="sync"), by_ids)


def test_a_lake_written_before_the_stamps_is_read_by_the_ids_and_a_writer_gives_its_table_stamps(lakes, tmp_path,
                                                                                                  monkeypatch):
    ask, read = QUESTIONS["stickiness"], _spy(monkeypatch)
    before = lakes["synth, written before the stamps"]
    assert all(VISITOR_NUMBER in pq.read_schema(f).names for f in _files(before))  # the numbers are all there
    by_ids = ask(read_events(lakes["synth"], columns=COLUMNS).compute().reset_index(drop=True))
    pd.testing.assert_frame_equal(ask(read_events(before, columns=COLUMNS)), by_ids)
    assert not read
    # a writer meeting the table without stamps lists them and keeps its numbers; the old files stay unstamped
    lake = shutil.copytree(before, tmp_path / "lake")
    old = read_numbers(lake)
    numbers = VisitorNumbers(fsspec.filesystem("file"), str(lake))
    first = old.column("visitorId")[0].as_py()
    assert numbers.of(pa.array([first, "someone new"])).to_pylist() == [0, old.num_rows]
    assert numbers.stamp in lake_stamps(lake) and numbers.stamp.startswith(f"{old.num_rows + 1}:")
    assert read_numbers(lake).slice(0, old.num_rows).equals(old)
    pd.testing.assert_frame_equal(ask(read_events(lake, columns=COLUMNS)), by_ids)
    assert not read


def _appended(lake, numbers: VisitorNumbers):
    """A second writer's file in ``lake``: a day after its last, in the bucket of one of its visitors, that visitor's
    events again and 40 new visitors', stamped and numbered by ``numbers``; (its table, the old visitor)."""
    files = lake_files(lake)
    part = sorted(files)[1]
    last = pq.read_table(files[part][-1], columns=["visitorId", "timestamp"])
    old = last.column("visitorId").drop_null()[0].as_py()
    start = int(pa.compute.max(last.column("timestamp")).cast(pa.int64()).as_py()) + 86_400_000
    rng = np.random.default_rng(4)
    records = [{"sessionId": f"appended-s{v}-{i // 3}", "visitorId": old if v == 40 else f"appended-v{v}",
                "id": f"appended-e{i}", "key": ["interaction_start", "hotspot_opened"][i % 2],
                "timestamp": start + int(t)}
               for i, (v, t) in enumerate(zip(rng.integers(0, 41, 600), np.sort(rng.integers(0, 3 * 86_400_000, 600)),
                                              strict=True))]
    table = numbers.add(from_records(records))
    day = np.datetime_as_string(np.datetime64(start // 86_400_000, "D"))
    (lake / f"date={day}").mkdir()
    pq.write_table(table, lake / f"date={day}" / f"part-{part:05d}.parquet", compression="zstd")
    return table, old


def test_an_append_by_a_second_writer_numbers_by_the_same_table_and_is_read_by_the_numbers(lakes, tmp_path,
                                                                                          monkeypatch):
    lake = shutil.copytree(lakes["synth"], tmp_path / "lake")
    before = read_numbers(lake)
    second = VisitorNumbers(fsspec.filesystem("file"), str(lake))  # another writer of the lake, its own reads
    table, old = _appended(lake, second)
    assert table.schema.metadata[STAMP.encode()].decode() == second.stamp in lake_stamps(lake)
    numbers = dict(zip(table.column("visitorId").to_pylist(), table.column(VISITOR_NUMBER).to_pylist(), strict=True))
    kept = dict(zip(before.column("visitorId").to_pylist(), before.column(VISITOR_NUMBER).to_pylist(), strict=True))
    assert numbers.pop(old) == kept[old]  # an old visitor keeps its number
    assert sorted(numbers.values()) == list(range(before.num_rows, before.num_rows + 40))  # new ones after the last
    read = _spy(monkeypatch)
    for name, ask in QUESTIONS.items():
        frames = read_events(lake, columns=COLUMNS)
        by_ids = ask(frames.compute().reset_index(drop=True))
        read.clear()
        pd.testing.assert_frame_equal(ask(read_events(lake, columns=COLUMNS)), by_ids)
        assert read, f"{name}: the appended lake was not read by its numbers"
        pd.testing.assert_frame_equal(ask(frames, client="sync"), by_ids)
    assert A.stickiness(read_events(lake, columns=COLUMNS), event="interaction_start", by="visitorId")[
        "count"].sum() > A.stickiness(read_events(lakes["synth"], columns=COLUMNS), event="interaction_start",
                                      by="visitorId")["count"].sum()  # the appended visitors are counted


def test_a_writer_whose_table_is_replaced_by_another_stops(tmp_path):
    fs = fsspec.filesystem("file")
    first = VisitorNumbers(fs, str(tmp_path))
    assert first.of(pa.array(["a", "b"])).to_pylist() == [0, 1]
    (tmp_path / NUMBERS_FILE).unlink()
    assert VisitorNumbers(fs, str(tmp_path)).of(pa.array(["b"])).to_pylist() == [0]  # a new table, other numbers
    with pytest.raises(ValueError, match="replaced by another table"):
        first.of(pa.array(["c"]))
    # the same table made again the same way (its numbers and stamps the same) is no other table
    again = VisitorNumbers(fs, str(tmp_path / "again"))
    (tmp_path / "again").mkdir()
    assert again.of(pa.array(["x", "y"])).to_pylist() == [0, 1]
    (tmp_path / "again" / NUMBERS_FILE).unlink()
    assert VisitorNumbers(fs, str(tmp_path / "again")).of(pa.array(["x", "y"])).to_pylist() == [0, 1]
    assert again.of(pa.array(["z"])).to_pylist() == [2]
