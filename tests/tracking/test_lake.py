"""The event lake: schema from the catalog, synth and export writing it in bounded memory, the export streaming."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import httpx
import pandas as pd
import pyarrow.parquet as pq
import pytest
from conftest import ROOT
from helpers import store_events

from workbench.tracking import analysis as A
from workbench.tracking.catalog import CATALOG
from workbench.tracking.lake import lake_files, read_events, write_synth_lake
from workbench.tracking.schema import PAYLOAD_FIELDS, SCHEMA


def workbench_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``workbench ARGS`` in a process of its own (its exit code and stderr as a user sees them)."""
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_schema_flattens_every_catalog_field_with_its_type():
    fields = {f.name: f for spec in CATALOG.values() for f in spec.fields}
    assert set(PAYLOAD_FIELDS) == set(fields)
    assert str(SCHEMA.field("timestamp").type) == "timestamp[ms, tz=UTC]"
    assert str(SCHEMA.field("payload.durationMs").type) == "double"
    assert str(SCHEMA.field("payload.visible").type) == "bool"
    assert SCHEMA.field("payload").type == "string"  # what the catalog does not know (custom.NAME)


def test_synth_lake_layout_sessions_whole_and_same_bytes(tmp_path):
    a = write_synth_lake(tmp_path / "a", 40_000, seed=3, chunk_events=15_000)
    b = write_synth_lake(tmp_path / "b", 40_000, seed=3, chunk_events=15_000)
    files = sorted(p.relative_to(a) for p in a.rglob("*.parquet"))
    assert files and all(p.parts[0].startswith("date=2026-11-") and p.name.startswith("part-") for p in files)
    assert [(a / p).read_bytes() for p in files] == [(b / p).read_bytes() for p in files]
    assert sorted(lake_files(a)) == [0, 1, 2]
    df = pq.read_table(a).to_pandas()
    assert len(df) == 40_000 and df["id"].is_unique
    # a session's files share one part number, whatever the day
    per_file = [(n, set(pq.read_table(f, columns=["sessionId"]).column(0).to_pylist()))
                for n, fs in lake_files(a).items() for f in fs]
    owner: dict[str, int] = {}
    for n, sessions in per_file:
        for s in sessions:
            assert owner.setdefault(s, n) == n
    # each file's day is the UTC day of its timestamps; custom payloads kept as JSON text
    for f in a.rglob("*.parquet"):
        days = pq.read_table(f, columns=["timestamp"]).to_pandas()["timestamp"].dt.strftime("%Y-%m-%d").unique()
        assert list(days) == [f.parent.name[len("date="):]]
    custom = df[df["key"] == "custom.add_to_cart"]
    assert len(custom) and set(json.loads(custom["payload"].iloc[0])) == {"qty", "sku"}
    assert df.loc[df["key"] == "viewer_loaded", "payload.loadTimeMs"].notna().all()


def test_synth_cli_draws_and_writes_one_chunk_at_a_time(tmp_path, monkeypatch, capsys):
    # What keeps the synth's memory bounded: a chunk of events is drawn, written and let go before the next is
    # drawn, so the chunk, not the count, sets the peak. Its peak RSS (a million events in chunks of 100k near
    # 250 MB, in one chunk over 600 MB) is measured by bench/lake_memory.py (bench/RESULTS.md), where this test
    # measured it until pass 35. The command's own main in this process, as its console script calls it.
    from workbench.cli import main
    from workbench.tracking import synth

    out, drawn, draw = tmp_path / "lake", [], synth._draw

    def spied(rng, n, *args, **kwargs):
        # every earlier chunk is on disk (written whole) before this one is drawn
        drawn.append((n, sorted(lake_files(out)) if out.exists() else []))
        return draw(rng, n, *args, **kwargs)

    monkeypatch.setattr(synth, "_draw", spied)
    assert main(["synth", "--out", str(out), "--events", "2500", "--chunk-events", "1000"]) == 0
    assert drawn == [(1000, []), (1000, [0]), (500, [0, 1])]
    assert sorted(lake_files(out)) == [0, 1, 2]
    assert len(read_events(out, columns=["key"])) == 2_500
    capsys.readouterr()
    assert main(["synth", "--out", str(out), "--events", "10"]) == 2
    err = capsys.readouterr().err
    assert "not empty" in err and "Traceback" not in err


