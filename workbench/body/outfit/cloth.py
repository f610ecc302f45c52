"""The cloth's surface on the garments' own UVs: its weave, its bands, its folds and how rough it is.

- :func:`weave`: a cloth's light and shade and its height, whatever its colour: a smooth jersey (tees), a
  knitted sweater's V stitches (long sleeves), a brushed fleece (hoodies), a denim twill (trousers, shorts,
  skirts: :mod:`.denim`, its warp's streaks, weft and wear drawn per garment), leather grain (shoes).
- :func:`shading`: a style's weave with its bands (:attr:`~workbench.body.outfit.styles.Style.bands`):
  ribbing along a gathered band (a crew neck's collar, a hoodie's cuffs and hem), a line of stitches
  where each band ends, baked on the style's UVs through its texel map (:mod:`workbench.body.texels`).
- :func:`normal_map`: folds where the cloth hangs off the body, drawn from each point's ease on that
  body (vertical folds as deep as a third of the ease, up to 6 mm, wavering along their length), with
  the weave's own relief at LOD 0; tangent space, glTF's convention (green points up the texture).
- :func:`roughness_map`: glTF's metallic-roughness texture (roughness in green; metallic 0), the
  weave's ridges a little smoother than its hollows.

Each is the same for the same inputs (noise from fixed seeds), and what no body changes is made once
per machine (``keep.kept``).

>>> shade, height = weave("twill")
>>> shade.shape, float(height.min()) >= 0.0
((512, 512), True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image
from scipy.ndimage import gaussian_filter
from scipy.spatial import cKDTree

from .. import keep
from ..mesh import BodyMesh
from ..texels import texel_map
from . import denim
from .garments import dressed
from .hood import FOLD, ROLL, SHADE, STEPS, bearings, folds
from .pattern import FOLD_SIZE, FORMAT, NECKLINE_CUT, pattern, reference
from .styles import STYLES
from .trims import HEATHER, flecks, seam_distances, sewing, trim_colour

__all__ = ["CLOTH_SIZE", "SHOE_SIZE", "ROUGHNESS", "SPECULAR", "SHEEN", "sheen", "weave", "band_distances", "seam_distances", "shading", "trim", "trim_colour", "normal_map", "roughness_map"]

CLOTH_SIZE = 512
SHOE_SIZE = 256
ROUGHNESS = {"jersey": 0.86, "sweater": 0.95, "fleece": 0.97, "twill": 0.82, "canvas": 0.78, "leather": 0.5}
# KHR_materials_specular's factor: jersey, knit, twill, canvas mirror no room (aces29); fleece and leather 4 %.
SPECULAR = {"jersey": 0.0, "sweater": 0.0, "twill": 0.0, "canvas": 0.0}  # fleece 4 %: its hood's folds (review P)
# A soft cloth's sheen (KHR_materials_sheen, which three.js and model-viewer draw): how bright its sheen is
# beside the cloth's own colour, and how rough (spread) it is. Fleece's pile and a sweater's fuzz catch the
# light at grazing angles; a jersey a little. (A sheen lifted most of the way to white, and brighter, washed
# a red fleece out to salmon under three.js's ACES and RoomEnvironment: a whitish film that read as plastic.)
SHEEN = {"jersey": (0.18, 0.5), "sweater": (0.3, 0.7), "fleece": (0.4, 0.8)}
# How far the sheen's colour is lifted from the cloth's towards white (the fibres' tips catch the light
# a little paler than the dyed cloth).
SHEEN_LIFT = 0.15
# Relief of the weave (metres at full height) and of the folds (the sweater's 1.2 mm until its stitch was drawn 6 texels
# wide, not 8: the same slope).
WEAVE_DEPTH = {"jersey": 0.0002, "sweater": 0.0009, "fleece": 0.0004, "twill": 0.0004, "canvas": 0.0002,
               "leather": 0.0003}
FOLD_DEPTH = 0.006
ROUGH_SIZE = 128
# The cloths whose weave shows as relief in their normal maps: a sweater's stitches, a fleece's pile, leather's
# grain. A jersey's, a twill's and a canvas's are finer than a texel's worth of relief (their shading is in
# the colour), and at 512 px their maps took 85 KB more of an avatar whose budget had none to spare.
RELIEF = ("sweater", "fleece", "leather")
FOLD_PITCH = 0.055
# How much a gathered band's ribbing darkens it (over the band, and more in its grooves), and its end's
# line of stitches.
RIB_SHADE, RIB_GROOVE, STITCH_SHADE = 0.10, 0.08, 0.22
# How much light a lying hood's deepest fold valley loses (.hood.folds).
FOLD_SHADE = 0.35
# The shadow a lying hood's fold casts on the hoodie: its depth at the fold's edge, its width (metres).
CAST, CAST_WIDTH = 0.45, 0.02
# A seam's groove (its shadow), the light on its pressed allowance beside it, and how deep the groove sinks in
# the normal maps of the cloths that have them (metres). A jersey's overlocked seam is a slight crease, not a
# felled one, and sewn with no topstitch beside it: 0.34, 1.2 mm and a pale thread drew a tee's sides as lines in
# ink (review V, "dark drawn seam lines on tee sides").
SEWN_SHADE, RIDGE_LIGHT, SEAM_DEPTH = 0.34, 0.06, 0.0012
SOFT_SEAMS = {"jersey": (0.22, 0.0006, 0.0),   # a cloth's own (groove shade, depth, topstitch's thread)
              "twill": (0.36, SEAM_DEPTH, 0.3), "sweater": (0.36, SEAM_DEPTH, 0.3)}
# How far (a Gaussian's sigma, texels) a twill's and a knit's seams, the stitches at their bands' ends and their
# topstitching are spread. Drawn 1.2 to 1.6 texels wide (3 to 4 mm), a full figure at 288 px (6 to 7 mm a pixel)
# caught them in some pixels and missed them in the next, and they read as dark dashed lines that shimmer
# (review AA: #10's and #11's trousers, #3's sweater, the skirts' hems); spread over three texels or so, a soft line.
SEAM_SPREAD = {"twill": 1.1, "sweater": 1.1}
# How dark a drawstring's shadow on the cloth; the contrast thread's share of a topstitch's colour (its
# colour: .trims.trim_colour).
CORD_SHADOW, THREAD = 0.06, 0.45
# How far (texels) a band's distance from its cut is averaged before its end and stitches are drawn.
BAND_BLUR = 6.0
VERSION = 11
# A sweater's stitch: its width and height in texels (2.4 mm each on a sweater: 14.5 by 9.6 mm), how soft its loops'
# edges (a Gaussian's sigma, texels), and how much its loops lighten and the channels between its columns darken.
KNIT = (6, 4)
KNIT_SOFT = 0.7
KNIT_CONTRAST = (0.156, 0.195)
# A heather's share of paler texels (:func:`_heather`): one in eight, each a sixth of the way to undyed cotton on a
# sweater, drew specks 4 to 5 % of a dark cloth's brightness (review O); spread over two in five, each paler by a
# third as much.
FLECKS = 0.4


def sheen(color: str, kind: str) -> dict:
    """The ``KHR_materials_sheen`` of a soft cloth (:data:`SHEEN`) in ``color``: its sheen the cloth's colour
    lifted a little towards white (:data:`SHEEN_LIFT`), as a pile's fibres catch the light.

    >>> sheen("#204080", "fleece")["sheenRoughnessFactor"]
    0.8
    """
    strength, rough = SHEEN[kind]
    c = np.array([int(color.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)], float) / 255.0
    lifted = strength * ((1 - SHEEN_LIFT) * c + SHEEN_LIFT)
    return {"sheenColorFactor": [round(float(v), 4) for v in lifted], "sheenRoughnessFactor": rough}


def _noise(n: int, cells: tuple[int, int], seed: int) -> np.ndarray:
    """Value noise in about -1..1: a small random grid upsampled bicubically (deterministic)."""
    small = np.random.default_rng(seed).random(cells).astype(np.float32)
    return (np.asarray(Image.fromarray(small, mode="F").resize((n, n), Image.Resampling.BICUBIC), np.float32) - 0.5) * 2


def _draw_weave(kind: str) -> dict[str, np.ndarray]:
    n = SHOE_SIZE if kind in ("leather", "canvas") else CLOTH_SIZE
    y = np.arange(n, dtype=np.float32)[:, None]
    x = np.arange(n, dtype=np.float32)[None, :]
    if kind == "leather":
        grain = _noise(n, (64, 64), 33) * 0.05 + _noise(n, (12, 12), 34) * 0.05
        return {"shade": grain, "height": np.clip(grain * 5 + 0.5, 0, 1)}
    if kind == "canvas":
        # A sneaker's canvas: a plain weave of two-texel threads (under 2 mm) at low contrast.
        weave_ = (((x // 2) + (y // 2)) % 2).astype(np.float32)
        grain = _noise(n, (48, 48), 42) * 0.04
        return {"shade": grain + 0.03 * weave_, "height": weave_}
    if kind == "jersey":
        # A tee's cotton jersey: stitches far finer than a texel (about 2.4 mm here), so no pattern at all and no
        # mottling: a smooth matte cloth whose light and shade are its drape's (the folds' normal map). Its yarn's
        # slubs and a second, blotchier noise, 4 cm and 2 cm across at 2 to 5 %, drew the same coarse noise a knit and
        # a twill had, and "a cotton tee looks knitted" (review AE); its relief two-texel wales, for the roughness.
        wale = (x % 2).astype(np.float32) * np.ones_like(y)
        fine = _noise(n, (160, 160), 36) * 0.025
        return {"shade": 0.965 + fine * 0.25 + 0.01 * wale + _noise(n, (6, 6), 35) * 0.008,
                "height": 0.5 * wale + 0.5 * np.clip(fine * 20 + 0.5, 0, 1)}
    if kind == "sweater":
        # A knitted sweater: columns of V stitches (KNIT) 1.45 cm wide, 1 cm tall, each V two slanted loops
        # (soft ridges), a soft dark channel between the columns; a heathered yarn. Hard-edged 6 x 5 stitches
        # put their contrast at a texel, 2 to 3 px in a portrait: noise (review P: "noisy ... knit textures");
        # 8 x 6 (1.9 by 1.45 cm, a jumbo yarn's) read as "a giant lizard-scale pattern at portrait distance"
        # (review V): 6 x 4, a super bulky yarn's, its loops a little softer and their contrast a little stronger
        # (KNIT_SOFT, KNIT_CONTRAST), so they read as a knit and not as noise (tests/body/test_knit_review_p.py).
        cx = ((x + 0.5) % KNIT[0]) / KNIT[0]
        cy = ((y + 0.5) % KNIT[1]) / KNIT[1]
        arm = np.abs(2 * cx - 1)                     # 1 at a column's edges, 0 at its middle
        off = (cy - (1 - arm) * 0.7 - 0.15 + 0.5) % 1.0 - 0.5
        channel = np.exp(-(((1 - arm) / 0.25) ** 2))
        knit = gaussian_filter(np.exp(-((off / 0.2) ** 2)) * (1 - channel) * np.ones_like(x), KNIT_SOFT, mode="wrap")
        channel = gaussian_filter(channel * np.ones_like(y), KNIT_SOFT, mode="wrap")
        heather = _noise(n, (96, 96), 35) * 0.04 + _noise(n, (24, 24), 38) * 0.03
        loops, channels = KNIT_CONTRAST
        return {"shade": 0.93 + loops * knit - channels * channel + heather, "height": knit}
    if kind == "fleece":
        # Fleece: a brushed pile, no stitch to see; a fine mottling and a fuzz, its relief the fine pile's
        # only (mottling 3 cm across, in the shade and as relief, read as blotches: review D).
        pile = _noise(n, (48, 48), 39) * 0.012 + _noise(n, (128, 128), 40) * 0.03
        # (Its fuzz, one random texel from the next, at half the 4 % it was: review O's "speckle noise".)
        fuzz = (np.random.default_rng(41).random((n, n)).astype(np.float32) - 0.5) * 0.02
        fine = _noise(n, (256, 256), 40)
        slub = _noise(n, (32, 32), 31) * 0.06
        return {"shade": 0.95 + pile + fuzz + slub * 0.1, "height": np.clip(fine * 0.35 + fuzz * 5 + 0.5, 0, 1)}
    # Denim (a cotton twill), its warp's streaks drawn per garment (:func:`_warp`). The blotchy slubs every cloth
    # shared read as one coarse noise on all of them (review AE).
    return denim.twill(n)


@lru_cache(maxsize=4)
def _warp(name: str, n: int) -> np.ndarray:
    """A denim's warp streaks (:func:`.denim.streaks`) on style ``name``'s texture, along its fall from the waist."""
    return denim.streaks(band_distances(name, n)[0][2])


@lru_cache(maxsize=4)
def weave(kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(shade, height): the cloth's light and shade (about 1) and its relief (0 to 1) as (n, n) float32,
    512 px (256 for leather); made once per machine (10 ms to draw, 1 ms to read)."""
    if kind not in ROUGHNESS:
        raise ValueError(f"weave: unknown cloth {kind!r}")
    kept = keep.kept(f"cloth-weave-{kind}-v{VERSION}", lambda: {k: v.astype(np.float32) for k, v in _draw_weave(kind).items()})
    return kept["shade"], kept["height"]


