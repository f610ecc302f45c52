"""The skeleton (:mod:`workbench.skeleton`) written as glTF nodes: an ``Armature`` root and one node per joint.

>>> from workbench.gltf.glb import GlbWriter
>>> from workbench.skeleton import skeleton
>>> w = GlbWriter("doctest")
>>> nodes = write_armature(w, skeleton("masculine", 178.0))
>>> len(nodes), nodes[0]
(65, 1)
"""

from __future__ import annotations

import numpy as np

from ..skeleton import Skeleton


def write_armature(w, rig: Skeleton) -> list[int]:
    """Armature (node 0) and the 65 joints (nodes 1..65); returns the joint node indices."""
    w.add("nodes", {"name": "Armature", "children": [1]})
    nodes = []
    for i, name in enumerate(rig.names):
        node: dict = {"name": name}
        t = rig.local[i]
        if np.any(t):
            node["translation"] = [float(v) for v in t]
        children = [j + 1 for j, p in enumerate(rig.parents) if p == i]
        if children:
            node["children"] = children
        nodes.append(w.add("nodes", node))
    return nodes