# ---------------------------------------------------------------- the export

STORED = 12_000  # events in the export tests' store: a dozen pages of PAGE
PAGE = 1_000


@pytest.fixture(scope="module")
def stored_service(tmp_path_factory):
    """A local service (in this process, real HTTP on loopback, no avatar library) holding :data:`STORED` events."""
    from workbench.service.server import LocalService

    svc = LocalService.start(tmp_path_factory.mktemp("stored") / "data", generate_library=False)
    try:
        store_events(svc.backend.db.path, STORED)
        yield svc
    finally:
        svc.stop()


@pytest.fixture()
def small_pages(monkeypatch):
    """The export reads :data:`PAGE` rows at a time (20,000 in the service), so a dozen pages show how it streams."""
    from workbench.service import tracking_store

    monkeypatch.setattr(tracking_store, "EXPORT_PAGE_ROWS", PAGE)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_export_reads_and_sends_one_page_at_a_time(stored_service, small_pages, monkeypatch, fmt):
    # What keeps the export's memory bounded at any size: a page of rows is read, encoded and handed on before
    # the next is read. The service's peak RSS streaming 600,000 events (+100 MB over its warm start; holding the
    # answer would take over 600 MB) is measured by bench/lake_memory.py, where this file measured it until pass 35.
    store = stored_service.backend.tracking
    read, pages = [], store._pages

    def spied(sql, params):
        for rows in pages(sql, params):
            read.append(len(rows))
            yield rows

    monkeypatch.setattr(store, "_pages", spied)
    chunks, _ = store.export_stream(None, None, None, fmt)
    assert read == []   # the filters are checked now, the rows read later
    first = next(chunks)
    assert read == [PAGE] and (fmt != "jsonl" or first.count(b"\n") == PAGE)
    whole = first + b"".join(chunks)
    assert read == [PAGE] * (STORED // PAGE)
    if fmt == "jsonl":
        assert whole.count(b"\n") == STORED
    else:
        meta = pq.ParquetFile(io.BytesIO(whole)).metadata
        assert meta.num_rows == STORED and meta.num_row_groups == STORED // PAGE   # a row group per page


def test_export_over_http_is_streamed_whole_in_the_lake_schema(stored_service, small_pages, tmp_path):
    sizes = {}
    for fmt in ("jsonl", "parquet"):
        path = tmp_path / f"all.{fmt}"
        with httpx.stream("GET", stored_service.local_url + "/tracking/events", params={"format": fmt},
                          timeout=60) as r:
            assert r.status_code == 200
            assert "content-length" not in r.headers  # streamed, not built whole
            with open(path, "wb") as fh:
                for chunk in r.iter_bytes():
                    fh.write(chunk)
        sizes[fmt] = path.stat().st_size
    parquet = pq.ParquetFile(tmp_path / "all.parquet")
    assert parquet.metadata.num_rows == STORED and parquet.metadata.num_row_groups == STORED // PAGE
    assert parquet.schema_arrow == SCHEMA
    with open(tmp_path / "all.jsonl", "rb") as fh:
        assert sum(1 for _ in fh) == STORED


def test_export_cli_writes_the_lake_layout(stored_service, small_pages, tmp_path, capsys):
    # The command's own main in this process (its peak RSS at 600,000 events: bench/lake_memory.py); it streams the
    # Parquet answer to a file and splits that into the lake a row group at a time.
    from workbench.cli import main

    assert main(["export", "--out", str(tmp_path / "lake"), "--local-url", stored_service.local_url]) == 0
    assert f"wrote {STORED} events" in capsys.readouterr().out
    ddf = read_events(tmp_path / "lake")
    assert ddf.npartitions == 8 and len(ddf) == STORED
    per_part = ddf[["sessionId"]].map_partitions(lambda p: p.drop_duplicates()).compute(scheduler="threads")
    assert per_part["sessionId"].is_unique


def test_export_parquet_filters_match_jsonl_and_errors_name_the_field(server, tmp_path):
    vt = httpx.post(server.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]
    events = [{"key": "viewer_loaded", "payload": {"loadTimeMs": 10 * d, "device": "mobile"},
               "timestamp": f"2026-11-0{d}T12:00:00Z", "id": f"e{d}"} for d in (1, 2, 3)]
    events.append({"key": "custom.add_to_cart", "payload": {"sku": "x", "qty": 2}, "timestamp": "2026-11-02T13:00:00Z"})
    r = httpx.post(f"{server.base_url}/viewers/{vt}/tracking-event/batch", json={"sessionId": "s", "events": events})
    assert r.status_code == 200
    q = {"viewerToken": vt, "since": "2026-11-02T00:00:00Z", "until": "2026-11-03T00:00:00Z"}
    lines = [json.loads(x) for x in httpx.get(server.local_url + "/tracking/events", params=q).text.splitlines()]
    # The service's first Parquet answer imports pyarrow (2.8 s at load 8 on the 2-core machine, past httpx's 5 s default
    # when the suite's workers load it more): a bound for a loaded machine, not a measure.
    blob = httpx.get(server.local_url + "/tracking/events", params={**q, "format": "parquet"}, timeout=60)
    assert blob.headers["content-type"] == "application/vnd.apache.parquet"
    arrow = pq.read_table(io.BytesIO(blob.content))
    table = arrow.to_pandas()
    assert arrow.column("id").to_pylist() == [x["id"] for x in lines] == ["e2", None]
    assert table["payload.loadTimeMs"].tolist()[0] == 20.0 and table["payload.device"].tolist()[0] == "mobile"
    assert json.loads(table["payload"].iloc[1]) == {"qty": 2, "sku": "x"}
    assert (table["timestamp"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ").str[:-4] + "Z").tolist() == [
        x["timestamp"] for x in lines]
    bad = httpx.get(server.local_url + "/tracking/events", params={"format": "xls", "since": "yesterday"})
    assert bad.status_code == 400 and {d["field"] for d in bad.json()["error"]["details"]} >= {"format"}
    # the CLI reports the service's refusal in a sentence
    done = workbench_cli("export", "--out", str(tmp_path / "x"), "--local-url", server.local_url, "--since", "yesterday")
    assert done.returncode == 1 and "since" in done.stderr and "Traceback" not in done.stderr
    # and a lake of this viewer's events answers like the JSON lines do
    ok = workbench_cli("export", "--out", str(tmp_path / "lake"), "--local-url", server.local_url, "--viewer", vt)
    assert ok.returncode == 0, ok.stderr
    assert sorted(p.parent.name for p in (tmp_path / "lake").rglob("*.parquet")) == [
        "date=2026-11-01", "date=2026-11-02", "date=2026-11-03"]
    lake = read_events(tmp_path / "lake")
    text = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt}).text
    frame = A.events_frame([json.loads(x) for x in text.splitlines()])
    pd.testing.assert_frame_equal(A.load_times(lake, client="sync"), A.load_times(frame))


