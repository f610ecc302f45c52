"""The hair atlas's card columns (:mod:`.texture` lays them side by side): one clump's or one wisp's strands, as
(alpha, light) arrays of (rows, width), each style's strands drawn from the tables here.

A clump, for the alpha-tested cards: a darker core (the hair inside the clump, which keeps a mipmapped alpha over the
cut) under about eighty strands, each its own width and length, straight ones gathered in :data:`LOCKS` locks of a
shade each (which a browser's mipmaps keep); the strands gather towards the clump's middle as they go and the middle
ones reach farthest, so a clump ends in a point of single strands (no blunt cut-out end). A wisp, for the blended
fringe: a few fine strands, half transparent. ``curly`` draws frizzy strands. Straight hair's light is then softened
across (:func:`soften`), but for the sleek caps' fine strands (:data:`STRANDS`).

>>> a, lit = column(np.random.default_rng(0), "bun", 256, 64, False, 2.0)
>>> a.shape, lit.dtype.name, float(a[128, 24:40].min()) > 0.9, float(a[-1].max()) < 0.1
((256, 64), 'float32', True, True)
"""

from __future__ import annotations

import numpy as np

from .outline import END, FADE, POINT, clump_outline

# The fringe's wisps (the last columns): their strands' opacity times the first figure, fading out from the second
# share of their length to the tip. A wisp card is a few millimetres across and a centimetre or two long, the whole
# column's height: a browser draws it from its mipmaps' smallest levels, where its strands average to one flat
# translucent bar. At full opacity those bars were a hard brown comb on the forehead (review I, defect 5); faint
# and fading, a soft shadow of the hairline.
WISP_FADE = (0.55, 0.15)
# Straight hair's strands, in the card columns' light, softened across (a Gaussian of this many atlas texels, sd): its
# finest strands were half a texel to a texel wide, wandering slowly across the texels as they go. A card seen at a
# portrait's size spans two texels a pixel across, and a renderer reading one texel a pixel (ours: bilinear, no
# mipmaps) caught such a strand in some rows and missed it in the next: each strand a dotted line, and the dark gaps
# and dark strands between them short dark dashes a few pixels long (blind review M: long hair's "horizontal blocky
# bands", the bob's "stair-stepped and streaky" texture; tests/render/test_hair_dashes.py). Softened so, a strand
# is continuous at any place across the texels; its locks' shades (LOCKS) keep the card's strands apart.
SOFTEN = 1.0
# How a clump's strands end (:func:`clump`'s ``spread``): a bob is cut nearly blunt, long hair tapers.
SPREAD = {"long": (0.38, 0.45), "bob": (0.14, 0.16), "ponytail": (0.3, 0.35), "short": (0.38, 0.45)}
# Straight hair's locks per clump card and their range of light (:func:`clump`); each card's own light
# (its tone) within TONE: at 0.9 to 1.06 neighbouring cards were patches of two shades.
LOCKS = 3
LOCK_LIGHT = (0.9, 1.08)
TONE = (0.96, 1.03)
# ...and, within a lock, each straight strand's light (a lock's strands near one shade: their spread is at the
# locks' scale, which mipmaps keep, not a texel's) and that of the hair between them (GAP).
STRAND = (0.97, 1.02)
GAP = 0.8
# ...but hair pulled back sleek (bun, ponytail) lies flat and is seen along its strands over the whole cap: its strands
# near one shade and its locks 7 mm wide each a shade (LOCK_LIGHT), its cards drew smooth light and dark slabs, "extruded
# strips with glossy banding ... like clay rather than hair" (blind review M, defect 2). STRANDS[style]: its strands'
# range of light, the share of them darker (0.8 to 0.88), the light between them (GAP's) and its locks' range of light
# (LOCK_LIGHT's): strands and their shadows a millimetre or two apart, fine streaks along the comb, over locks near one
# shade (tests/body/test_sleek_strands_review_m.py). Those locks 0.935 to 1.045 of the light: at 0.95 to 1.03 a card's
# locks averaged to nearly one shade at the mipmap level a browser draws it at, flakes again (test_hair_review_g's
# spread 0.050 and 0.048, bun and ponytail, under its 0.05; now 0.055 and 0.051). Without the cards' dark rims
# (:data:`COVER`) their fine detail was the strands' alone, 0.73 of the slabs' on review M's caps: a third of the strands
# dark, 0.7 to 1.22 of the light, over gaps at 0.5 (0.804 to 0.837; review G's spread 0.061 and 0.058).
STRANDS = {"bun": ((0.7, 1.22), 0.35, 0.5, (0.92, 1.06)), "ponytail": ((0.7, 1.22), 0.35, 0.5, (0.92, 1.06))}
# The bob's cards cross one another all over its crown and sides (its roots spread over the whole scalp, each card falling
# from its own), and at every crossing the card in front takes over from the one behind along a straight line: with each
# card's dark core (0.6), the light between its strands (GAP), its locks (LOCK_LIGHT) and its tone (TONE) its own, the
# two sides of the line differed by up to a third of the light, a block with straight edges: blind review O's "mosaic or
# stair-step texture" (worst in silver). Its cards here are near one light across (the core's light, the gap's, the
# locks' and the tones' ranges), so a crossing changes the fine strands more than the shade (texture.ROOT keeps its root
# to tip change off the cards: tests/render/test_bob_review_o.py). Its locks keep 0.93 to 1.06 of the light: at 0.96 to
# 1.04 the crossings' blocks went further (3.0 and 3.3 against 3.6 and 4.3 of that test's measure), but a card's light
# across at a browser's mipmap levels was 0.023 of its mean, one flat shade (test_hair_review_g: now 0.034, 0.061 before).
EVEN = {"bob": (1.0, 0.92, (0.93, 1.06), (0.99, 1.01))}
# Hair pulled back sleek (:data:`STRANDS`): its strands cover the card to its outline's edge, and do not gather in towards
# its middle (the first figure: texels left clear of strands at either side; the second: how far they gather in at the
# tip, :func:`clump`'s ``cover``), over a core near the strands' own light (the third). Each sleek card comes out from
# under the card combed over it at its root end, where its strands have not begun yet: with the clumps' dark core (0.6)
# there and along its sides (their strands 2.5 texels in, gathering in by 0.3), every card's end and sides had a brown
# rim, blind review W's "carved wood grain (tan stripes outlined in brown)" (tests/render/test_sleek_grain_review_w.py).
COVER = {"bun": (0.5, 0.0, 0.85), "ponytail": (0.5, 0.0, 0.85)}


