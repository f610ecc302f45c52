"""From a laptop to a cluster reading a bucket, shown: lakes written to and read from a real S3 API on loopback
(moto's server), ``workbench export --out s3://...``, and the analysis on real ``dask scheduler`` and
``dask worker`` processes started from their command line, named by ``WORKBENCH_DASK_SCHEDULER``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pandas as pd
import pyarrow.parquet as pq
import pytest
from helpers import cli_in_process

from workbench.tracking import analysis as A
from workbench.tracking.lake import VISITOR_NUMBER, VISITOR_PART, read_events, write_synth_lake
from workbench.tracking.schema import LAKE_NOTE
from workbench.tracking.visitor_numbers import NUMBERS_FILE

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "eu-west-1"}


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """A moto S3 server on a loopback port and a bucket in it; yields (endpoint URL, storage options)."""
    pytest.importorskip("s3fs")
    server_mod = pytest.importorskip("moto.server")
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    options = {"key": KEYS["AWS_ACCESS_KEY_ID"], "secret": KEYS["AWS_SECRET_ACCESS_KEY"],
               "client_kwargs": {"endpoint_url": endpoint, "region_name": KEYS["AWS_DEFAULT_REGION"]}}
    import s3fs

    s3fs.S3FileSystem(**options).mkdir("lakes")
    yield endpoint, options
    server.stop()


@pytest.mark.slow  # a moto S3 server of its own: the whole suite's (docs/testing.md); the quick loop reads lakes on disk
def test_a_lake_in_a_bucket_gives_the_same_answers_as_on_disk(s3, tmp_path):
    endpoint, options = s3
    local = write_synth_lake(tmp_path / "lake", 60_000, seed=4, chunk_events=20_000)
    url = write_synth_lake("s3://lakes/synth", 60_000, seed=4, chunk_events=20_000, storage_options=options)
    assert url == "s3://lakes/synth"
    import s3fs

    fs = s3fs.S3FileSystem(**options)
    names = sorted(p.split("synth/", 1)[1] for p in fs.find("lakes/synth"))
    # the same files but the visitor numbers' table and its lock, kept on a local disk only (object storage has no
    # lock and no atomic rename; visitor_numbers' module text): before the numbers this compared every file
    numbers = {NUMBERS_FILE, "_visitor_numbers.lock"}
    assert names == sorted(str(p.relative_to(local)) for p in local.rglob("*") if p.is_file() and p.name not in numbers)
    # the same bytes for the note (the writer is deterministic wherever it writes), the same rows in every file: a
    # local file holds the visitor numbers beside (before the numbers, the first three files' bytes were compared)
    assert fs.cat_file(f"lakes/synth/{LAKE_NOTE}") == (local / LAKE_NOTE).read_bytes()
    for name in names:
        if name.endswith(".parquet"):
            there = pq.read_table(io.BytesIO(fs.cat_file(f"lakes/synth/{name}")))
            assert there.equals(pq.read_table(local / name).drop_columns([VISITOR_NUMBER])), name
    remote = read_events(url, storage_options=options)
    assert remote.index.name == VISITOR_PART and remote.npartitions == 3
    here = read_events(local)
    steps = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
    pd.testing.assert_frame_equal(A.funnel(remote, steps, client="sync"), A.funnel(here, steps, client="sync"))
    pd.testing.assert_frame_equal(A.retention(remote, start_key="viewer_loaded", by="visitorId", client="sync"),
                                  A.retention(here, start_key="viewer_loaded", by="visitorId", client="sync"))
    # the package-level reader takes the URL too
    assert len(A.read_events(url, storage_options=options)) == 60_000


@pytest.mark.slow  # a moto S3 server of its own: the whole suite's (docs/testing.md); the quick loop reads lakes on disk
def test_export_writes_the_service_events_to_a_bucket(s3, server, tmp_path, capsys, monkeypatch):
    endpoint, options = s3
    vt = httpx.post(server.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]
    events = [{"key": "viewer_loaded", "payload": {"loadTimeMs": 5 * i}, "timestamp": f"2026-11-0{1 + i % 3}T10:00:00Z",
               "id": f"obj-{i}"} for i in range(12)]
    r = httpx.post(f"{server.base_url}/viewers/{vt}/tracking-event/batch", json={"sessionId": "s-obj", "events": events})
    assert r.status_code == 200
    # The command by its own main in this process, the bucket named by the environment as a user's shell names it
    # (two interpreters importing pandas, pyarrow, Dask and s3fs cost about 5 s of CPU). `workbench export` in a
    # process of its own: test_lake.py's test_export_parquet_filters_match_jsonl_and_errors_name_the_field.
    for name, value in {**KEYS, "AWS_ENDPOINT_URL": endpoint}.items():
        monkeypatch.setenv(name, value)
    done = cli_in_process(capsys, "export", "--out", "s3://lakes/exported", "--viewer", vt, "--local-url",
                          server.local_url)
    assert done.returncode == 0, done.stderr
    assert "wrote 12 events to s3://lakes/exported" in done.stdout
    lake = read_events("s3://lakes/exported", storage_options=options).compute(scheduler="sync")
    assert sorted(lake["id"]) == sorted(e["id"] for e in events)
    note = json.loads(__import__("s3fs").S3FileSystem(**options).cat_file("lakes/exported/_workbench_lake.json"))
    assert note["visitor_buckets"] and note["session_buckets"]
    # writing over it again without --overwrite is refused, and says how to replace it
    again = cli_in_process(capsys, "export", "--out", "s3://lakes/exported", "--local-url", server.local_url)
    assert again.returncode != 0 and "--overwrite" in again.stderr


def _dask(*args: str) -> list[str]:
    """The ``dask`` command (``dask scheduler``, ``dask worker``), run by this interpreter."""
    return [sys.executable, "-m", "dask", *args]


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """``dask scheduler`` and ``dask worker`` (two processes) started from their command line; yields the
    scheduler's address."""
    folder = tmp_path_factory.mktemp("dask")
    file = folder / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen(_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                    "--scheduler-file", str(file)),
                              env=env, stdout=subprocess.DEVNULL, stderr=open(folder / "scheduler.log", "w"))]
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert file.exists(), (folder / "scheduler.log").read_text()
        procs.append(subprocess.Popen(_dask("worker", "--scheduler-file", str(file), "--nthreads", "1",
                                            "--nworkers", "2", "--no-dashboard", "--host", "127.0.0.1"),
                                      env=env, stdout=subprocess.DEVNULL, stderr=open(folder / "worker.log", "w")))
        address = json.loads(file.read_text())["address"]
        from distributed import Client

        with Client(address, timeout=60) as c:
            c.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
            p.wait(30)


