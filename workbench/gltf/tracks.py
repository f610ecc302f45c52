"""Read an animation's keyframe tracks out of a GLB, as a tidy DataFrame for plotting.

>>> from workbench.gltf import build_animation
>>> t = tracks(build_animation("masculine", "nod"), joint="Head")
>>> sorted(t["path"].unique())
['rotation']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .glb import read_accessor, read_glb
from .summary import _load

if TYPE_CHECKING:
    import pandas as pd


def pick_animation(doc: dict, animation: str | int, operation: str) -> dict:
    """The glTF animation named ``animation`` (or at that index), or ValueError naming the operation.

    >>> pick_animation({"animations": [{"name": "wave"}]}, "wave", "tracks")
    {'name': 'wave'}
    """
    anims = doc.get("animations", [])
    if not anims:
        raise ValueError(f"{operation}: the GLB has no animations")
    if isinstance(animation, str):
        names = [a.get("name") for a in anims]
        if animation not in names:
            raise ValueError(f"{operation}: no animation {animation!r}; the file has {names}")
        animation = names.index(animation)
    return anims[animation]


def tracks(source, animation: str | int = 0, joint: str | None = None) -> pd.DataFrame:
    """One row per keyframe and channel: ``joint``, ``path`` (translation, rotation, scale),
    ``time`` (s) and ``x, y, z`` (+ ``w`` for rotations, quaternion xyzw), plus ``angle_deg`` for
    rotations (the rotation's angle away from the clip's first key). ``source``: bytes, path or result."""
    import pandas as pd  # when asked for, as in pose.bone_positions

    doc, binary = read_glb(_load(source))
    anim = pick_animation(doc, animation, "tracks")
    nodes = doc.get("nodes", [])
    frames = []
    for ch in anim["channels"]:
        target = ch["target"]
        name = nodes[target["node"]].get("name", str(target["node"]))
        if joint is not None and name != joint:
            continue
        sampler = anim["samplers"][ch["sampler"]]
        times = read_accessor(doc, binary, sampler["input"]).reshape(-1)
        values = read_accessor(doc, binary, sampler["output"]).reshape(len(times), -1)
        cols = ["x", "y", "z", "w"][: values.shape[1]]
        f = pd.DataFrame(values, columns=cols)
        f.insert(0, "time", times)
        f.insert(0, "path", target["path"])
        f.insert(0, "joint", name)
        if target["path"] == "rotation":
            q0 = values[0] / np.linalg.norm(values[0])
            q = values / np.linalg.norm(values, axis=1, keepdims=True)
            dot = np.clip(np.abs(q @ q0), 0.0, 1.0)
            f["angle_deg"] = np.degrees(2 * np.arccos(dot))
        frames.append(f)
    if not frames:
        raise ValueError(f"tracks: no channel targets joint {joint!r}")
    return pd.concat(frames, ignore_index=True)