def band_distances(name: str, n: int) -> list[tuple[float, bool, np.ndarray]]:
    """Per band of style ``name`` (:attr:`~workbench.body.outfit.styles.Style.bands`, those with a width):
    its width, whether it is gathered, and per texel of an ``n`` px texture the distance (metres) from its
    cut, smoothed (:func:`_smoothed`); a band ends where the distance reaches its width."""
    style, pat = STYLES[name], pattern(name)
    uv = pat["uv"]
    tex = texel_map(np.column_stack([uv[:, 0], 1 - uv[:, 1]])[pat["vfaces"]], n)
    # (A hood's points come after the panel's: its bag on no cut's band, its roll, which stands on the
    # neckline and is the edge one sees round the neck, all band of the neckline's.)
    from_cut = np.concatenate([pat["from_cut"], np.full((int(pat["vmap"].max()) + 1 - len(pat["from_cut"]), len(style.bands)), np.inf,
                                                        np.float32)])
    if len(pat["hood_faces"]):
        panel = len(pat["from_cut"])
        from_cut[panel:panel + len(ROLL) * STEPS, NECKLINE_CUT] = 0.0
    from_cut = from_cut[pat["vmap"]]
    texel = float(pat["uv_scale"]) / n            # metres per texel
    return [(width, tight, _smoothed(tex.paint_vertices(pat["vfaces"], np.minimum(from_cut[:, k:k + 1], 1.0))[..., 0],
                                     tex.covered, texel))
            for k, (width, tight) in enumerate(style.bands) if width > 0]