@pytest.mark.slow  # a scheduler and workers as processes of their own; the quick loop keeps the in-process cluster's tests
def test_the_analysis_runs_on_a_scheduler_and_workers_started_from_the_command_line(dask_cluster, tmp_path,
                                                                                    monkeypatch):
    from distributed import Client, get_task_stream

    from workbench.tracking import cluster

    lake = write_synth_lake(tmp_path / "lake", 80_000, seed=9, chunk_events=20_000)
    pdf = read_events(lake).compute(scheduler="sync")
    monkeypatch.setenv("WORKBENCH_DASK_SCHEDULER", dask_cluster)
    try:
        with Client(dask_cluster) as watcher, get_task_stream(client=watcher) as stream:
            ddf = read_events(lake)
            pd.testing.assert_frame_equal(A.paths(ddf, start="viewer_loaded", exclude=["heartbeat"]),
                                          A.paths(pdf, start="viewer_loaded", exclude=["heartbeat"]))
            pd.testing.assert_frame_equal(A.retention(ddf, start_key="viewer_loaded", by="visitorId"),
                                          A.retention(pdf, start_key="viewer_loaded", by="visitorId"))
            workers = set(watcher.scheduler_info()["workers"])
        # the work ran on those worker processes, not in this one
        ran_on = {t["worker"] for t in stream.data}
        assert ran_on and ran_on <= workers and len(workers) == 2
    finally:
        cluster.close_embedded()