def smooth(e0, e1, x):
    """0 below ``e0``, 1 above ``e1``, smooth between, in ``x``'s own dtype.

    >>> float(smooth(0.0, 1.0, 0.5))
    0.5
    """
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _strand(out_a, out_l, v, x, half, alpha, lit):
    """Lay one strand over a column (``out_a`` alpha, ``out_l`` light, (rows, width)): centre ``x`` and
    half-width ``half`` per row (0 where it is absent), opacity ``alpha`` (scalar) and light ``lit``
    per row, shaded across as a round fibre."""
    rows, width = out_a.shape
    r = np.arange(rows)
    lo = np.floor(x - half - 1).astype(np.int64)
    for k in range(int(np.ceil(2 * half.max())) + 3):
        col = lo + k
        ok = (col >= 0) & (col < width) & (half > 0.05)
        dx = (col + 0.5 - x) / np.maximum(half, 1e-3)
        # Coverage: full inside, a pixel's soft edge, thin strands thinner (a strand under a pixel wide
        # covers that share of it).
        a = np.clip(half + 0.5 - np.abs(col + 0.5 - x), 0, 1) * np.minimum(half * 2, 1) * alpha
        a = np.where(ok, a, 0.0)
        over = a > 0.01
        rr, cc = r[over], col[over]
        shade = lit[over] * (0.82 + 0.28 * np.sqrt(np.clip(1 - dx[over] ** 2, 0, 1)))
        out_l[rr, cc] = shade * a[over] + out_l[rr, cc] * (1 - a[over])
        out_a[rr, cc] = a[over] + out_a[rr, cc] * (1 - a[over])


