"""build_animation: a library clip as a GLB on a gender's default skeleton; also the whole library.

Options: ``gender`` (masculine or feminine) and ``name`` (one of ``ANIMATIONS``). The file
holds the Armature with the 65 joints (no mesh: the validator accepts a skeleton-only
file) and one animation named ``name``: linear rotation tracks (quaternions) for the joints
the clip moves plus a Hips translation track, at 30 fps. ``add_animations`` writes the
same clips into any document, scaled to that document's skeleton (``build_avatar`` uses
it). Errors raise ``ValueError`` prefixed with ``build_animation:``.

>>> glb = build_animation("feminine", "wave")
>>> glb[:4]
b'glTF'
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..options import ANIMATIONS, DEFAULT_HEIGHT, GENDERS
from ..skeleton import Skeleton, skeleton
from .armature import write_armature
from .clips import clip
from .glb import GlbWriter


def add_animations(w: GlbWriter, rig: Skeleton, names, joint_nodes: list[int]) -> None:
    """Append one animation per clip (a library name, or a :class:`~workbench.gltf.clips.Clip` such as an avatar's
    stance), retargeted to ``rig`` (Hips offsets scale with it)."""
    for name in names:
        c = clip(name, rig.gender) if isinstance(name, str) else name
        times = w.accessor(c.times.astype(np.float32).reshape(-1, 1), "SCALAR", minmax=True)
        hips = rig.local[0][None, :] + c.hips_offset * rig.hip_height
        channels = [(joint_nodes[0], "translation", times, w.accessor(hips.astype(np.float32), "VEC3"), "LINEAR")]
        for joint, q in c.rotations.items():
            qf = q.astype(np.float32)
            qf /= np.linalg.norm(qf, axis=1, keepdims=True)
            channels.append((joint_nodes[rig.index[joint]], "rotation", times, w.accessor(qf, "VEC4"), "LINEAR"))
        w.animation(c.name, channels)


def build_animation(gender: str, name: str) -> bytes:
    """The GLB of library clip ``name`` on ``gender``'s default skeleton.

    >>> len(build_animation("masculine", "nod")) > 1000
    True
    """
    if gender not in GENDERS:
        raise ValueError(f"build_animation: gender must be masculine or feminine; got {gender!r}")
    if name not in ANIMATIONS:
        raise ValueError(f"build_animation: {name!r} is not a library animation")
    rig = skeleton(gender, DEFAULT_HEIGHT[gender], "average")
    w = GlbWriter()
    joints = write_armature(w, rig)
    w.scene([0], name)
    add_animations(w, rig, [name], joints)
    return w.to_bytes()


def build_animation_library(folder: Path) -> list[Path]:
    """Write ``{gender}/{name}.glb`` for every gender and clip under ``folder``; return the paths.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     len(build_animation_library(Path(d)))
    36
    """
    folder = Path(folder)
    written = []
    for gender in GENDERS:
        (folder / gender).mkdir(parents=True, exist_ok=True)
        for name in ANIMATIONS:
            path = folder / gender / f"{name}.glb"
            path.write_bytes(build_animation(gender, name))
            written.append(path)
    return written
