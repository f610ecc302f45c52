"""pose: the world position of every bone of a model with an animation evaluated at one time.

What a glTF viewer computes before skinning (three.js ``AnimationMixer`` then
``bone.getWorldPosition``), read from the files alone: the clip is the model's own animation
(by name or index) or another GLB's animation whose channels drive the model's nodes of the
same names (how three.js binds a clip to a scene, and how the library's animation files are
used). Samplers follow glTF 2.0 (3.11): ``LINEAR`` (rotations by spherical interpolation the
short way round), ``STEP`` and ``CUBICSPLINE``, each channel held at its first and last key
outside its time range. Errors raise ``ValueError`` prefixed with ``pose:``.

>>> from workbench.gltf import build_animation
>>> p = bone_positions(build_animation("masculine", "wave"), 0.5)
>>> list(p.columns), len(p)                      # no skin: every named node, the Armature and 65 joints
(['joint', 'x', 'y', 'z'], 66)
>>> rest = bone_positions(build_animation("masculine", "wave"), None)
>>> bool(rest.set_index("joint").loc["HeadTop_End", "y"] > 1.7)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .glb import read_accessor, read_glb
from .summary import _load
from .tracks import pick_animation

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["bone_positions"]


def bone_positions(model, time_s: float | None, *, clip=None, animation: str | int = 0) -> pd.DataFrame:
    """Bones' world positions (metres) at ``time_s`` seconds; ``time_s=None`` is the rest pose.

    model: GLB bytes, a path or a result with ``.content``. clip: None (the model's own
    animation ``animation``) or another GLB whose animation ``animation`` is applied by node
    name. Returns columns ``joint, x, y, z``: one row per joint of the model's skins in skin
    order, or per named node when the model has no skin (an animation file).
    """
    # pandas when asked for (as workbench.tracking imports it): a service, a kernel or a CLI imports this module
    # with the GLB writer and paid 0.4 s of CPU for pandas at every start (docs/testing.md)
    import pandas as pd

    doc, binary = read_glb(_load(model))
    nodes = doc.get("nodes", [])
    names = [n.get("name", "") for n in nodes]
    overrides: dict[int, dict[str, np.ndarray]] = {}
    if time_s is not None:
        cdoc, cbin = (doc, binary) if clip is None else read_glb(_load(clip))
        by_name: dict[str, list[int]] = {}
        for i, nm in enumerate(names):
            by_name.setdefault(nm, []).append(i)
        for target, path, value in _channels_at(cdoc, cbin, animation, float(time_s)):
            for i in by_name.get(target, []):
                overrides.setdefault(i, {})[path] = value
    world = _world(doc, overrides)
    joints: list[int] = []
    for skin in doc.get("skins", []):
        joints += [j for j in skin["joints"] if j not in joints]
    if not joints:
        joints = [i for i in range(len(nodes)) if names[i] and i in world]
    pos = np.array([world[j][:3, 3] for j in joints], dtype=np.float64).reshape(-1, 3)
    return pd.DataFrame({"joint": [names[j] for j in joints], "x": pos[:, 0], "y": pos[:, 1], "z": pos[:, 2]})


def _channels_at(doc: dict, binary: bytes, animation, t: float):
    """(target node name, path, value) for each channel of ``animation`` at time ``t``."""
    anim = pick_animation(doc, animation, "pose")
    nodes = doc.get("nodes", [])
    for ch in anim.get("channels", []):
        target = ch.get("target", {})
        path = target.get("path")
        if "node" not in target or path not in ("translation", "rotation", "scale"):
            continue  # morph weights move no bone
        sampler = anim["samplers"][ch["sampler"]]
        times = read_accessor(doc, binary, sampler["input"]).reshape(-1).astype(np.float64)
        values = read_accessor(doc, binary, sampler["output"]).astype(np.float64).reshape(-1, 4 if path == "rotation" else 3)
        yield nodes[target["node"]].get("name", ""), path, sample_keyframes(times, values, sampler.get("interpolation", "LINEAR"),
                                                                            t, path == "rotation")


def _slerp(a: np.ndarray, b: np.ndarray, u: float) -> np.ndarray:
    d = float(np.dot(a, b))
    if d < 0:  # the short way round
        b, d = -b, -d
    if d > 0.9995:  # nearly equal: slerp's sine ratio loses precision, the straight line does not
        out = a + u * (b - a)
    else:
        th = np.arccos(d)
        out = (np.sin((1 - u) * th) * a + np.sin(u * th) * b) / np.sin(th)
    return out / np.linalg.norm(out)


def sample_keyframes(times: np.ndarray, values: np.ndarray, interpolation: str, t: float, rotation: bool) -> np.ndarray:
    """A channel's value at ``t`` (glTF 2.0, 3.11): LINEAR (slerp for rotations), STEP or
    CUBICSPLINE, held before the first and after the last key. The one sampler of the project:
    the renderer's poses and :func:`bone_positions` both use it.

    >>> sample_keyframes(np.array([0.0, 1.0]), np.array([[0.0, 0, 0], [2.0, 0, 0]]), "LINEAR", 0.25, False)
    array([0.5, 0. , 0. ])
    """
    n = len(times)
    if interpolation == "CUBICSPLINE":
        keys = values.reshape(n, 3, -1)  # in-tangent, value, out-tangent per key
        if t <= times[0] or n == 1:
            return keys[0, 1]
        if t >= times[-1]:
            return keys[-1, 1]
        k = int(np.searchsorted(times, t, side="right")) - 1
        dt = times[k + 1] - times[k]
        u = (t - times[k]) / max(dt, 1e-12)
        u2, u3 = u * u, u * u * u
        v = ((2 * u3 - 3 * u2 + 1) * keys[k, 1] + (u3 - 2 * u2 + u) * dt * keys[k, 2]
             + (-2 * u3 + 3 * u2) * keys[k + 1, 1] + (u3 - u2) * dt * keys[k + 1, 0])
        return v / np.linalg.norm(v) if rotation else v
    if t <= times[0]:
        return values[0]
    if t >= times[-1]:
        return values[n - 1]
    k = int(np.searchsorted(times, t, side="right")) - 1
    if interpolation == "STEP":
        return values[k]
    u = (t - times[k]) / max(times[k + 1] - times[k], 1e-12)
    if rotation:
        return _slerp(values[k], values[k + 1], u)
    return values[k] + u * (values[k + 1] - values[k])

def _quat_matrix(q: np.ndarray) -> np.ndarray:
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _local(node: dict, o: dict) -> np.ndarray:
    if "matrix" in node:
        return np.asarray(node["matrix"], np.float64).reshape(4, 4).T
    m = np.eye(4)
    r = np.asarray(o.get("rotation", node.get("rotation", [0, 0, 0, 1])), np.float64)
    s = np.asarray(o.get("scale", node.get("scale", [1, 1, 1])), np.float64)
    m[:3, :3] = _quat_matrix(r) * s[None, :]
    m[:3, 3] = o.get("translation", node.get("translation", [0, 0, 0]))
    return m


def _world(doc: dict, overrides: dict) -> dict[int, np.ndarray]:
    """World matrices of the nodes under the default scene (every root when there is none)."""
    nodes = doc.get("nodes", [])
    scenes = doc.get("scenes", [])
    if scenes:
        roots = scenes[doc.get("scene", 0)].get("nodes", [])
    else:
        children = {c for n in nodes for c in n.get("children", [])}
        roots = [i for i in range(len(nodes)) if i not in children]
    world: dict[int, np.ndarray] = {}
    stack = [(r, np.eye(4)) for r in reversed(roots)]
    while stack:
        i, parent = stack.pop()
        if i in world:   # a node met again (a cycle, or a second parent, which glTF forbids): its first place stays
            continue
        world[i] = parent @ _local(nodes[i], overrides.get(i, {}))
        stack += [(c, world[i]) for c in reversed(nodes[i].get("children", [])) if c not in world]
    return world
