"""The finish's checks of an uploaded GLB bundle: its container, every view and accessor inside its buffer, every
index one item gives another, and its node hierarchy, as glTF 2.0 lays them out.

A hostile file can put any JSON value anywhere: every field is read through :func:`_objects`, :func:`_count` and
:func:`_items`, so a wrong type is a problem to report, never an exception. What glTF forbids and the renderer
would follow for ever (a node that is its own child, a cycle: issue 45, item 2) is refused here, naming the rule.

>>> from workbench.gltf.glb import pack_glb
>>> check_glb(pack_glb({"asset": {"version": "2.0"}, "nodes": [{"children": [0]}]}, b""))[0][:58]
'nodes[0].children holds 0: a node may not be its own child'
"""

from __future__ import annotations

import math

from workbench.service.lazy import importing

__all__ = ["check_glb"]


def check_glb(data: bytes) -> list[str]:
    """Problems of a glTF 2.0 binary: header, chunks, JSON, and every view and accessor inside its buffer."""
    # Imported here: the GLB module brings numpy and the gltf package, which the service's start does not need.
    with importing():
        from workbench.gltf.glb import GlbError, read_glb

    try:
        doc, binary = read_glb(data, strict=True)  # the one reader of the GLB layout, in its strict mode
    except GlbError as e:
        return [e.problem]
    bin_chunk = binary or None
    problems = []
    if _not_finite(doc):  # Python's decoder takes NaN, Infinity and 1e999; JSON (RFC 8259) and glTF do not
        problems.append("the JSON chunk holds NaN or Infinity (or a number past a double's range), which JSON does not allow")
    asset = doc.get("asset")
    if not isinstance(asset, dict) or asset.get("version") != "2.0":
        problems.append("asset.version is not '2.0'")
    # A hostile file can put any JSON value anywhere: every field is read through _objects and
    # _count, so a wrong type is a problem to report, never an exception.
    buffers = _objects(problems, doc, "buffers")
    sizes = []
    for i, b in enumerate(buffers):
        n = _count(problems, b, "byteLength", f"buffers[{i}]")
        if i == 0 and b is not None and "uri" not in b:
            if bin_chunk is None:
                problems.append("buffers[0] has no uri but the file has no BIN chunk")
            elif n > len(bin_chunk):
                problems.append(f"buffers[0].byteLength {n} is larger than the BIN chunk ({len(bin_chunk)})")
        sizes.append(n)
    views = _objects(problems, doc, "bufferViews")
    view_lengths = []
    for i, v in enumerate(views):
        where = f"bufferViews[{i}]"
        buffer = _count(problems, v, "buffer", where, default=-1)
        length = _count(problems, v, "byteLength", where)
        view_lengths.append(length)
        if not 0 <= buffer < len(sizes):
            problems.append(f"{where}.buffer does not name one of the {len(sizes)} buffers")
        elif _count(problems, v, "byteOffset", where) + length > sizes[buffer]:
            problems.append(f"{where} runs past the end of buffers[{buffer}]")
        stride = (v or {}).get("byteStride")
        if stride is not None and (type(stride) is not int or not 4 <= stride <= 252 or stride % 4):
            problems.append(f"{where}.byteStride is {stride!r}: glTF 2.0 allows a multiple of 4 from 4 to 252")
    accessors = _objects(problems, doc, "accessors")
    for i, a in enumerate(accessors):
        _check_accessor(problems, a, f"accessors[{i}]", views, view_lengths, bin_chunk)
    _check_references(problems, doc)
    _check_hierarchy(problems, doc)
    return problems[:20]