def _bands(name: str, n: int) -> dict[str, np.ndarray]:
    """Per texel: ``rib`` (1 in a gathered band), ``seam`` (1 on the stitches where a band ends), and the seams
    and trims of :func:`.trims.sewing`."""
    texel = pattern(name)["uv_scale"] / n            # metres per texel
    rib = np.zeros((n, n), np.float32)
    seam = np.zeros((n, n), np.float32)
    for width, tight, d in band_distances(name, n):
        if tight:
            rib = np.maximum(rib, np.clip((width - d) / texel, 0, 1))
        seam = np.maximum(seam, np.clip(1.2 - np.abs(d - width) / texel, 0, 1))
    return {"rib": rib, "seam": seam, "hood": _hood_light(name, n), **sewing(name, n)}


def _hood_light(name: str, n: int) -> np.ndarray:
    """Per texel, how much of the room's light reaches a hood's cloth and the hoodie under it: the hood's rows
    by :data:`.hood.SHADE` (its opening's inside and its fold's underside in shade), and the shadow its fold
    casts on the hoodie (:data:`CAST` at the fold's edge, over :data:`CAST_WIDTH` metres, on the reference
    body's drape), painted as occlusion is, so every viewer shows the hood's volume; 1 without a hood."""
    pat = pattern(name)
    light = np.ones(int(pat["vmap"].max()) + 1, np.float32)
    tex = texel_map(np.column_stack([pat["uv"][:, 0], 1 - pat["uv"][:, 1]])[pat["vfaces"]], n)
    if not len(pat["hood_faces"]):
        return np.ones((n, n), np.float32)
    panel = len(pat["from_cut"])
    light[panel:panel + len(SHADE) * STEPS] = np.repeat(SHADE, STEPS)
    # The bag's folds' valleys in their own shade (the light the folds either side keep from them).
    light[panel + len(ROLL) * STEPS:panel + len(SHADE) * STEPS] *= 1 - FOLD_SHADE * np.clip(1 - folds(), 0, None).ravel() / FOLD
    painted = tex.paint_vertices(pat["vfaces"], light[pat["vmap"]][:, None])[..., 0]
    # The fold's edge (the bag's last row) on the reference drape, sampled every few millimetres, each sample
    # casting as much shadow as the fold stands tall there behind the neck (none on the shoulders).
    q = dressed(reference(), name).points
    rows = q[panel + (len(SHADE) - 3) * STEPS:panel + len(SHADE) * STEPS].reshape(3, STEPS, 3)
    tall = np.clip(np.linalg.norm(rows[0] - rows[2], axis=1) / 0.012, 0, 1) * np.clip(-np.cos(bearings()), 0, 1)
    t = np.linspace(0, STEPS - 1, 16 * STEPS)
    edge = np.stack([np.interp(t, np.arange(STEPS), rows[2][:, c]) for c in range(3)], 1)
    texels = np.einsum("hwk,hwkc->hwc", tex.bary, q[pat["vmap"]][pat["vfaces"]][tex.triangle])
    d, near = cKDTree(edge).query(texels.reshape(-1, 3))
    cast = CAST * np.interp(t, np.arange(STEPS), tall)[near] * np.exp(-(d / CAST_WIDTH) ** 2)
    on_panel = (tex.triangle < len(pat["faces"])).ravel()
    painted = painted * (1 - np.where(on_panel, cast, 0.0)).reshape(n, n)
    return np.where(tex.covered, painted, 1.0).astype(np.float32)


