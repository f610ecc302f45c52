"""Benchmark: the CPU of a new avatar's build and first preview, and of its model file, against a baseline measured
in the same process; with ``--hashes`` the bytes of each model and preview, to compare two versions of the code.

Run: ``python bench/build_preview.py [--hashes]`` (from the repository, ``PYTHONPATH=.``). A warm process (the
service's warm-up, ``workbench.gltf.avatar.warm_up``, and one avatar built and drawn) takes review U's 12 avatars
(``helpers.random_settings(12, 4631, with_added=True, heads=True)``, docs/avatars.md's review U) and both genders'
defaults, each a body no cache holds, and for each times with ``time.process_time`` (which a loaded machine moves less
than wall time):

- the service's first preview (``GET /preview``): the model built without what only a file needs
  (``build_avatar_unencoded``) and its 512 px portrait drawn in the avatar's stance
  (``workbench.service.content``'s path);
- its model (``GET /model``, LOD 0, default options): ``build_avatar``, built after the preview as the service does
  (its stance, fitted for the preview, from ``workbench.gltf.avatar._stance``'s cache);
- the model with its stance fitted again: ``build_avatar`` again after ``_stance.cache_clear()`` (the same bytes).
  Everything else is still cached (the body, the meshes, the model's encoded textures), so this is the stance's
  fit over a warm build: a relaxed avatar's figure is the warm build alone (it has no stance to fit), and a model
  asked for alone, with no preview before it, costs about ``model`` plus (this figure less a relaxed one's);
- the baseline: Pillow resizing a 1024 px image to 512 and encoding it as PNG, five times (bench/render.py's).

It prints each avatar's figures (``stance refit``: the model with its stance fitted again), then the totals and the
ratios build+first preview / baseline, model / baseline and stance refit / baseline.
With ``--hashes`` each model's and preview's SHA-256 and one digest over all: the same on two versions means the
same bytes (suite31 ran it on main and on its branch: identical).
"""

from __future__ import annotations

import hashlib
import io
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers import random_settings  # noqa: E402

from workbench.gltf import build_avatar  # noqa: E402
from workbench.gltf.avatar import _stance, build_avatar_unencoded, warm_up  # noqa: E402
from workbench.options import DEFAULT_POSE, ModelOptions, PreviewOptions, normalize_avatar_settings  # noqa: E402
from workbench.render import render_preview  # noqa: E402

# Review U's avatars (its sheets' seed) and both defaults.
SEED, COUNT = 4631, 12


def avatars() -> list[dict]:
    return [normalize_avatar_settings(s) for s in [*random_settings(COUNT, SEED, with_added=True, heads=True),
                                                   {"gender": "feminine"}, {"gender": "masculine"}]]


def first_preview(s: dict) -> bytes:
    """The service's first preview of ``s`` (workbench.service.content's ``preview``)."""
    glb, images = build_avatar_unencoded(s, ModelOptions())
    relaxed = s.get("pose", DEFAULT_POSE) == DEFAULT_POSE
    return render_preview(glb, PreviewOptions(), pose=(f"{s['gender']}/idle", 0.0) if relaxed else "preview",
                          images=images)


def pillow_job() -> None:
    im = Image.fromarray(np.random.default_rng(0).integers(0, 256, (1024, 1024, 3), np.uint8)).resize((512, 512))
    im.save(io.BytesIO(), "PNG")


def cpu(f):
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def main(hashes: bool = False) -> None:
    warm_up()                                        # as the service's start does: the data, compiled code, clips
    first_preview(normalize_avatar_settings({"gender": "feminine", "height": 163.3}))
    total = {"preview": 0.0, "model": 0.0, "refit": 0.0, "baseline": 0.0}
    digest = hashlib.sha256()
    for k, s in enumerate(avatars()):
        t_preview, png = cpu(lambda s=s: first_preview(s))
        t_model, glb = cpu(lambda s=s: build_avatar(s, ModelOptions()))
        _stance.cache_clear()
        t_refit, again = cpu(lambda s=s: build_avatar(s, ModelOptions()))
        assert again == glb, f"#{k + 1}: the model with its stance fitted again is not the same bytes"
        t_base = sum(cpu(pillow_job)[0] for _ in range(5))
        total["preview"] += t_preview
        total["model"] += t_model
        total["refit"] += t_refit
        total["baseline"] += t_base
        line = (f"#{k + 1:2d} {s['gender']:9s} {s['pose']:13s} build+first preview {t_preview:.3f} s, "
                f"model {t_model:.3f} s, stance refit {t_refit:.3f} s")
        if hashes:
            g, p = hashlib.sha256(glb).hexdigest()[:16], hashlib.sha256(png).hexdigest()[:16]
            digest.update(glb)
            digest.update(png)
            line += f"  glb {g} png {p}"
        print(line, flush=True)
    n = len(avatars())
    print(f"per avatar: build+first preview {total['preview'] / n:.3f} s CPU, model {total['model'] / n:.3f} s CPU, "
          f"stance refit {total['refit'] / n:.3f} s CPU, baseline {total['baseline'] / n:.3f} s CPU")
    print(f"ratio build+first preview / baseline {total['preview'] / total['baseline']:.2f}; "
          f"model / baseline {total['model'] / total['baseline']:.2f}; "
          f"stance refit / baseline {total['refit'] / total['baseline']:.2f}")
    if hashes:
        print(f"all bytes: {digest.hexdigest()}")


if __name__ == "__main__":
    main("--hashes" in sys.argv[1:])