def _check_accessor(problems: list[str], a: dict | None, where: str, views: list, view_lengths: list[int],
                    bin_chunk: bytes | None) -> None:
    """An accessor's count, its elements within its view (and its view's stride), and its sparse part."""
    with importing():
        from workbench.gltf.glb import COMPONENT_DTYPES, TYPE_WIDTHS

    if a is None:
        return
    ctype, atype = a.get("componentType"), a.get("type")
    dtype = COMPONENT_DTYPES.get(ctype) if type(ctype) is int else None
    width = TYPE_WIDTHS.get(atype, 0) if isinstance(atype, str) else 0
    if dtype is None or not width:
        problems.append(f"{where} has an unknown componentType or type")
        return
    count = _count(problems, a, "count", where)
    if count < 1:
        problems.append(f"{where}.count is 0: glTF 2.0 wants at least one element")
    elem = dtype.itemsize * width
    if "bufferView" in a:
        v = _count(problems, a, "bufferView", where, default=-1)
        if not 0 <= v < len(views):
            problems.append(f"{where}.bufferView does not name one of the {len(views)} buffer views")
        else:
            offset = _count(problems, a, "byteOffset", where)
            if offset % dtype.itemsize:
                problems.append(f"{where}.byteOffset {offset} is not a multiple of its component's {dtype.itemsize} bytes")
            stride = (views[v] or {}).get("byteStride")
            if type(stride) is int and stride < elem:
                problems.append(f"{where}'s elements of {elem} bytes do not fit bufferViews[{v}].byteStride {stride}")
            stride = stride if type(stride) is int and stride > 0 else elem
            if count and offset + stride * (count - 1) + elem > view_lengths[v]:
                problems.append(f"{where} runs past the end of bufferViews[{v}]")
    sparse = a.get("sparse")
    if sparse is not None:
        _check_sparse(problems, sparse, f"{where}.sparse", count, width * dtype.itemsize, views, view_lengths, bin_chunk)


def _check_sparse(problems: list[str], sparse, where: str, count: int, elem: int, views: list,
                  view_lengths: list[int], bin_chunk: bytes | None) -> None:
    """A sparse accessor: at most as many substitutions as the accessor has elements, their indices and values
    within their views, the indices strictly increasing and each naming an element (glTF 2.0, 3.6.2.3)."""
    with importing():
        import numpy as np

        from workbench.gltf.glb import COMPONENT_DTYPES

    if not isinstance(sparse, dict):
        problems.append(f"{where} is not an object")
        return
    n = _count(problems, sparse, "count", where)
    if not 1 <= n <= count:
        problems.append(f"{where}.count is {n}: glTF 2.0 wants from 1 to the accessor's count ({count})")
        return
    indices, values = sparse.get("indices"), sparse.get("values")
    if not isinstance(indices, dict) or not isinstance(values, dict):
        problems.append(f"{where} needs an indices object and a values object")
        return
    ctype = indices.get("componentType")
    if ctype not in (5121, 5123, 5125):
        problems.append(f"{where}.indices.componentType is {ctype!r}: glTF 2.0 allows 5121, 5123 or 5125")
        return
    spans = {}
    for part, size in (("indices", COMPONENT_DTYPES[ctype].itemsize), ("values", elem)):
        obj = sparse[part]
        v = _count(problems, obj, "bufferView", f"{where}.{part}", default=-1)
        offset = _count(problems, obj, "byteOffset", f"{where}.{part}")
        if not 0 <= v < len(views):
            problems.append(f"{where}.{part}.bufferView does not name one of the {len(views)} buffer views")
            return
        if offset + n * size > view_lengths[v]:
            problems.append(f"{where}.{part} runs past the end of bufferViews[{v}]")
            return
        spans[part] = (v, offset)
    v, offset = spans["indices"]
    view = views[v] or {}
    start = _count([], view, "byteOffset", "") + offset
    if view.get("buffer") == 0 and bin_chunk is not None and start + n * COMPONENT_DTYPES[ctype].itemsize <= len(bin_chunk):
        idx = np.frombuffer(bin_chunk, COMPONENT_DTYPES[ctype], n, start).astype(np.int64)
        if (np.diff(idx) <= 0).any():
            problems.append(f"{where}.indices are not strictly increasing, as glTF 2.0 wants")
        elif idx[-1] >= count:
            problems.append(f"{where}.indices name element {idx[-1]}, past the accessor's {count}")


