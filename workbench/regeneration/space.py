"""The generated space a space viewer shows: a small gallery room with plinths and objects, from a seed.

The room is open towards +Z (where a preview camera stands): a floor, a
back wall and two side walls, three to five plinths in a row, each carrying a
lathe-turned object or a ball. A SHA-256 of the seed picks sizes, colours,
floor pattern and objects; the same seed gives the same bytes.

>>> glb = build_space_scene("gallery")
>>> glb[:4], glb == build_space_scene("gallery")
(b'glTF', True)
"""

from __future__ import annotations

import numpy as np

from workbench.gltf.glb import GlbWriter

from .product import _rng, _smooth, lathe, png_bytes

__all__ = ["build_space_scene"]


def box(size, center=(0.0, 0.0, 0.0), uv_scale: float = 1.0):
    """A box's positions, normals, UVs (``uv_scale`` repeats per metre) and outward CCW triangles.

    >>> p, n, uv, t = box((1, 2, 3))
    >>> p.shape, t.shape
    ((24, 3), (12, 3))
    """
    sx, sy, sz = (np.asarray(size, np.float64) / 2)
    c = np.asarray(center, np.float64)
    pos: list[np.ndarray] = []
    nrm: list[np.ndarray] = []
    uv: list[tuple[float, float]] = []
    tris: list[tuple[int, int, int]] = []
    # (normal, u axis, v axis) for each face; u x v = normal keeps triangles counter-clockwise outside.
    faces = [((1, 0, 0), (0, 0, -1), (0, 1, 0)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
             ((0, 1, 0), (1, 0, 0), (0, 0, -1)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]
    half = np.array([sx, sy, sz])
    for face in faces:
        n, u, v = (np.array(a, np.float64) for a in face)
        base = len(pos)
        for du, dv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            p = c + half * (n + du * u + dv * v)
            pos.append(p)
            nrm.append(n)
            ext_u = float(np.abs(u) @ half) * 2
            ext_v = float(np.abs(v) @ half) * 2
            uv.append(((du + 1) / 2 * ext_u * uv_scale, (1 - (dv + 1) / 2) * ext_v * uv_scale))
        tris += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    return (np.array(pos, np.float32), np.array(nrm, np.float32), np.array(uv, np.float32),
            np.array(tris, np.int32))


def _floor_texture(rng, size=256) -> np.ndarray:
    """Wood planks or stone tiles, in sRGB 8-bit."""
    yy, xx = np.mgrid[0:size, 0:size] / size
    if rng.random() < 0.5:
        tone = np.array([0.55, 0.38, 0.22]) * rng.uniform(0.8, 1.2)
        plank = np.floor(yy * 4)
        grain = 0.08 * np.sin(xx * 40 + plank * 7 + 5 * np.sin(yy * 30)) + 0.06 * np.sin(plank * 12.9898) ** 2
        gap = (np.abs(yy * 4 - np.round(yy * 4)) < 0.02)
        col = tone[None, None] * (0.9 + grain)[..., None] * np.where(gap, 0.5, 1.0)[..., None]
    else:
        tone = np.array([0.72, 0.7, 0.66]) * rng.uniform(0.85, 1.1)
        tile = (np.floor(xx * 4) + np.floor(yy * 4)) % 2
        grout = (np.abs(xx * 4 - np.round(xx * 4)) < 0.02) | (np.abs(yy * 4 - np.round(yy * 4)) < 0.02)
        col = tone[None, None] * (0.92 + 0.08 * tile)[..., None] * np.where(grout, 0.6, 1.0)[..., None]
    return np.clip(col * 255, 0, 255).astype(np.uint8)


def _wall_texture(rng, size=128) -> np.ndarray:
    """Plaster: a pale colour with low-frequency mottling."""
    base = 0.78 + 0.18 * rng.random(3)
    noise = rng.random((size // 16, size // 16))
    noise = np.kron(noise, np.ones((16, 16)))
    yy, xx = np.mgrid[0:size, 0:size] / size
    mott = 0.96 + 0.04 * noise + 0.02 * np.sin(xx * 6.28 * 3) * np.sin(yy * 6.28 * 2)
    return np.clip(base[None, None] * mott[..., None] * 255, 0, 255).astype(np.uint8)


def build_space_scene(seed: str) -> bytes:
    """A gallery room GLB for ``seed`` (metres, Y up, open towards +Z).

    >>> len(build_space_scene("a")) > 10000
    True
    """
    rng = _rng(seed, "space")
    b = GlbWriter("workbench.viewers", sort_keys=True)
    width = float(rng.uniform(5.0, 8.0))
    depth = float(rng.uniform(4.0, 6.0))
    height = float(rng.uniform(2.8, 3.6))
    floor_mat = b.material("floor", texture=b.texture(png_bytes(_floor_texture(rng))), roughness=0.6)
    wall_mat = b.material("wall", texture=b.texture(png_bytes(_wall_texture(rng))), roughness=0.95)
    plinth_col = 0.85 + 0.1 * rng.random(3)
    plinth_mat = b.material("plinth", (*plinth_col, 1.0), roughness=0.8)
    nodes = []

    def add(name, geom, mat):
        p, n, uv, t = geom
        mesh = b.mesh(name, [b.primitive(positions=p, normals=n, uv=uv, indices=t, material=mat)])
        nodes.append(b.node(name, mesh=mesh))

    add("Floor", box((width, 0.1, depth), (0, -0.05, 0), uv_scale=0.5), floor_mat)
    add("BackWall", box((width, height, 0.15), (0, height / 2, -depth / 2 - 0.075), uv_scale=0.5), wall_mat)
    add("LeftWall", box((0.15, height, depth), (-width / 2 - 0.075, height / 2, 0), uv_scale=0.5), wall_mat)
    add("RightWall", box((0.15, height, depth), (width / 2 + 0.075, height / 2, 0), uv_scale=0.5), wall_mat)

    count = int(rng.integers(3, 6))
    xs = np.linspace(-width / 2 + width / (2 * count), width / 2 - width / (2 * count), count)
    for k, x in enumerate(xs):
        ph = float(rng.uniform(0.7, 1.1))
        pw = float(rng.uniform(0.35, 0.55))
        z = float(rng.uniform(-depth * 0.25, depth * 0.05))
        add(f"Plinth{k}", box((pw, ph, pw), (x, ph / 2, z)), plinth_mat)
        col = 0.15 + 0.8 * rng.random(3)
        mat = b.material(f"object{k}", (*col, 1.0), metallic=float(rng.random() < 0.3), roughness=0.4)
        if rng.random() < 0.35:
            # A ball: a half-circle profile turned about Y.
            r = pw * 0.35
            a = np.linspace(-np.pi / 2, np.pi / 2, 16)
            prof = np.stack([r * np.cos(a), r + r * np.sin(a)], 1)
        else:
            h = float(rng.uniform(0.3, 0.6))
            w = pw * float(rng.uniform(0.2, 0.4))
            prof = _smooth([(0.0, 0.0), (w * 0.6, 0.0), (w, h * 0.35), (w * 0.5, h * 0.8), (w * 0.7, h), (0.0, h)])
        p, n, uv, t = lathe(prof, 32)
        p = p + np.array([x, ph, z], np.float32)
        add(f"Object{k}", (p, n, uv, t), mat)
    root = b.node("Gallery", children=nodes)
    b.scene([root])
    b.doc["asset"]["extras"] = {"seed": seed}
    return b.to_bytes()
