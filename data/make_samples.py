"""Write the small sample space files in data/ (deterministic; run: python data/make_samples.py).

sample_space.glb: a glTF 2.0 binary of a small stepped plinth with vertex colours.
sample_splat.ply: 256 Gaussian splats on a sphere, binary little-endian, with the
properties a splat viewer reads (x, y, z, f_dc_0..2, opacity, scale_0..2, rot_0..3).
"""

from pathlib import Path

import numpy as np
import pygltflib

HERE = Path(__file__).resolve().parent


def plinth_glb() -> bytes:
    boxes = [((-1.0, 0.0, -1.0), (1.0, 0.2, 1.0)), ((-0.7, 0.2, -0.7), (0.7, 1.0, 0.7)), ((-0.8, 1.0, -0.8), (0.8, 1.1, 0.8))]
    pos, nrm, col, idx = [], [], [], []
    faces = [((0, 1, 0), [(0, 1, 0), (1, 1, 0), (1, 1, 1), (0, 1, 1)]), ((0, -1, 0), [(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 0)]),
             ((1, 0, 0), [(1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0)]), ((-1, 0, 0), [(0, 0, 0), (0, 1, 0), (0, 1, 1), (0, 0, 1)]),
             ((0, 0, 1), [(0, 0, 1), (0, 1, 1), (1, 1, 1), (1, 0, 1)]), ((0, 0, -1), [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)])]
    shades = [(0.82, 0.80, 0.76), (0.35, 0.45, 0.62), (0.90, 0.72, 0.30)]
    for (lo, hi), shade in zip(boxes, shades, strict=True):
        lo, hi = np.array(lo), np.array(hi)
        for n, corners in faces:
            base = len(pos)
            for c in corners:
                pos.append(lo + (hi - lo) * np.array(c))
                nrm.append(n)
                col.append(shade + (1.0,))
            idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    P = np.array(pos, np.float32); N = np.array(nrm, np.float32); C = np.array(col, np.float32); I = np.array(idx, np.uint16)
    blob = b"".join(a.tobytes() for a in (P, N, C, I))
    off = np.cumsum([0, P.nbytes, N.nbytes, C.nbytes])
    g = pygltflib.GLTF2(
        asset=pygltflib.Asset(version="2.0", generator="workbench data/make_samples.py"),
        scene=0, scenes=[pygltflib.Scene(nodes=[0])], nodes=[pygltflib.Node(name="Plinth", mesh=0)],
        meshes=[pygltflib.Mesh(name="Plinth", primitives=[pygltflib.Primitive(
            attributes=pygltflib.Attributes(POSITION=0, NORMAL=1, COLOR_0=2), indices=3, material=0)])],
        materials=[pygltflib.Material(name="Stone", pbrMetallicRoughness=pygltflib.PbrMetallicRoughness(
            baseColorFactor=[1, 1, 1, 1], metallicFactor=0.0, roughnessFactor=0.8))],
        buffers=[pygltflib.Buffer(byteLength=len(blob))],
        bufferViews=[pygltflib.BufferView(buffer=0, byteOffset=int(off[0]), byteLength=P.nbytes, target=34962),
                     pygltflib.BufferView(buffer=0, byteOffset=int(off[1]), byteLength=N.nbytes, target=34962),
                     pygltflib.BufferView(buffer=0, byteOffset=int(off[2]), byteLength=C.nbytes, target=34962),
                     pygltflib.BufferView(buffer=0, byteOffset=int(off[3]), byteLength=I.nbytes, target=34963)],
        accessors=[pygltflib.Accessor(bufferView=0, componentType=5126, count=len(P), type="VEC3",
                                      min=P.min(0).tolist(), max=P.max(0).tolist()),
                   pygltflib.Accessor(bufferView=1, componentType=5126, count=len(N), type="VEC3"),
                   pygltflib.Accessor(bufferView=2, componentType=5126, count=len(C), type="VEC4"),
                   pygltflib.Accessor(bufferView=3, componentType=5123, count=len(I), type="SCALAR")])
    g.set_binary_blob(blob)
    return b"".join(g.save_to_bytes())


def splat_ply(n: int = 256) -> bytes:
    rng = np.random.default_rng(7)
    v = rng.normal(size=(n, 3)); v /= np.linalg.norm(v, axis=1, keepdims=True)
    props = ["x", "y", "z", "f_dc_0", "f_dc_1", "f_dc_2", "opacity", "scale_0", "scale_1", "scale_2",
             "rot_0", "rot_1", "rot_2", "rot_3"]
    data = np.zeros((n, len(props)), np.float32)
    data[:, 0:3] = v
    data[:, 3:6] = (v * 0.5 + 0.5 - 0.5) / 0.28209479  # SH DC term of a colour that follows the normal
    data[:, 6] = 2.0
    data[:, 7:10] = np.log(0.05)
    data[:, 10] = 1.0
    header = "ply\nformat binary_little_endian 1.0\nelement vertex %d\n" % n + "".join(
        f"property float {p}\n" for p in props) + "end_header\n"
    return header.encode("ascii") + data.astype("<f4").tobytes()


if __name__ == "__main__":
    (HERE / "sample_space.glb").write_bytes(plinth_glb())
    (HERE / "sample_splat.ply").write_bytes(splat_ply())
    print("wrote", HERE / "sample_space.glb", "and", HERE / "sample_splat.ply")