# What refers to what by index (glTF 2.0, 5.x): (the array, the field, the array it names). Each is checked to
# name an item that exists: the renderer reads through every one of them.
_REFERENCES = [
    ("nodes", "mesh", "meshes"), ("nodes", "skin", "skins"), ("nodes", "camera", "cameras"),
    ("skins", "inverseBindMatrices", "accessors"), ("skins", "skeleton", "nodes"),
    ("textures", "source", "images"), ("textures", "sampler", "samplers"), ("images", "bufferView", "bufferViews"),
]


def _check_references(problems: list[str], doc: dict) -> None:
    """Every index one item gives to another names an item that exists."""
    sizes = {name: len(doc[name]) if isinstance(doc.get(name), list) else 0
             for name in ("nodes", "meshes", "skins", "cameras", "accessors", "textures", "images", "samplers",
                          "bufferViews", "materials", "scenes")}

    def ref(value, target: str, where: str) -> None:
        if type(value) is not int or not 0 <= value < sizes[target]:
            problems.append(f"{where} is {value!r}: it does not name one of the {sizes[target]} {target}")

    for array, field, target in _REFERENCES:
        for i, item in enumerate(_items(doc.get(array))):
            if isinstance(item, dict) and field in item:
                ref(item[field], target, f"{array}[{i}].{field}")
    for i, skin in enumerate(_items(doc.get("skins"))):
        for j in _items(skin.get("joints") if isinstance(skin, dict) else None):
            ref(j, "nodes", f"skins[{i}].joints")
    for i, mesh in enumerate(_items(doc.get("meshes"))):
        prims = mesh.get("primitives") if isinstance(mesh, dict) else None
        if not isinstance(prims, list):
            problems.append(f"meshes[{i}].primitives is not an array")
            continue
        for k, prim in enumerate(prims):
            where = f"meshes[{i}].primitives[{k}]"
            if not isinstance(prim, dict) or not isinstance(prim.get("attributes", {}), dict):
                problems.append(f"{where} is not an object with an attributes object")
                continue
            for name, value in prim.get("attributes", {}).items():
                ref(value, "accessors", f"{where}.attributes.{name}")
            for t, target in enumerate(_items(prim.get("targets"))):
                for name, value in (target.items() if isinstance(target, dict) else []):
                    ref(value, "accessors", f"{where}.targets[{t}].{name}")
            if "indices" in prim:
                ref(prim["indices"], "accessors", f"{where}.indices")
            if "material" in prim:
                ref(prim["material"], "materials", f"{where}.material")
    for i, m in enumerate(_items(doc.get("materials"))):
        if not isinstance(m, dict):
            continue
        pbr = found if isinstance(found := m.get("pbrMetallicRoughness"), dict) else {}
        for where, info in ((f"materials[{i}].pbrMetallicRoughness.baseColorTexture", pbr.get("baseColorTexture")),
                            (f"materials[{i}].pbrMetallicRoughness.metallicRoughnessTexture", pbr.get("metallicRoughnessTexture")),
                            (f"materials[{i}].normalTexture", m.get("normalTexture")),
                            (f"materials[{i}].occlusionTexture", m.get("occlusionTexture")),
                            (f"materials[{i}].emissiveTexture", m.get("emissiveTexture"))):
            if info is not None:
                ref(info.get("index") if isinstance(info, dict) else None, "textures", f"{where}.index")
    for i, anim in enumerate(_items(doc.get("animations"))):
        if not isinstance(anim, dict):
            continue
        samplers = _items(anim.get("samplers"))
        for k, sampler in enumerate(samplers):
            for field in ("input", "output"):
                ref(sampler.get(field) if isinstance(sampler, dict) else None, "accessors",
                    f"animations[{i}].samplers[{k}].{field}")
        for k, channel in enumerate(_items(anim.get("channels"))):
            where = f"animations[{i}].channels[{k}]"
            s = channel.get("sampler") if isinstance(channel, dict) else None
            if type(s) is not int or not 0 <= s < len(samplers):
                problems.append(f"{where}.sampler is {s!r}: it does not name one of the animation's {len(samplers)} samplers")
            aimed = channel.get("target") if isinstance(channel, dict) else None
            if isinstance(aimed, dict) and "node" in aimed:
                ref(aimed["node"], "nodes", f"{where}.target.node")
    if "scene" in doc:
        ref(doc["scene"], "scenes", "scene")


