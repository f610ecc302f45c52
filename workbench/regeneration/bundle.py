"""The game-engine bundle of a space viewer: the scene GLB and its lighting and post effects, zipped.

``effects.json`` (written with sorted keys, two-space indent):

- ``lighting.sun``: ``direction`` (unit vector the light travels along, world
  space, Y up), ``color`` (linear RGB 0..1), ``intensity`` (lux-like scale);
- ``lighting.ambient``: ``color``, ``intensity``;
- ``lighting.environment``: ``type`` ("gradient"), ``skyColor``,
  ``groundColor``, ``intensity``;
- ``postEffects.bloom``: ``enabled``, ``intensity``, ``threshold``, ``radius``;
- ``postEffects.toneMapping``: ``operator`` ("ACES" or "AgX"), ``exposure``;
- ``postEffects.vignette``: ``enabled``, ``offset``, ``darkness``.

Values come from a SHA-256 of the seed; the zip has fixed timestamps, so the
same scene and seed give the same bytes.

>>> import io, json, zipfile
>>> z = zipfile.ZipFile(io.BytesIO(build_space_bundle(b"glTF...", "s")))
>>> z.namelist(), sorted(json.loads(z.read("effects.json")))
(['scene.glb', 'effects.json'], ['lighting', 'postEffects', 'version'])
"""

from __future__ import annotations

import json

import numpy as np

from .product import _rng
from .zipstore import stored_zip

__all__ = ["build_space_bundle", "space_effects"]


def _r(x: float) -> float:
    return round(float(x), 4)


def space_effects(seed: str) -> dict:
    """The lighting and post effects for ``seed`` (see the module docstring for the fields).

    >>> space_effects("a")["postEffects"]["toneMapping"]["operator"] in ("ACES", "AgX")
    True
    """
    rng = _rng(seed, "effects")
    elev = np.radians(rng.uniform(30, 65))
    azim = np.radians(rng.uniform(0, 360))
    # The direction the sunlight travels: downwards, from the sun towards the scene.
    d = -np.array([np.cos(elev) * np.sin(azim), np.sin(elev), np.cos(elev) * np.cos(azim)])
    warm = rng.uniform(0, 1)
    sun_color = [1.0, 0.92 + 0.06 * (1 - warm), 0.78 + 0.2 * (1 - warm)]
    sky = [0.55 + 0.1 * rng.random(), 0.65 + 0.1 * rng.random(), 0.85 + 0.1 * rng.random()]
    return {
        "version": 1,
        "lighting": {
            "sun": {"direction": [_r(v) for v in d], "color": [_r(v) for v in sun_color],
                    "intensity": _r(rng.uniform(2.0, 4.0))},
            "ambient": {"color": [_r(v) for v in (0.9 + 0.1 * rng.random(3))], "intensity": _r(rng.uniform(0.2, 0.5))},
            "environment": {"type": "gradient", "skyColor": [_r(v) for v in sky],
                            "groundColor": [_r(v) for v in (0.25 + 0.15 * rng.random(3))],
                            "intensity": _r(rng.uniform(0.6, 1.2))},
        },
        "postEffects": {
            "bloom": {"enabled": True, "intensity": _r(rng.uniform(0.2, 0.8)),
                      "threshold": _r(rng.uniform(0.8, 1.0)), "radius": _r(rng.uniform(0.3, 0.8))},
            "toneMapping": {"operator": "ACES" if rng.random() < 0.6 else "AgX", "exposure": _r(rng.uniform(0.9, 1.3))},
            "vignette": {"enabled": bool(rng.random() < 0.8), "offset": _r(rng.uniform(0.9, 1.2)),
                         "darkness": _r(rng.uniform(0.3, 0.7))},
        },
    }


def build_space_bundle(scene_glb: bytes, seed: str) -> bytes:
    """A zip of ``scene.glb`` (as given) and ``effects.json`` for ``seed``; deterministic.

    >>> build_space_bundle(b"x", "a") == build_space_bundle(b"x", "a")
    True
    """
    effects = json.dumps(space_effects(seed), indent=2, sort_keys=True).encode("utf-8") + b"\n"
    return stored_zip([("scene.glb", bytes(scene_glb)), ("effects.json", effects)], align=4)
