"""A lake file replaced at its own path, in the same process (code review 23, H1): the lake's read gets the same Dask
expression name (a token of the paths, not of the files' contents), so a verdict on its visitor numbers kept by that
name alone went stale: a file of another lake put in place was read by its numbers (stickiness 491 one-day visitors
where the ids give 503) and one rewritten without the numbers counted its visitors as anonymous. The questions now
answer by the ids, on pandas and on Dask in several partitions, whether the lake is read again or a frame read
before the replacement is asked. And a table that cannot be read (truncated, unreadable) sends the lake to the ids
(M1), while a fresh table takes the mode of the lake's other files."""

from __future__ import annotations

import os
import shutil
import stat

import pandas as pd
import pyarrow.parquet as pq
import pytest
from test_visitor_number_stamps import COLUMNS, QUESTIONS, _files, _spy, _with_a_file_of_another_lake

from workbench.tracking.lake import VISITOR_NUMBER, read_events, write_synth_lake
from workbench.tracking.visitor_numbers import NUMBERS_FILE, lake_stamps

ASK = QUESTIONS["stickiness"]


@pytest.fixture(scope="module")
def synth(tmp_path_factory):
    """A synthetic lake (20k events in several buckets) and its stickiness by the ids (pandas, on the strings)."""
    root = tmp_path_factory.mktemp("in_place")
    lake = write_synth_lake(root / "synth", 20_000, seed=8, chunk_events=5_000)
    by_ids = ASK(read_events(lake, columns=COLUMNS).compute().reset_index(drop=True))
    return root, lake, by_ids


def _without_numbers(path) -> None:
    """The file at ``path`` rewritten in place with the same rows, no visitor numbers and no stamp."""
    table = pq.read_table(path)
    table = table.drop_columns([VISITOR_NUMBER]).replace_schema_metadata(None)
    pq.write_table(table, path, compression="zstd")


@pytest.mark.parametrize("replace", ["a file of another lake", "a file without numbers"])
def test_a_file_replaced_in_place_is_read_by_the_ids_in_the_same_process(synth, tmp_path, replace, monkeypatch):
    root, source, by_ids = synth
    lake = shutil.copytree(source, tmp_path / "lake")
    read = _spy(monkeypatch)
    before = read_events(lake, columns=COLUMNS)
    assert before.npartitions >= 3
    pd.testing.assert_frame_equal(ASK(before), by_ids)
    assert read, "the lake's own numbers were not read"  # the verdict is made: numbered
    if replace == "a file of another lake":
        mixed = _with_a_file_of_another_lake(lake, tmp_path / "mixed", tmp_path, 3)
        shutil.copyfile(_files(mixed)[3], _files(lake)[3])  # at its own path
    else:
        _without_numbers(_files(lake)[3])
    again = read_events(lake, columns=COLUMNS)
    assert again.expr._name == before.expr._name  # why a verdict by the name alone went stale
    counted = {}
    for name, frames in (("read again", again), ("read before", before)):
        read.clear()
        counted[name] = ASK(frames)
        print(f"{replace}, {name}: one-day visitors {counted[name]['count'].iloc[0]} (ids {by_ids['count'].iloc[0]}), "
              f"all {counted[name]['count'].sum()} (ids {by_ids['count'].sum()})")
        assert not read, f"{name}: a replaced file was read by numbers"
        pd.testing.assert_frame_equal(counted[name], by_ids)
        pd.testing.assert_frame_equal(ASK(frames, client="sync"), by_ids)  # Dask, several partitions
        pd.testing.assert_frame_equal(ASK(frames.compute().reset_index(drop=True)), by_ids)  # pandas


def test_a_table_that_cannot_be_read_sends_the_lake_to_the_ids(synth, tmp_path, monkeypatch):
    root, source, by_ids = synth
    lake = shutil.copytree(source, tmp_path / "lake")
    table = lake / NUMBERS_FILE
    read = _spy(monkeypatch)
    for damage in ("truncated", "empty", "unreadable", "a folder"):
        if table.is_dir():
            table.rmdir()
        shutil.copyfile(source / NUMBERS_FILE, table)
        if damage == "a folder":  # what cannot be opened as a file, whoever reads (root reads a file of mode 000)
            table.unlink()
            table.mkdir()
        elif damage == "truncated":
            table.write_bytes(table.read_bytes()[: table.stat().st_size // 2])
        elif damage == "empty":
            table.write_bytes(b"")
        else:
            if os.geteuid() == 0:
                continue  # root reads a file of mode 000
            table.chmod(0)
        assert lake_stamps(lake) is None, damage
        read.clear()
        pd.testing.assert_frame_equal(ASK(read_events(lake, columns=COLUMNS)), by_ids)
        assert not read, f"{damage}: the lake was read by numbers"
        if not table.is_dir():
            table.chmod(0o644)


def test_a_fresh_table_has_the_mode_of_the_lakes_files(synth):
    _, lake, _ = synth
    modes = {stat.S_IMODE(os.stat(f).st_mode) for f in _files(lake)}
    assert modes == {stat.S_IMODE(os.stat(lake / NUMBERS_FILE).st_mode)}, oct(os.stat(lake / NUMBERS_FILE).st_mode)
