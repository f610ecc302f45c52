"""Where a garment's panels are sewn together, and its pockets: lines on the cloth that no body changes.

A garment is cut from a few flat panels and sewn (a tee's front and back at its sides and shoulders, its
sleeves into their armholes; a pair of trousers' legs at their out- and inseams and down the middle, front
and back; a hood's two halves down its back), with pockets stitched on or set in. Without those lines a
saturated cloth reads as a dipped plastic shell (review F: "no seams, prints, trims or layers").

:func:`seams` gives, per point of the reference drape, a signed distance (metres along the cloth, near
enough) to each of the style's lines (:data:`LINES`): the line is its zero where the line runs (a mask). :func:`workbench.body.outfit.cloth.shading` paints them on the garment's UVs and draws each as a
sewn seam (a groove, its allowance's ridge beside it and a line of topstitching) and
:func:`~workbench.body.outfit.cloth.normal_map` sinks the groove where the cloth has a relief.

- ``side``: the front panel meets the back where the torso (each leg) is widest front to back's middle:
  down the sides, over the tops of the shoulders to the neckline, along each sleeve's underside (and its
  top, a drop shoulder's seam), down each trouser leg outside and in;
- ``armhole``: round each shoulder, where the sleeve is set in (a little down the arm on a hoodie: a
  dropped shoulder);
- ``centre``: down the middle of the front and back (the trousers' fly and seat, the skirt's back) and of
  the hood;
- ``pocket``: a hoodie's kangaroo pocket (a trapezium on the front above the hem's band), a pair of
  trousers' or shorts' slanted front pockets and patch pockets on the seat;
- ``cord``, ``aglet``: a hoodie's drawstrings hanging down the chest from the neckline's V, and their tips
  (:data:`TRIMS`: drawn as cords in a trim's colour, not sewn).

>>> sorted(LINES["hoodie"]), LINES["skirt"]
(['aglet', 'armhole', 'centre', 'cord', 'pocket', 'side'], ('side', 'centre'))
"""

from __future__ import annotations

import numpy as np

__all__ = ["LINES", "TRIMS", "FAR", "seams"]

# The lines each style has, in the order :func:`seams` gives their columns.
LINES = {"tee": ("side", "armhole"), "longsleeve": ("side", "armhole"),
         "hoodie": ("side", "armhole", "centre", "pocket", "cord", "aglet"),
         "trousers": ("side", "centre", "pocket"), "shorts": ("side", "centre", "pocket"), "skirt": ("side", "centre")}
FAR = 1.0
# How far down the arm past the shoulder joint each top's sleeve is set in (metres): a hoodie's shoulder drops.
DROP = {"tee": 0.0, "longsleeve": 0.0, "hoodie": 0.035}
# A kangaroo pocket: its height above the hem's band, its half-width at the bottom and the top (metres).
KANGAROO = (0.17, 0.16, 0.115)
# A hoodie's drawstrings: how far either side of the middle they hang, from how far under the neck's base
# (where they leave the hood's channel at the neckline's V), how long, and their aglets' length (metres).
CORD = (0.032, 0.05, 0.2, 0.025)
# Lines that are not seams: trims drawn in their own colour (workbench.body.outfit.cloth.trim).
TRIMS = ("cord", "aglet")


def _middle(y: np.ndarray, z: np.ndarray, step: float = 0.02) -> np.ndarray:
    """Per point, the middle of the depth (z) of the points at its height (bins of ``step``): where the
    front panel meets the back."""
    k = np.round(y / step).astype(np.int64)
    k -= k.min()
    lo = np.full(k.max() + 1, np.inf)
    hi = np.full(k.max() + 1, -np.inf)
    np.minimum.at(lo, k, z)
    np.maximum.at(hi, k, z)
    return (lo[k] + hi[k]) / 2


def _box(x: np.ndarray, y: np.ndarray, bottom: float, top: float, half: tuple[float, float]) -> np.ndarray:
    """A signed distance (near enough) to a trapezium's outline standing on ``bottom``, ``half`` its
    half-widths at the bottom and the top, centred on x = 0."""
    t = np.clip((y - bottom) / (top - bottom), 0, 1)
    return np.maximum.reduce([np.abs(x) - (half[0] + (half[1] - half[0]) * t), y - top, bottom - y])


