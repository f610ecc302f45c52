"""The hair's texture: one RGBA atlas per style and colour, drawn from patterns made once per machine.

Layout (glTF UVs, v down), :data:`HEIGHT` texels tall and :data:`WIDTH` wide (drawn twice as wide and
averaged in pairs of columns, so strands a texel or two wide keep their edges smooth):

- ``u`` 0 to 0.5: :data:`COLUMNS` card columns, one card's texture each, ``v`` from the root (0) to
  the tip (1). The first :data:`CLUMPS` are clumps of strands for the alpha-tested cards: dense in
  the middle (so a mipmapped alpha stays over the cut there), thinning to single strands at the
  sides, each strand its own shade, width and length, tapering to a point; darker at the root. The
  last ones are wisps for the blended fringe: a few fine strands, half transparent. ``curly``
  draws frizzy strands with more tips along the card.
- ``u`` 0.5 to 1: the scalp shell (:mod:`.scalp`): ``u`` round the head, ``v`` from the crown to
  past the hairline, strands along ``v`` in the hair's colour, darker than the cards (the roots'
  shade under the hair), ending one by one between the ``TIP_FROM`` and ``TIP_TO`` rows (over
  ``V_END``): the hairline is their tips, faded by alpha, not a cut along triangles.

Each pattern stores per texel a light level (0..255 for 0..2 times the colour) and an alpha (as
the top byte of an RGBA word); a colour
is a 256-entry table looked up per texel, so a new colour costs a few milliseconds.

>>> t = hair_texture("#2B1B10", "short")
>>> t.shape, t.dtype.name, int(t[..., 3].max()), int(t[-1, -1, 3])
((1024, 512, 4), 'uint8', 255, 0)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import keep

HEIGHT = 1024
WIDTH = 512
SIZE = HEIGHT           # the drawing's side, before its columns are averaged in pairs
COLUMNS = 8
CLUMPS = 6
# The scalp shell's rows, in units of the style's hairline (0 the crown, 1 the hairline): strands end
# one by one between TIP_FROM and TIP_TO, and the shell runs on, transparent, to V_END (v = 1).
TIP_FROM, TIP_TO, V_END = 0.95, 1.10, 1.40
# The light levels' range: a texel's level L stands for L / 255 * LIGHT_MAX times the colour.
LIGHT_MAX = 2.0


def column_u(column: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``u`` range (left, right) of card columns, a texel in from each side.

    >>> [round(float(x), 4) for x in np.concatenate(column_u(np.array([0])))]
    [0.002, 0.0605]
    """
    w = 0.5 / COLUMNS
    return column * w + 1.0 / WIDTH, (column + 1) * w - 1.0 / WIDTH


def shell_u(u: np.ndarray) -> np.ndarray:
    """The shell's ``u`` (0..1 round the head) in the atlas (its right half, a texel in from each side)."""
    return 0.5 + 1.0 / WIDTH + u * (0.5 - 2.0 / WIDTH)


def _strokes(rng, width: int, rows: int, count: int, span: float, thick: tuple[float, float],
             ends: tuple[float, float], frizz: float, alpha: float, out_a, out_l, shades: tuple[float, float]):
    """Draw ``count`` strands into a column (``out_a`` alpha, ``out_l`` light, both (rows, width)).

    Each strand: a centre across the column (within ``span`` of its half-width), a width in
    texels, a length (the row its tip reaches, as a fraction), a shade in ``shades``, and a slow
    wave; it is lit across as a round fibre and tapers over its last tenth. Later strands lie over
    earlier ones."""
    v = (np.arange(rows) + 0.5) / rows
    rows_i = np.arange(rows)
    for _ in range(count):
        side = rng.random() * 2 - 1
        x0 = width / 2 + side * span * (width / 2 - 2)
        w = rng.uniform(*thick)
        end = rng.uniform(*ends)
        shade = rng.uniform(*shades)
        phase, period, amp = rng.random() * 6.3, rng.uniform(60, 200), rng.uniform(0.3, 1.4)
        x = x0 + amp * np.sin(v * rows / period + phase) + frizz * np.sin(v * rows / rng.uniform(5, 11) + phase)
        start = rng.uniform(0.0, 0.1) ** 1.5 * 3            # roots staggered: no straight edge at v = 0
        taper = np.clip((end - v) / 0.10, 0, 1) ** 0.7 * np.clip((v - start) / 0.04, 0, 1)
        half = w / 2 * np.maximum(taper, 0.0)
        lo = np.clip(np.floor(x - half - 1).astype(int), 0, width - 1)
        for k in range(int(np.ceil(w)) + 3):
            col = np.clip(lo + k, 0, width - 1)
            dx = (col + 0.5 - x) / np.maximum(half, 1e-3)
            a = np.clip(1.3 - 1.3 * np.abs(dx) ** 2, 0, 1) * (v < end) * alpha
            lit = shade * (0.9 + 0.16 * np.sqrt(np.clip(1 - dx * dx, 0, 1)))
            over = a > 0.02
            r, c_ = rows_i[over], col[over]
            out_l[r, c_] = lit[over] * a[over] + out_l[r, c_] * (1 - a[over])
            out_a[r, c_] = a[over] + out_a[r, c_] * (1 - a[over])