def clump(rng, rows: int, cw: int, curly: bool, tone: float, wisp: bool, spread: tuple[float, float] = (0.38, 0.45),
           point: float | None = None, strands: tuple = (STRAND, 0.04, GAP, LOCK_LIGHT), core_light: float = 0.6,
           end_at: tuple[float, float] = (0.93, 1.0), fade: float = 0.0, cover: tuple[float, float] = (2.5, 0.3)):
    """One card column: (alpha, light) of (rows, cw) (see the module's text); ``spread``: how much sooner the
    strands at the clump's sides end than those in its middle, and how much each strand's length varies; ``point``
    ``end_at`` and ``fade``: its outline's (:func:`.outline.clump_outline`);
    ``strands``: straight strands' (range of light, share of dark ones, light between them, their locks' range of
    light), :data:`STRANDS`; ``core_light``: the dark core's light (:data:`EVEN`); ``cover``: the texels clear of strands
    at its sides and how far its strands gather in towards its tip (:data:`COVER`)."""
    a = np.zeros((rows, cw), np.float32)
    v = (np.arange(rows) + 0.5) / rows
    # Between the strands the hair inside the clump, in shade; less so towards the tip, where it thins.
    # (A curl's ribbon shows its face at every turn: dark gaps drew it striped, black clusters in grey hair.)
    # (Straight hair's at 0.68: darker, with the strands' own spread of shades, it drew wood grain.)
    gap = 0.78 if curly else strands[2]
    lit = np.repeat((tone * (gap + (0.8 - gap) * smooth(0.6, 1.0, v)))[:, None], cw, 1).astype(np.float32)
    mid = cw / 2
    if wisp:
        for _ in range(9):
            x0 = mid + rng.uniform(-0.8, 0.8) * (mid - 3)
            end = rng.uniform(0.55, 0.98)
            half = rng.uniform(0.5, 0.9) * np.clip((end - v) / 0.15, 0, 1) ** 0.8 * (v < end)
            x = x0 + rng.uniform(-3, 3) * v + (1.6 if curly else 0.4) * np.sin(v * rows / rng.uniform(5, 11) + rng.random() * 6)
            _strand(a, lit, v, x, half, rng.uniform(0.6, 0.85), np.full(rows, rng.uniform(0.85, 1.1) * tone))
        # Fainter and fading from root to tip (:data:`WISP_FADE`).
        return a * (WISP_FADE[0] * (1 - smooth(WISP_FADE[1], 1.0, v)))[:, None], lit
    # The core: the hair inside the clump, dark, tapering to the middle before the strands end.
    reach = rng.uniform(0.78, 0.86) + 0.3 * (0.45 - spread[1])
    core = 0.7 * (mid - 2) * (1 - smooth(0.3, reach, v)) ** 0.7
    _strand(a, lit, v, np.full(rows, mid), core, 1.0, np.full(rows, core_light * tone))
    # The strands: more near the middle; the farther from it, the sooner a strand ends; all gather in
    # a little towards the middle as they near the clump's tip.
    # Straight hair: more strands, finer, nearer one shade and straighter (64 strands of up to 3 texels, an
    # eighth of them dark and each wandering by up to 1.6 texels, read as wood grain at a portrait's size).
    fine = not curly
    # Straight hair's strands lie in LOCKS locks side by side, each a shade of its own (LOCK_LIGHT) and its
    # strands near one shade within it: a card is a few locks running root to tip. (Strands alone, of
    # one spread of shades, averaged to a flat colour at the mipmap levels a browser draws a card at, a
    # texel for eight across: each card a smooth flake, grey "feathers", a bob's blocks.)
    centres = (np.arange(LOCKS) + 0.5) / LOCKS * 2 - 1 + rng.uniform(-0.08, 0.08, LOCKS)
    lock_lo, lock_hi = strands[3]
    lights = rng.permutation(np.linspace(lock_lo, lock_hi, LOCKS)) * rng.uniform(0.97, 1.03, LOCKS)
    for _k in range(96 if fine else 64):
        lock = int(rng.integers(LOCKS))
        side = rng.uniform(-1, 1)
        side = np.sign(side) * abs(side) ** 1.15
        if fine:
            side = float(np.clip(centres[lock] + rng.normal(0.0, 0.55 / LOCKS), -1, 1))
        longest = 1.0 - spread[0] * abs(side) ** 1.5
        end = longest * (1 - spread[1] * rng.random() ** 1.5)
        start = rng.random() ** 3 * 0.06                      # roots staggered: no straight edge at v = 0
        gather = 1 - cover[1] * (spread[1] / 0.45) * smooth(0.35, 1.0, v)
        period, phase = rng.uniform(80, 260), rng.random() * 6.3
        x = mid + side * (mid - cover[0]) * gather + rng.uniform(0.2, 0.9 if fine else 1.6) * np.sin(v * rows / period + phase)
        if curly:
            x = x + rng.uniform(0.8, 1.8) * np.sin(v * rows / rng.uniform(5, 11) + phase)
        w = rng.uniform(0.5, 1.1) if fine else rng.uniform(0.6, 1.5)
        half = w * np.clip((end - v) / 0.1, 0, 1) ** 0.6 * np.clip((v - start) / 0.03, 0, 1) * (v < end)
        dark = rng.random() < (strands[1] if fine else 0.12)
        shade = ((rng.uniform(0.8, 0.88) if dark else rng.uniform(*strands[0])) * lights[lock] if fine else
                 (rng.uniform(0.62, 0.78) if dark else rng.uniform(0.84, 1.14))) * tone
        # A strand's own slow variation of shade along it.
        along = 1 + (0.05 if fine else 0.1) * np.sin(v * rows / rng.uniform(40, 120) + phase)
        _strand(a, lit, v, x, half, 1.0, shade * along)
    # (Curls keep their strands in the alpha: a coil is short frizz, and the curls' hairline is their ends.)
    return (a if curly else clump_outline(rng, v, cw, spread, point, end_at, fade)), lit