def seams(name: str, e: dict, q: np.ndarray, part: np.ndarray, hood: int = 0) -> np.ndarray:
    """(len(q), 2 * len(LINES[name])) float32: each point's signed distance to each line of style ``name`` on the
    reference drape ``q`` (its landmarks ``e``, :func:`~workbench.body.outfit.styles.landmarks`, with ``hem``,
    ``hem_band``, ``waist``: the first cut's height and band, ``arm_z``: the shoulder joint's depth); ``part``: each
    point's panel (0 the torso; a top's 1 and 2 its sleeves, a bottom's its legs), the last ``hood`` points the
    hood's; then per line 1 where it runs, 0 elsewhere. (The distances are not cut off where a line ends: painted
    across a triangle from a point on the line's side to one past its end, a jump to a far value crossed zero
    there and drew a line where none runs, a stray seam across the back where the armholes' field ended.)"""
    n = len(q)
    if name not in LINES:                    # (shoes: their stitching is drawn with their leather)
        return np.zeros((n, 0), np.float32)
    x, y, z = q[:, 0] - e["neck_x"], q[:, 1], q[:, 2]
    body = np.arange(n) < n - hood
    lines = LINES[name]
    out = np.zeros((n, 2 * len(lines)))
    top = name in DROP
    for k, line in enumerate(lines):
        f, m = np.zeros(n), body.copy()
        if line == "side":
            for p in np.unique(part[body]):
                mine = body & (part == p)
                # (A sleeve: along its underside, and its top, at the arm's own depth.)
                f[mine] = z[mine] - (e["arm_z"] if top and p > 0 else _middle(y[mine], z[mine]))
        elif line == "armhole":
            f, m = np.abs(x) - (abs(e["arm"] - e["neck_x"]) + DROP[name]), body & (y > e["shoulder_y"] - 0.3)
        elif line == "centre":
            f = x
            m = ~body if hood else (body if name == "skirt" else body & (y > e["crotch"] - 0.03))
        elif line == "pocket" and top:
            # The kangaroo pocket's outline on the front, standing on the hem's band.
            bottom = e["hem"] + e["hem_band"]
            f = _box(x, y, bottom, bottom + KANGAROO[0], KANGAROO[1:])
            m = body & (part == 0) & (z > _middle(y, z) + 0.03)
        elif line in TRIMS:
            # Each drawstring's middle line down the chest, the aglet its last few centimetres.
            top_y = e["neck_base"] - CORD[1]
            end = top_y - CORD[2]
            f = np.abs(x) - CORD[0]
            along = (y < top_y) & (y > end) & ((y < end + CORD[3]) == (line == "aglet"))
            m = body & (part == 0) & (z > _middle(y, z) + 0.03) & along
        elif line == "pocket":
            waist = e["waist"]          # (a bottom's first cut is its waist)
            front = body & (z > _middle(y, z) + 0.03)
            # The front pockets' slanted openings: from the waistband 9 cm either side of the middle down to
            # the side 13 cm below it (a distance to that line, along that stretch of it).
            a, b = np.array([0.09, waist]), np.array([0.16, waist - 0.13])
            ab = (b - a) / np.linalg.norm(b - a)
            rel = np.column_stack([np.abs(x), y]) - a
            along = rel @ ab
            slant = rel[:, 0] * ab[1] - rel[:, 1] * ab[0]
            # The patch pockets on the seat: 13 cm wide, 14 tall, their tops 7 cm under the waistband.
            patch = _box(np.abs(x) - 0.085, y, waist - 0.21, waist - 0.07, (0.065, 0.07))
            f = np.where(front, slant, patch)
            m = body & np.where(front, (along > 0) & (along < np.linalg.norm(b - a) + 0.02),
                                z < _middle(y, z) - 0.03)
        out[:, k], out[:, len(lines) + k] = np.clip(f, -FAR, FAR), m
    return out.astype(np.float32)
