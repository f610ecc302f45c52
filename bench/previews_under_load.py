"""Previews on a busy machine, for a minute, compared byte for byte with one-at-a-time previews (issue 45 item 1).

Usage: ``PYTHONPATH=. python bench/previews_under_load.py [--seconds 60] [--spinners 6]``

As the outside run that found the race did it: a plain ``workbench serve`` with its output sent to
``/dev/null`` and ``--spinners`` CPU-bound processes beside it on this 2-core machine (and, unless
``--no-switch``, ``sys.setswitchinterval(1e-6)`` in the service's process). For ``--seconds``, new avatars
are registered and their previews asked for one at a time (512 px full, 256 px and 128 px portraits),
the avatars cycling through every hair style, top, bottom, shoe and glasses option in seeded colours.
Then the spinners stop, a second fresh service draws the same previews one at a time, quiet, and the
bytes are compared.

Prints the previews compared, how many differ (the goal is 0), and the median time of a preview under load
against the quiet service's (a ratio: what the load costs, not a goal).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
from shared import ROOT, free_port

sys.path.insert(0, str(ROOT))

from workbench import options as opts  # noqa: E402

TOKEN = "wb_bench_previews_token_0123456789"
PREVIEWS = ((512, "full"), (256, "portrait"), (128, "portrait"))


def settings_of(k: int, rng: random.Random) -> dict:
    """The k-th avatar: every option cycles, colours drawn (seeded) so no two avatars share them."""
    def colour() -> str:
        return "#" + "".join(f"{rng.randrange(256):02X}" for _ in range(3))

    return {"gender": opts.GENDERS[k % 2], "bodyShape": opts.BODY_SHAPES[k % len(opts.BODY_SHAPES)],
            "skinTone": colour(), "hair": {"style": opts.HAIR_STYLES[k % len(opts.HAIR_STYLES)], "color": colour()},
            "outfit": {"top": colour(), "bottom": colour(), "shoes": colour(),
                       "topStyle": opts.TOP_STYLES[k % len(opts.TOP_STYLES)],
                       "bottomStyle": opts.BOTTOM_STYLES[(k // 3) % len(opts.BOTTOM_STYLES)],
                       "shoeStyle": opts.SHOE_STYLES[k % len(opts.SHOE_STYLES)]},
            "glasses": opts.GLASSES[(k // 2) % len(opts.GLASSES)]}


class Service:
    def __init__(self, switch: bool):
        self.dir = tempfile.mkdtemp(prefix="wb-previews-load-")
        self.port = free_port()
        self.root = f"http://127.0.0.1:{self.port}/avatars"
        code = "import sys; sys.setswitchinterval(1e-6); " if switch else ""
        code += "from workbench.cli import main; sys.exit(main())"
        self.proc = subprocess.Popen([sys.executable, "-c", "import sys; " + code, "serve", "--port", str(self.port),
                                      "--data-dir", self.dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env={**os.environ, "WORKBENCH_DEV_TOKEN": TOKEN, "PYTHONPATH": str(ROOT)})
        self.http = httpx.Client(timeout=600, headers={"Authorization": f"Bearer {TOKEN}"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.http.get(f"http://127.0.0.1:{self.port}/_local/health").status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit("the service did not come up")

    def previews(self, settings: dict) -> tuple[list[bytes], list[float]]:
        r = self.http.post(self.root + "/avatar", json=settings)
        r.raise_for_status()
        mid = r.json()["data"]["modelId"]
        out, times = [], []
        for size, camera in PREVIEWS:
            t = time.perf_counter()
            r = self.http.get(f"{self.root}/preview/{mid}.png", params={"size": size, "camera": camera})
            times.append(time.perf_counter() - t)
            r.raise_for_status()
            out.append(r.content)
        return out, times

    def stop(self) -> None:
        self.http.close()
        self.proc.terminate()
        self.proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--spinners", type=int, default=6)
    ap.add_argument("--no-switch", action="store_true", help="leave the service's switch interval as it is")
    args = ap.parse_args()
    rng = random.Random(45)
    print(f"load before: {os.getloadavg()[0]:.1f}")
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.spinners)]
    busy = Service(switch=not args.no_switch)
    asked, answers, busy_times = [], [], []
    try:
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            s = settings_of(len(asked), rng)
            pngs, ts = busy.previews(s)
            asked.append(s)
            answers.append(pngs)
            busy_times += ts
        load = os.getloadavg()[0]
    finally:
        busy.stop()
        for p in spinners:
            p.kill()
            p.wait()
    time.sleep(5)   # (the spinners' load leaves the averages slowly; the quiet service starts after them)
    quiet = Service(switch=False)
    differ, quiet_times = [], []
    try:
        for k, s in enumerate(asked):
            pngs, ts = quiet.previews(s)
            quiet_times += ts
            differ += [(k, PREVIEWS[j]) for j, (a, b) in enumerate(zip(answers[k], pngs, strict=True)) if a != b]
    finally:
        quiet.stop()
    n = len(asked) * len(PREVIEWS)
    print(f"{len(asked)} avatars, {n} previews under load ({args.spinners} spinners, load {load:.1f}, "
          f"switch interval {'default' if args.no_switch else '1e-6 s'}) for {args.seconds:.0f} s")
    print(f"previews that differ from a quiet fresh service's: {len(differ)} of {n}  {differ[:6]}")
    bm, qm = statistics.median(busy_times), statistics.median(quiet_times)
    print(f"median preview: {bm * 1000:.0f} ms under load, {qm * 1000:.0f} ms quiet: ratio {bm / qm:.2f}")


if __name__ == "__main__":
    main()
