"""What each hair style costs a new avatar (issue 46: "a new avatar's first 512 px preview over HTTP under 0.3 s
for every hair style", "its model with every clip under 0.5 s"), against ``BASE`` (main before issue 46's hair).

Run: ``PYTHONPATH=. python bench/hair_styles.py [runs] [styles] [base commit] [settings]`` (styles comma-separated,
default all; ``settings``: a JSON object laid over the bench's avatar's, e.g. the heaviest cut's
``'{"gender": "masculine", "bodyShape": "heavy", "glasses": "sunglasses", "outfit": {"topStyle": "longsleeve"}}'``).

As ``bench/bodies.py`` measures (whose setup and base loading this reuses): fresh processes after the service's
warm-up, in rounds (every style once per round, new then old), medians; wall and CPU time. Per style:

- the first preview at 512 px as the service makes it (``build_avatar_unencoded`` then ``render_preview``);
- the first preview over HTTP through the client, a local service started in the process, a new avatar;
- the model at LOD 0 with every clip (bare).

The default old code has no ``ponytail`` or ``bob`` (a base whose hair code makes them draws them): those are set against the
old long hair (the slowest style it has).
Also the sizes of LOD 0 with a 1024 atlas (WebP) and every clip, per style, new code.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bodies import SETUP, load_base, run  # noqa: E402

BASE = "9802d5d"
STYLES = ("short", "long", "bun", "curly", "ponytail", "bob", "none")
OLD = {"ponytail": "long", "bob": "long"}
HTTP = (
    "import tempfile\nfrom {pkg} import connect\n"
    "client = connect(data_dir=tempfile.mkdtemp(), quiet=True)\n"
    "while client.local.health()['animationLibrary'] != 'ready':\n    time.sleep(0.05)\n"
    "_render.warm_up()\n"
    "mid = client.avatars.register(settings_in).model_id\n")
CASES = {
    "first preview 512 px, as the service": "t = time.perf_counter(); c = time.process_time(); first_preview()\n",
    "first preview over HTTP, a new avatar": HTTP + (
        "t = time.perf_counter(); c = time.process_time(); client.avatars.preview(mid, size=512)\n"),
    "model, LOD 0, all 18 clips": (
        "t = time.perf_counter(); c = time.process_time()\n"
        "build_avatar(settings, ModelOptions(animations=ANIMATIONS))\n"),
}
SIZE = ("glb = build_avatar(settings, ModelOptions(texture_atlas_size=1024, texture_format='webp',\n"
        "                                       animations=ANIMATIONS))\n"
        "print(len(glb))\n")


def setup(tmp: Path, pkg: str, style: str, over: dict | None = None) -> str:
    # The bench's avatar (feminine, clear glasses) with the style's hair, and ``over`` laid over it.
    settings = {"gender": "feminine", "glasses": "clear", **(over or {}), "hair": {"style": style}}
    return (SETUP.format(tmp=str(tmp), pkg=pkg) + f"settings_in = {settings!r}\n"
            + "settings = normalize_avatar_settings(settings_in)\n")


def main(runs: int = 5, styles: tuple[str, ...] = STYLES, base: str = BASE, over: dict | None = None) -> None:
    import os

    print(f"load average before: {os.getloadavg()}; settings over the bench's: {over or {}}")
    with tempfile.TemporaryDirectory(prefix="bench-hair-") as folder:
        tmp = Path(folder)
        load_base(tmp, base)
        # The old code's style where its hair is made (a base from before ponytail and bob draws its long hair).
        hair = " ".join(p.read_text() for p in (tmp / "workbench_base" / "body" / "hair").rglob("*.py"))
        old_of = {s: s if f'"{s}"' in hair else OLD.get(s, s) for s in styles}
        for style in styles:                 # (the kept arrays made before timing)
            for pkg, s in (("workbench", style), ("workbench_base", old_of[style])):
                run(setup(tmp, pkg, s, over) + "first_preview()\n"
                    "build_avatar(settings, ModelOptions(animations=ANIMATIONS))\n")
        times = {(c, s, p): [] for c in CASES for s in styles for p in ("workbench", "workbench_base")}
        cpu = {k: [] for k in times}
        for _ in range(runs):
            for label, body in CASES.items():
                for style in styles:
                    for pkg in ("workbench", "workbench_base"):
                        s = style if pkg == "workbench" else old_of[style]
                        code = (setup(tmp, pkg, s, over) + body.replace("{pkg}", pkg)
                                + "print(time.perf_counter() - t, time.process_time() - c)\n")
                        wall, used = map(float, run(code).strip().splitlines()[-1].split())
                        times[label, style, pkg].append(wall)
                        cpu[label, style, pkg].append(used)
        print(f"medians of {runs}, ms (old: {base}; its style for each: {old_of})")
        for label in CASES:
            print(label)
            for style in styles:
                new, old = (statistics.median(times[label, style, p]) for p in ("workbench", "workbench_base"))
                nc, oc = (statistics.median(cpu[label, style, p]) for p in ("workbench", "workbench_base"))
                print(f"  {style:<9} wall new {new * 1000:5.0f} | old {old * 1000:5.0f}, new/old {new / old:4.2f}"
                      f" | CPU new {nc * 1000:5.0f} | old {oc * 1000:5.0f}, new/old {nc / oc:4.2f}")
        print("LOD 0, 1024 atlas (WebP), every clip: MB (new)")
        for style in styles:
            print(f"  {style:<9} {int(run(setup(tmp, 'workbench', style, over) + SIZE).strip().splitlines()[-1]) / 1e6:5.2f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5,
         tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 and sys.argv[2] else STYLES,
         sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else BASE,
         json.loads(sys.argv[4]) if len(sys.argv) > 4 else None)
