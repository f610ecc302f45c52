"""Load test: models of every option requested at once by many clients for a minute (issue 40, item 1).

Usage: ``PYTHONPATH=. python bench/model_load.py [--clients 20] [--seconds 60]``

A ``workbench serve`` subprocess on a loopback port (real HTTP, real uvicorn, a new data folder) takes
``--clients`` threads, each asking for a new avatar's model again and again: a body from a pool larger
than the service's in-memory cache of meshes (so levels of detail 1 and 2 are decimated afresh all
along), options drawn so that every value of every option comes up (``lod`` 0 to 2, ``animations``,
``textureFormat``, ``mergeMesh``, ``textureAtlasSize``). Then every distinct (body, options) answered is
built again here, one at a time, and compared byte for byte.

Prints the requests, the errors (any status but 200, any connection failure: the goal is 0), the
answers that differ from the one-at-a-time build (goal 0), whether the service is still up, the
latency per level of detail, and as a ratio the models per second under load against the one-at-a-time
builds per second of this process (the baseline, measured in the same run).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from shared import ROOT, free_port

sys.path.insert(0, str(ROOT))

from workbench.gltf import build_avatar  # noqa: E402
from workbench.options import ANIMATIONS, ATLAS_SIZES, LODS, TEXTURE_FORMATS, ModelOptions, normalize_avatar_settings  # noqa: E402

TOKEN = "wb_bench_model_load_token_0123456789"
# 2 genders x 24 heights: 48 bodies, 144 (body, lod) pairs against the service's 64 kept meshes.
BODIES = [{"gender": g, "height": float(h)} for g in ("feminine", "masculine") for h in range(150, 198, 2)]
ANIMATION_CHOICES = ((), ("idle",), ("walk", "wave"), ANIMATIONS)


def options_of(rng: random.Random) -> ModelOptions:
    return ModelOptions(lod=rng.choice(LODS), animations=rng.choice(ANIMATION_CHOICES),
                        texture_format=rng.choice((None, *TEXTURE_FORMATS)), merge_mesh=rng.random() < 0.5,
                        texture_atlas_size=rng.choice((None, None, *ATLAS_SIZES)))


def start_service(data_dir: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "WORKBENCH_DEV_TOKEN": TOKEN, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "serve", "--port", str(port), "--data-dir",
                             str(data_dir)], env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    root = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(root + "/_local/health", timeout=1).json()["data"]["animationLibrary"] == "ready":
                return proc, root
        except (httpx.HTTPError, ValueError, KeyError):
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"workbench serve did not come up; its log: {log}")


def load(root: str, clients: int, seconds: float) -> list[dict]:
    """Every request's (body, options, status, bytes or error, seconds), from ``clients`` threads."""
    done: list[dict] = []
    stop = time.monotonic() + seconds
    headers = {"Authorization": f"Bearer {TOKEN}"}

    def client(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=root, headers=headers, timeout=600) as http:
            while time.monotonic() < stop:
                body, options = rng.choice(BODIES), options_of(rng)
                row = {"body": body, "options": options, "status": None, "content": b"", "error": ""}
                t = time.perf_counter()
                try:
                    mid = http.post("/avatars/avatar", json=body).json()["data"]["modelId"]
                    t = time.perf_counter()
                    r = http.get(f"/avatars/model/{mid}.glb", params=options.to_query())
                    row.update(status=r.status_code, content=r.content if r.status_code == 200 else b"",
                               error="" if r.status_code == 200 else r.text[:300])
                except (httpx.HTTPError, ValueError, KeyError) as e:
                    row["error"] = f"{type(e).__name__}: {e}"
                row["seconds"] = time.perf_counter() - t
                done.append(row)
                if isinstance(row["error"], str) and row["error"].startswith("ConnectError"):
                    return  # the service is gone: counted once per client, not once per spin

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {os.cpu_count()} cores; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.clients} clients for {args.seconds:.0f} s")
    with tempfile.TemporaryDirectory(prefix="wb-model-load-") as tmp:
        proc, root = start_service(Path(tmp) / "data", Path(tmp) / "serve.log")
        try:
            t = time.perf_counter()
            rows = load(root, args.clients, args.seconds)
            wall = time.perf_counter() - t
            alive = proc.poll() is None
            try:
                healthy = httpx.get(root + "/_local/health", timeout=10).status_code == 200
            except httpx.HTTPError:
                healthy = False
        finally:
            proc.terminate()
            proc.wait(30)
        log_text = (Path(tmp) / "serve.log").read_text(errors="replace")
    errors = [r for r in rows if r["status"] != 200]
    print(f"requests: {len(rows)} in {wall:.1f} s ({len(rows) / wall:.2f} models/s); errors: {len(errors)} "
          f"(goal 0); service alive after: {alive and healthy}; 'failed' in its log: {log_text.count('failed')}")
    for r in errors[:10]:
        print(f"  {r['status']} {r['body']} {r['options'].to_query()}: {r['error']}")
    for lod in LODS:
        times = sorted(r["seconds"] for r in rows if r["options"].lod == lod and r["status"] == 200)
        if times:
            print(f"  LOD {lod}: {len(times)} answers, median {statistics.median(times):.2f} s, "
                  f"95th percentile {times[int(0.95 * (len(times) - 1))]:.2f} s")
    seen = {"lod", "animations", "textureFormat", "mergeMesh", "textureAtlasSize"}
    asked = {k: sorted({r["options"].to_query().get(k, "(default)") for r in rows}) for k in sorted(seen)}
    print("option values asked: " + "; ".join(f"{k} {len(v)}" for k, v in asked.items()))

    # The baseline: every distinct (body, options) answered, built once here, one at a time.
    distinct: dict[tuple, list[bytes]] = {}
    for r in rows:
        if r["status"] == 200:
            distinct.setdefault((tuple(sorted(r["body"].items())), r["options"]), []).append(r["content"])
    t = time.perf_counter()
    differ = 0
    for (body, options), answers in distinct.items():
        alone = build_avatar(normalize_avatar_settings(dict(body)), options)
        bad = sum(a != alone for a in answers)
        if bad:
            differ += bad
            print(f"  DIFFERS: {dict(body)} {options.to_query()}: {bad} of {len(answers)} answers")
    alone_wall = time.perf_counter() - t
    answered = sum(len(a) for a in distinct.values())
    print(f"bodies equal to a one-at-a-time build: {answered - differ} of {answered} ({len(distinct)} distinct "
          f"body and options pairs, built again in {alone_wall:.1f} s); differing: {differ} (goal 0)")
    rate = len(rows) / wall
    if distinct:
        alone_rate = len(distinct) / alone_wall
        print(f"ratio, models/s under load (new avatar each, {args.clients} clients, over HTTP) / one-at-a-time "
              f"builds/s in this process: {rate:.2f} / {alone_rate:.2f} = {rate / alone_rate:.2f}")
    if errors or differ or not (alive and healthy):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