def _draw(style: str) -> dict[str, np.ndarray]:
    """The atlas's light levels and alpha for ``style`` (see the module's layout)."""
    n = SIZE
    light = np.zeros((n, n), np.float32)
    alpha = np.zeros((n, n), np.float32)
    curly = style == "curly"
    rng = np.random.default_rng({"short": 51, "long": 52, "bun": 53, "curly": 54}[style])
    cw = n // 2 // COLUMNS
    v = ((np.arange(n) + 0.5) / n)[:, None]
    for c in range(COLUMNS):
        a = np.zeros((n, cw), np.float32)
        lit = np.full((n, cw), 0.8, np.float32)
        tone = rng.uniform(0.86, 1.08)                      # each clump its own shade
        if c < CLUMPS:
            # A dense core of wide strands, finer ones over it, a few strays at the sides.
            _strokes(rng, cw, n, 30, 0.55, (4.0, 7.0), (0.82, 1.0), 0.8 if curly else 0.0, 1.0, a, lit,
                     (0.84 * tone, 1.0 * tone))
            _strokes(rng, cw, n, 30, 0.8, (1.6, 3.0), (0.66, 0.99), 1.0 if curly else 0.2, 1.0, a, lit,
                     (0.8 * tone, 1.12 * tone))
            _strokes(rng, cw, n, 8, 1.0, (1.0, 1.8), (0.55, 0.95), 1.6 if curly else 0.4, 0.9, a, lit,
                     (0.8 * tone, 1.1 * tone))
        else:
            _strokes(rng, cw, n, 7, 0.8, (1.0, 1.6), (0.55, 0.98), 1.4 if curly else 0.3, 0.8, a, lit, (0.85, 1.1))
        # Darker at the roots, a little lighter towards the tips.
        lit *= (1 - 0.15 * np.clip(1 - v / 0.1, 0, 1)) * (0.95 + 0.1 * v)
        alpha[:, c * cw:(c + 1) * cw] = a
        light[:, c * cw:(c + 1) * cw] = lit
    shade, cut = _shell(rng, curly)
    light[:, n // 2:] = shade
    alpha[:, n // 2:] = cut
    # Pairs of columns averaged (the light weighted by alpha, so clear texels do not darken an edge).
    pair = alpha[:, 0::2] + alpha[:, 1::2]
    lit = light[:, 0::2] * alpha[:, 0::2] + light[:, 1::2] * alpha[:, 1::2]
    light = np.where(pair > 1e-3, lit / np.maximum(pair, 1e-3), (light[:, 0::2] + light[:, 1::2]) / 2)
    alpha = pair / 2
    # Alpha kept as the top byte of a little-endian RGBA word (hair_texture ors the colour in).
    return {"light": np.clip(light / LIGHT_MAX * 255 + 0.5, 0, 255).astype(np.uint8),
            "alpha": np.clip(alpha * 255 + 0.5, 0, 255).astype("<u4") << 24}


def _shell(rng, curly: bool) -> tuple[np.ndarray, np.ndarray]:
    """The shell's half: fine strands along ``v``, a texel wide and darker than the cards' (the roots
    under the hair), each ending at its own row between TIP_FROM and TIP_TO (in pairs, a little
    clumped), its alpha fading out over the last twentieth (the shell is blended); curly hair's kinked."""
    n = SIZE
    w = n // 2
    y, x = np.mgrid[0:n, 0:w].astype(np.float32)
    v = (y + 0.5) / n
    wave = (1.5 if curly else 0.7) * np.sin(y / (6.0 if curly else 37.0) + x * 0.7)
    strand = np.floor(x + wave).astype(np.int64) % w
    tone = rng.random(w).astype(np.float32)
    pair = np.repeat(rng.random(w // 2), 2)[:w]
    tip = (0.5 * pair + 0.5 * rng.random(w)).astype(np.float32)
    ends = (TIP_FROM + (TIP_TO - TIP_FROM) * tip[strand]) / V_END
    # Blended: each strand fades over its last 5 % of the rows, so the hairline is a soft edge.
    alpha = np.clip((ends - v) * n / (0.05 * n), 0, 1) ** 1.5
    shade = (0.66 + 0.24 * tone[strand]) * (0.92 + 0.08 * np.sin(x * 0.9 + y / 53.0))
    return shade.astype(np.float32), alpha.astype(np.float32)


@lru_cache(maxsize=4)
def pattern(style: str) -> dict[str, np.ndarray]:
    """The atlas's patterns for ``style``, made once per machine (``keep.kept``)."""
    return keep.kept(f"hair-atlas-{style}", lambda: _draw(style))


def rgb(color: str) -> np.ndarray:
    """'#RRGGBB' as floats 0..1."""
    c = color.lstrip("#")
    return np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], float) / 255


@lru_cache(maxsize=32)
def hair_texture(color: str, style: str) -> np.ndarray:
    """RGBA (HEIGHT, WIDTH, 4) uint8: the atlas for ``style`` in ``color`` (read-only)."""
    return tint(pattern(style), color)


def tint(p: dict[str, np.ndarray], color: str) -> np.ndarray:
    """RGBA uint8 of a pattern (``light`` levels and ``alpha`` words, as :func:`pattern`) in ``color``."""
    base = rgb(color)
    # Very dark hair keeps a little colour in its lit strands, so it still reads as strands.
    lift = 0.06 * (1 - min(1.0, float(base.max()) * 4))
    levels = np.arange(256) / 255 * LIGHT_MAX
    table = np.zeros((256, 4), np.uint8)
    table[:, :3] = np.clip((base[None, :] + lift) * levels[:, None] * 255 + 0.5, 0, 255)
    # One 4-byte word per texel: the colour's table looked up, the alpha (kept in the top byte) or'ed in.
    words = table.view("<u4").reshape(256)[p["light"]] | p["alpha"]
    out = words.view(np.uint8).reshape(p["light"].shape + (4,))
    out.setflags(write=False)
    return out