def _smoothed(d: np.ndarray, covered: np.ndarray, texel: float) -> np.ndarray:
    """A distance from a cut, painted per texel, averaged over :data:`BAND_BLUR` texels (the covered ones
    only): painted straight from the vertices, its level lines zigzagged from triangle to triangle, and a
    band's end and its stitches read as a sawtooth (review D)."""
    w = covered.astype(np.float32)
    near = gaussian_filter(w, BAND_BLUR, mode="nearest")
    blurred = gaussian_filter(d * w, BAND_BLUR, mode="nearest") / np.maximum(near, 1e-6)
    # (The texels round the islands keep their nearest covered texel's value, for the mipmaps; and where
    # the distance jumps, a hood's roll, all band, beside its bag, none, it is kept as it was.)
    keep = covered & (near > 0.05) & (np.abs(blurred - d) < 2 * BAND_BLUR * texel)
    return np.where(keep, blurred, d).astype(np.float32)


@lru_cache(maxsize=8)
def _kept_bands(name: str) -> dict[str, np.ndarray]:
    return keep.kept(f"cloth-bands-{name}-v{VERSION}.{FORMAT}", lambda: _bands(name, CLOTH_SIZE))


def _band_maps(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(rib, seam) of :func:`_bands`."""
    kept = _kept_bands(name)
    return kept["rib"], kept["seam"]


@lru_cache(maxsize=8)
def _fold_texels(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Style ``name``'s texel map at FOLD_SIZE (triangle and barycentrics per texel), kept per machine."""
    def make():
        pat = pattern(name)
        tex = texel_map(np.column_stack([pat["uv"][:, 0], 1 - pat["uv"][:, 1]])[pat["vfaces"]], FOLD_SIZE)
        return {"triangle": tex.triangle, "bary": tex.bary}

    kept = keep.kept(f"cloth-folds-{name}-v{VERSION}.{FORMAT}", make)
    return kept["triangle"], kept["bary"]


def _ribs(n: int) -> np.ndarray:
    return (np.sin(np.arange(n, dtype=np.float32) * (np.pi / 2.5)) > 0).astype(np.float32)[None, :]


def shading(name: str, streaks: float = 1.0) -> np.ndarray:
    """Style ``name``'s light and shade on its UVs, (n, n) float32 (the shoes: their leather grain); kept
    per machine (one file to read in a new process, not the weave's and the bands'). A twill's with its warp's
    ``streaks`` at that share (:func:`.denim.streaked`: a denim's 1, a plain twill's less)."""
    return _streaked(_shading_maps(name), "shade", streaks)


def _streaked(maps: dict[str, np.ndarray], key: str, streaks: float) -> np.ndarray:
    """``maps[key]`` with the warp's streaks at share ``streaks``: between the map drawn without them (``key`` +
    ``_plain``) and with them (both kept; a garment without streaks has no plain map)."""
    if streaks >= 1.0 or key + "_plain" not in maps:
        return maps[key]
    w = np.float32(max(streaks, 0.0))
    out = (maps[key + "_plain"] * (1 - w) + maps[key] * w).astype(np.float32)
    # Read-only as the kept maps are: the tint's compiled loop is warmed up for read-only arrays, and a writable
    # one would compile another signature on a service's first cloth (tests/render/test_first_preview_ready.py).
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _shading_maps(name: str) -> dict[str, np.ndarray]:
    def make():
        if STYLES[name].part == "Outfit_Footwear":
            return {"shade": weave(STYLES[name].kind)[0]}
        out = drawn(1.0)
        if STYLES[name].kind == "twill":
            out.update({k + "_plain": v for k, v in drawn(0.0).items()})
        return out

    def drawn(streaks: float) -> dict[str, np.ndarray]:
        shade, _ = weave(STYLES[name].kind)
        if STYLES[name].kind == "twill":
            shade = shade + streaks * denim.WARP * _warp(name, len(shade))
        bands = _kept_bands(name)
        rib, seam = bands["rib"], bands["seam"]
        # A gathered band reads as one all round (a collar's ribs ran along it where the neckline crosses
        # the texture's columns, at the shoulders and the back, and the band vanished there): its ribbing's
        # shadow darkens it as a whole, its grooves more, and a line of stitches where it ends.
        ribbed = 1 - rib * (RIB_SHADE + RIB_GROOVE * (1 - _ribs(len(shade))))
        groove, _, thread = SOFT_SEAMS.get(STYLES[name].kind, (SEWN_SHADE, SEAM_DEPTH, THREAD))
        spread = SEAM_SPREAD.get(STYLES[name].kind, 0.0)
        if spread:
            bands = {**bands, **{k: _spread(bands[k], spread) for k in ("sewn", "ridge", "topstitch")}}
            seam = _spread(seam, spread)
        sewn = (1 - groove * bands["sewn"]) * (1 + RIDGE_LIGHT * bands["ridge"])
        cord = (bands["cord"] > 0) | (bands["aglet"] > 0)
        # A cord's round lit from above its middle, its aglet a dull plastic, its shadow on the cloth.
        round_ = np.where(cord, 0.72 + 0.33 * (bands["cord"] + bands["aglet"]), 1.0) * (1 - 0.4 * (bands["aglet"] > 0))
        shade = np.where(cord, _noise(len(shade), (96, 96), 44) * 0.03 + 1.0, shade * ribbed * sewn * (1 - STITCH_SHADE * seam))
        trims = np.maximum(np.maximum(bands["cord"], bands["aglet"]) > 0, thread * bands["topstitch"])
        return {"shade": (shade * round_ * (1 - CORD_SHADOW * bands["cord_shadow"]) * bands["hood"]).astype(np.float32),
                "trim": np.maximum(trims, _yarn(name, len(shade), streaks)).astype(np.float32)}

    return keep.kept(f"cloth-shade-{name}-v{VERSION}.{FORMAT}", make)


def _spread(line: np.ndarray, sigma: float) -> np.ndarray:
    """A line of stitches spread by a Gaussian of ``sigma`` texels, as dark at its middle as the line's own mean
    over that width would be: a softer, wider line with the same ink (:data:`SEAM_SPREAD`)."""
    return gaussian_filter(line, sigma, mode="wrap").astype(np.float32)


def _yarn(name: str, n: int, streaks: float = 1.0) -> np.ndarray:
    """The trim's share the yarn itself gives style ``name``'s cloth: a knit's heather (:data:`HEATHER`), a denim's
    white weft and its wear, paler along its seams and its bands' folded edges (:mod:`.denim`)."""
    kind = STYLES[name].kind
    if kind != "twill":
        return HEATHER.get(kind, 0.0) * _heather(n)
    pat = pattern(name)
    covered = texel_map(np.column_stack([pat["uv"][:, 0], 1 - pat["uv"][:, 1]])[pat["vfaces"]], n).covered
    near = seam_distances(name, n)
    for _, _, d in band_distances(name, n):
        near = np.minimum(near, d)
    warp = streaks * _warp(name, n)
    return np.clip(denim.weft(warp, streaks) + denim.wear(near, warp, covered), 0, 1)


def _heather(n: int) -> np.ndarray:
    """A heather's paler fibres (:func:`.trims.flecks`) in :data:`FLECKS` of the texels, each paler by as much less
    as keeps their mean: the same paling over the cloth (a saturated dye still reads as yarn, review G), a fraction
    of the random specks (review O: "speckle-noise fabric textures ... look like a randomiser")."""
    few, many = flecks(n), flecks(n, FLECKS)
    return (many * (float(few.mean()) / float(many.mean()))).astype(np.float32)


def trim(name: str, streaks: float = 1.0) -> np.ndarray:
    """Style ``name``'s trims on its UVs, (n, n) float32: how far each texel takes a trim's colour
    (:func:`.trims.trim_colour`) instead of the cloth's: 1 on a hoodie's drawstrings, :data:`THREAD` on the seams'
    topstitching (a contrast thread: the seams show on a dark cloth too, and a saturated cloth is broken by a
    paler line, as dyed cloth sewn with undyed thread is), a knit's heather's paler fibres (:data:`HEATHER`);
    0 for shoes."""
    maps = _shading_maps(name)
    return _streaked(maps, "trim", streaks) if "trim" in maps else np.zeros_like(maps["shade"])


def _encode_normals(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Slopes (height per unit across, per unit down the texture; float32) to a tangent-space normal map:
    the unit normal (-dx, dy, 1) scaled to bytes, in float32 without temporaries of three channels (a
    float64 stack and norm took 60 ms a map at 512 px, this 6 ms)."""
    inv = dx * dx
    inv += dy * dy
    inv += 1
    np.sqrt(inv, out=inv)
    np.divide(np.float32(127.5), inv, out=inv)
    out = np.empty(dx.shape + (3,), np.uint8)
    out[..., 0] = np.rint(np.float32(127.5) - dx * inv)
    out[..., 1] = np.rint(np.float32(127.5) + dy * inv)
    out[..., 2] = np.rint(np.float32(127.5) + inv)
    return out


@lru_cache(maxsize=8)
def _folds(name: str) -> np.ndarray:
    """The folds' profile across style ``name``'s texture at FOLD_SIZE: vertical ridges a fold's pitch
    apart, wavering along their length (0 to 1)."""
    metres = float(pattern(name)["uv_scale"]) / FOLD_SIZE
    x = np.arange(FOLD_SIZE, dtype=np.float32)[None, :] * metres
    out = (0.5 + 0.5 * np.cos(2 * np.pi * (x / FOLD_PITCH + 0.35 * _noise(FOLD_SIZE, (8, 24), 37)))).astype(np.float32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def _weave_slopes(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The weave's relief as slopes (across, down) at style ``name``'s fine size, with its ribbed bands;
    kept per machine (30 ms to make, 1 ms to read)."""
    def make():
        style, pat = STYLES[name], pattern(name)
        relief = weave(style.kind)[1]
        depth = relief * WEAVE_DEPTH[style.kind]
        if style.part != "Outfit_Footwear":
            bands = _kept_bands(name)
            rib = bands["rib"]
            relief = relief * (1 - rib) + rib * _ribs(len(relief))
            seam = SOFT_SEAMS.get(style.kind, (SEWN_SHADE, SEAM_DEPTH, THREAD))[1]
            depth = relief * WEAVE_DEPTH[style.kind] + seam * (bands["ridge"] - bands["sewn"])
        wy, wx = np.gradient(depth, float(pat["uv_scale"]) / len(relief))
        return {"x": wx.astype(np.float32), "y": wy.astype(np.float32)}

    kept = keep.kept(f"cloth-slopes-{name}-v{VERSION}.{FORMAT}", make)
    return kept["x"], kept["y"]


def _resized(img: np.ndarray, size: int) -> np.ndarray:
    return np.asarray(Image.fromarray(img, mode="F").resize((size, size), Image.Resampling.BILINEAR), np.float32)


def normal_map(mesh: BodyMesh, name: str, under: str | None = None, fine: bool = True) -> np.ndarray:
    """Style ``name``'s normal map on ``mesh`` (over ``under``): its folds, and with ``fine`` (LOD 0) for the
    cloths whose weave has a relief to see (:data:`RELIEF`) the weave's and its ribbed bands' at its
    texture's size (512 px; 256 for shoes), else at 256 px; (n, n, 3) uint8."""
    pat = pattern(name)
    worn = dressed(mesh, name, under)
    # Ease per texel through the style's texel map, softened so folds fade in and out; folds a third as
    # deep as the ease, at most FOLD_DEPTH.
    triangle, bary = _fold_texels(name)
    corners = worn.ease[pat["vfaces"]][triangle]
    ease = gaussian_filter(np.einsum("hwk,hwk->hw", bary, corners, dtype=np.float32), 3, mode="nearest")
    height = np.minimum(ease * np.float32(1 / 3), np.float32(FOLD_DEPTH)) * _folds(name)
    dy, dx = np.gradient(height, np.float32(float(pat["uv_scale"]) / FOLD_SIZE))
    if fine and STYLES[name].kind in RELIEF:
        wx, wy = _weave_slopes(name)
        if len(wx) != FOLD_SIZE:
            dx, dy = _resized(dx, len(wx)), _resized(dy, len(wx))
        dx, dy = dx + wx, dy + wy
    return _encode_normals(dx, dy)


@lru_cache(maxsize=8)
def roughness_map(name: str) -> np.ndarray:
    """Style ``name``'s metallic-roughness texture at LOD 0, :data:`ROUGH_SIZE` px, (n, n, 3) uint8: the
    weave's relief averaged over 4 texels (its stitches are finer than the map: what is left is the yarn's
    slubs and the pile's mottling, smoother where the cloth stands higher). At the weave's own 512 px the
    three maps of an outfit took 90 KB of a model whose budget had 100 KB to spare."""
    kind = STYLES[name].kind
    relief = _resized(weave(kind)[1].astype(np.float32), ROUGH_SIZE)
    g = np.clip(ROUGHNESS[kind] + 0.25 * (relief.mean() - relief), 0, 1)
    out = np.zeros(relief.shape + (3,), np.uint8)
    out[..., 0] = 255
    out[..., 1] = np.round(g * 255).astype(np.uint8)
    out.setflags(write=False)
    return out