def soften(lit: np.ndarray, sd: float) -> np.ndarray:
    """``lit`` (rows, width) blurred across its width by a Gaussian of ``sd`` columns (edges held).

    >>> x = np.zeros((1, 9), np.float32); x[0, 4] = 1
    >>> [round(float(v), 2) for v in soften(x, 1.0)[0, 2:7]]
    [0.05, 0.24, 0.4, 0.24, 0.05]
    """
    k = np.arange(-int(np.ceil(3 * sd)), int(np.ceil(3 * sd)) + 1)
    w = np.exp(-0.5 * (k / sd) ** 2)
    w /= w.sum()
    pad = np.pad(lit, ((0, 0), (len(k) // 2, len(k) // 2)), mode="edge")
    out = np.zeros_like(lit)
    for i, wi in enumerate(w):
        out += wi * pad[:, i:i + lit.shape[1]]
    return out


def even_locks(light: np.ndarray, alpha: np.ndarray, keep: float, columns: int, across: float) -> np.ndarray:
    """``light`` (rows, width) of ``columns`` card columns side by side (``alpha`` 0..1 alike), each column's spread
    across at its locks' scale (its light blurred across by a Gaussian of ``across`` texels over its opaque texels,
    about its row's mean) cut to ``keep`` of it; its strands (the rest) kept (:data:`.texture.LIGHT_EVEN`).

    >>> lit = np.array([[60.0] * 8 + [100.0] * 8]); lit[0, 3] += 20    # two locks, a light strand in one
    >>> even_locks(lit, np.ones_like(lit), 0.0, 1, 2.0)[0, [0, 3, 15]].round().tolist()
    [80.0, 97.0, 81.0]
    """
    out = light.astype(np.float64)
    cw = light.shape[1] // columns
    for c in range(columns):
        lit, a = out[:, c * cw:(c + 1) * cw], alpha[:, c * cw:(c + 1) * cw]
        w = np.clip(a * 4, 0, 1)        # (the clear texels at a card's sides, which hold the gaps' dark, left out)
        coarse = soften(lit * w, across) / np.maximum(soften(w, across), 1e-3)
        mean = (lit * a).sum(1, keepdims=True) / np.maximum(a.sum(1, keepdims=True), 1e-3)
        lit -= (coarse - mean) * (1 - keep) * (a > 0.05)
    return out


def column(rng, style: str, rows: int, cw: int, wisp: bool, texel: float) -> tuple[np.ndarray, np.ndarray]:
    """One card column of ``style`` (a clump, or a wisp if ``wisp``): (alpha, light) of (rows, cw), its card's own
    light (tone) drawn from :data:`TONE`; ``texel``: the drawing's columns per atlas texel (:data:`SOFTEN`'s unit).
    Straight hair's light softened across, the sleek caps' (:data:`STRANDS`) kept as fine strands."""
    curly = style == "curly"
    core, gap, locks, tones = EVEN.get(style, (0.6, GAP, LOCK_LIGHT, TONE))
    margin, gather, core = COVER.get(style, (2.5, 0.3, core))
    a, lit = clump(rng, rows, cw, curly, rng.uniform(*tones), wisp, SPREAD.get(style, SPREAD["long"]), POINT.get(style),
                   STRANDS.get(style, (STRAND, 0.04, gap, locks)), core, END.get(style, (0.93, 1.0)),
                   FADE.get(style, 0.0), (margin, gather))
    if not (curly or wisp or style in STRANDS):
        lit = soften(lit, SOFTEN * texel)
    return a, lit


def even_crown(lit: np.ndarray, alpha: np.ndarray, v: np.ndarray, keep: float, full: float, gone: float,
                across: float) -> np.ndarray:
    """A card column's light (rows, width) with its spread across each row at the locks' and core's scale (its light
    blurred across by a Gaussian of ``across`` columns, about the row's mean, weighted by ``alpha``) cut to ``keep`` of
    it from the root to ``full`` of the card's length, back to all of it by ``gone``; its strands (the rest) kept
    (:data:`.texture.CROWN_EVEN`).

    >>> lit = np.repeat([[0.6] * 20 + [1.0] * 20], 2, 0); lit[:, 5] += 0.1     # two locks, a light strand in one
    >>> out = even_crown(lit, np.ones_like(lit), np.array([0.1, 0.9]), 0.5, 0.25, 0.45, 4.0)
    >>> out[0, [0, 4, 5, 6, 39]].round(2).tolist(), out[1, [0, 39]].round(2).tolist()
    ([0.7, 0.7, 0.8, 0.7, 0.9], [0.6, 1.0])
    """
    weight = alpha.sum(1)
    mean = np.where(weight > 1e-3, (lit * alpha).sum(1) / np.maximum(weight, 1e-3), lit.mean(1))[:, None]
    coarse = soften(lit, across)
    cut = (1 - keep) * smooth(gone, full, v)[:, None]
    return (lit - (coarse - mean) * cut).astype(lit.dtype)