def _check_hierarchy(problems: list[str], doc: dict) -> None:
    """glTF 2.0 (3.5.1): "the node hierarchy MUST be a set of disjoint strict trees": no node its own child,
    none with two parents, no cycle; and a scene lists root nodes only (3.5.2)."""
    nodes = _items(doc.get("nodes"))
    parent: dict[int, int] = {}
    for i, node in enumerate(nodes):
        children = node.get("children", []) if isinstance(node, dict) else []
        if not isinstance(children, list):
            problems.append(f"nodes[{i}].children is not an array")
            continue
        for c in children:
            if type(c) is not int or not 0 <= c < len(nodes):
                problems.append(f"nodes[{i}].children holds {c!r}: it does not name one of the {len(nodes)} nodes")
            elif c == i:
                problems.append(f"nodes[{i}].children holds {i}: a node may not be its own child (glTF 2.0: the node "
                                "hierarchy is a set of disjoint strict trees)")
            elif c in parent:
                problems.append(f"nodes[{c}] is a child of both nodes[{parent[c]}] and nodes[{i}]: a node has at most one "
                                "parent (glTF 2.0: the node hierarchy is a set of disjoint strict trees)")
            else:
                parent[c] = i
    # With one parent each, a node is in a cycle when following its parents never reaches a root.
    cycles = []
    state = [0] * len(nodes)   # 0 not seen, 1 on the walk being followed, 2 done
    for start in range(len(nodes)):
        walk: list[int] = []
        at: int | None = start
        while at is not None and state[at] == 0:
            state[at] = 1
            walk.append(at)
            at = parent.get(at)
        if at is not None and state[at] == 1:   # the walk met itself
            cycles.append(sorted(walk[walk.index(at):]))
        for k in walk:
            state[k] = 2
    for ring in cycles[:3]:
        names = ", ".join(f"nodes[{k}]" for k in ring[:6]) + (", ..." if len(ring) > 6 else "")
        problems.append(f"{names} are each other's descendants (a cycle of children): glTF 2.0 forbids cycles in "
                        "the node hierarchy")
    for k, scene in enumerate(_items(doc.get("scenes"))):
        for r in _items(scene.get("nodes") if isinstance(scene, dict) else None):
            if type(r) is not int or not 0 <= r < len(nodes):
                problems.append(f"scenes[{k}].nodes holds {r!r}: it does not name one of the {len(nodes)} nodes")
            elif r in parent:
                problems.append(f"scenes[{k}].nodes holds {r}, a child of nodes[{parent[r]}]: a scene lists root nodes only")


def _items(value) -> list:
    """``value`` when it is a list, else an empty one (a wrong type is reported where the array is read)."""
    return value if isinstance(value, list) else []


def _not_finite(doc) -> bool:
    """Whether some number of the decoded JSON ``doc`` is NaN or infinite."""
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _objects(problems: list[str], doc: dict, name: str) -> list[dict | None]:
    """``doc[name]`` as a list whose entries are objects (None where an entry is not one, reported)."""
    value = doc.get(name, [])
    if not isinstance(value, list):
        problems.append(f"{name} is not an array")
        return []
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.append(f"{name}[{i}] is not an object")
        out.append(item if isinstance(item, dict) else None)
    return out


def _count(problems: list[str], obj: dict | None, key: str, where: str, default: int = 0) -> int:
    """``obj[key]`` as a non-negative integer, or ``default`` (a wrong type or sign is reported)."""
    value = (obj or {}).get(key, default)
    if type(value) is not int or (value < 0 and value != default):
        problems.append(f"{where}.{key} is not a non-negative integer")
        return default
    return value