def test_analyze_cli_prints_and_writes_the_headline_tables(tmp_path, capsys):
    # The command's own main in this process, as its console script calls it: a new interpreter importing pandas,
    # pyarrow and Dask cost seconds of CPU for nothing this test checks (tests/cli runs the command's process).
    from workbench.cli import main

    lake = write_synth_lake(tmp_path / "lake", 20_000, seed=5)
    capsys.readouterr()
    assert main(["analyze", str(lake), "--out", str(tmp_path / "t"), "--format", "csv", "--scheduler", "threads"]) == 0
    out = capsys.readouterr().out
    for name in ("viewers", "funnel", "load_times", "ar_conversion"):
        assert f"== {name}: " in out
    assert "funnel of visits" in out and "0.046053" not in out  # labelled, and rounded as notebook 07
    funnel = pd.read_csv(tmp_path / "t" / "funnel.csv")
    pdf = pq.read_table(lake).to_pandas()
    expected = A.funnel(A.sessionize(pdf), funnel["step"].tolist(), by="visit")
    assert funnel["count"].tolist() == expected["count"].tolist()
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == [
        "ar_conversion.csv", "funnel.csv", "load_times.csv", "viewers.csv"]
    assert main(["analyze", str(tmp_path / "nothing.txt")]) == 2
    err = capsys.readouterr().err
    assert "is not a lake folder" in err and "Traceback" not in err
