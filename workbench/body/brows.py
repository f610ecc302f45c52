"""Eyebrows of hairs: a thin shell over each brow's skin with a texture of hair strokes, on every head.

The skin texture has less than one texel per millimetre on the brow, so brows painted into it were flat
bars. Here each brow is a patch of the body's own triangles under its hairs (:func:`brow_piece`), lifted
:data:`LIFT` off the skin along its normals, each vertex standing for the body vertex it copies (its skin
weights and face shapes follow: a raised brow raises the hairs), with UVs along the brow (u, from its head
over the inner corner of the eye to its tail) and across it (v), the brow in the middle of its texture with room round
it (:data:`MARGIN`: whole triangles, none of their UVs clamped). The texture (:func:`brow_texture`) draws
the brow's hairs on that: tapered strokes in clumps, upright at the head, along the body the lower ones leaning up
and the upper ones lying down towards the tail, lying along the tail; a soft fill under them so the brow keeps its
shape at a distance, thin at the head, where the hairs show one by one; alpha soft (the material blends: no jagged
cut-out). The shape (:data:`SHAPES`, :func:`band`): a head over the eye's inner corner (a clear gap of skin between
the two), at its full height to the arch's peak over the outer edge of the iris, then a tail tapering to a point, its
top coming down most; feminine brows some three quarters of the masculine height, higher and more arched, masculine ones lower and
nearly straight.

The colour (:func:`brow_color`) is the hair's, darker and less saturated, as brows are (a muted brown under
hair dyed green, blue or violet); a bald head keeps the hair colour of its settings for them (every head has
brows).

>>> brow_color("#2B1B10")
'#1E1610'
>>> t = brow_texture("#2B1B10", "feminine")
>>> t.shape, int(t[..., 3].max()) > 200, int(t[0, 0, 3]), int(t[:, -1, 3].max())
((128, 320, 4), True, 0, 0)
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from ..options.colour import hex_rgb
from . import keep
from .details import FACE_VARIETY
from .expressions import EYES_APART, smoothstep
from .lod import Piece
from .mesh import BodyMesh, vertex_normals
from .strokes import draw

__all__ = ["BROW_SIZE", "LIFT", "MARGIN", "SHAPES", "band", "brow_bottom", "brow_color", "brow_piece", "brow_texture",
           "texels_per_mm"]

# The texture: (rows, columns); u along the brow, v across it (row 0 its top).
BROW_SIZE = (128, 320)
# How far off the skin the shell stands (metres): clear of the skin in every viewer's depth buffer at a
# full figure's distance, close enough that no gap shows at a grazing angle.
LIFT = 0.0004
# (The shapes below are in the reference face's metres: EYES_APART, the eyes' distance apart there.)
# The texture's room round the brow (reference metres: each end along it, over it, under it): more than a body
# triangle's width here (4 to 5 mm over the brow, up to 9 mm by the nose's bridge and over the brow ridge), so that
# every triangle under the brow lies wholly inside the texture and none has a corner's UV clamped (a clamped corner
# squeezed the texture over its triangle: a thin brow drawn on 4 mm triangles came out as a band of the triangles' own
# straight edges).
MARGIN = (0.0095, 0.009, 0.009)


@dataclass(frozen=True)
class Shape:
    """A brow along x from the eye's centre (metres on the reference face, + towards the temple): its head, the
    arch's peak and the tail's end; the head's middle height over the eye and the arch's lift; the head's height
    (``thick``) and the tail's end's share of it (``tail``: the tail tapers to a point); the hairs' count; the soft
    fill's most alpha under them (a thin brow's fuller, or its few texels read as a faint pencil line)."""

    start: float
    peak: float
    end: float
    height: float
    lift: float
    thick: float
    tail: float
    hairs: int
    fill: float


# Review AD (defect 6, "thick flat rectangular blocks with no taper, almost joined over the nose"; defect 2, "thick
# brows on every avatar"): the heads were 8 mm from the face's middle (the gap between them 0.29 of the eyes' distance
# in a portrait), the tail as tall as the head, the feminine brow as tall as the masculine one once drawn. Now the heads
# sit over the inner corners of the eyes (a gap of 0.40 of the eyes' distance, masculine; 0.45 feminine), each brow
# tapers from its head to a point, and the feminine brow is some half the masculine one's height, higher and more
# arched; the masculine one low and nearly straight. Blind review AH ("thin, drawn lines, almost invisible on pale #5
# and #7"): the feminine head 4.4 -> 5.2 mm, grown upwards (its line 18.2 -> 18.6 mm over the eye: its lower edge, which
# the glasses fit under, where it was; some three quarters of the masculine brow drawn), its hairs 360 -> 420 and
# its fill 0.86 -> 0.92 (tests/render/test_brows_review_ah.py).
SHAPES = {"feminine": Shape(-0.0160, 0.0120, 0.0280, 0.0186, 0.0048, 0.0052, 0.05, 420, 0.92),
          "masculine": Shape(-0.0175, 0.0100, 0.0285, 0.0158, 0.0014, 0.0076, 0.08, 560, 0.8)}
# The brow's lower edge keeps LOW of the height the brow loses towards its tail, its upper edge the rest: the top
# comes down to the tail, the bottom stays nearly level (a brow's lower edge follows the eye's rim).
LOW = 0.3
# Where the brow's soft fill ends, in half heights from its band's middle (its roots end at one; see
# :func:`_draw_hairs`).
EDGE = 1.15
# Hairs a clump (see :func:`_draw_hairs`).
CLUMP = 5
# The soft fill under the hairs: its share at the head's inner end (of the body's) and its shade (the hairs' own 0.6
# to 1.2).
FILL = (0.3, 1.1)


def _fuller(shape: Shape, thick: float, hairs: int, fill: float) -> Shape:
    """``shape`` ``thick`` high at its head, with ``hairs`` hairs and fill ``fill``, grown upwards: its fill's lower edge
    (what the glasses fit under, :func:`brow_bottom`) where it was at the head and no lower along it; the same taper."""
    return replace(shape, height=shape.height + EDGE / 2 * (thick - shape.thick), thick=thick, hairs=hairs, fill=fill)


# Brows that differ from face to face (blind review AY's second defect, "one face for everyone"): each gender's brow
# (SHAPES, the reference every test of the brows' shape reads) in three weights, the reference, a full and a bold
# one, the hairs as dense for their area as the reference's. Which one a face has is :func:`brow_style`'s. Their fills'
# lower edges lie no lower than the reference's, so the glasses sit under every one. (None thinner: review AH's "almost invisible" line
# again on pale faces, tests/render/test_brows_review_ah.py; docs/avatars.md, pass 68.)
WEIGHTS = ("", "full", "bold")
SHAPES.update({
    "feminine-full": _fuller(SHAPES["feminine"], 0.0066, 540, 0.9),
    "feminine-bold": _fuller(SHAPES["feminine"], 0.0076, 630, 0.9),
    "masculine-full": _fuller(SHAPES["masculine"], 0.0084, 620, 0.86),
    "masculine-bold": _fuller(SHAPES["masculine"], 0.0092, 690, 0.88),
})
# The face's variety feature the weight follows (details.FACE_VARIETY's browAngle, one no face control moves: a slider
# never changes it): its targets' signed weight, -REACH to REACH (its own reach), in three bands, the reference to bold.
_UP, _DOWN, REACH = FACE_VARIETY["browAngle"]
WEIGHT_FROM = (*_UP, *_DOWN)


# Hair's natural hues run from red (just under 360 degrees) through orange to yellow; brows of other hues are
# drawn in this brown's hue.
DYED_FROM, DYED_TO, BROWN_HUE = 55.0, 350.0, 25.0
# Dark yellow is olive: brows of a yellow hair (mustard, olive blond) turn to a brown's hue (YELLOW_HUE) and at most
# YELLOW_SATURATION, ramping in from YELLOW_FROM to YELLOW_TO degrees of hue (a #736314 bob's brows, its hue darkened,
# were a green-yellow khaki: blind review H, #10). A golden blond's (40 degrees) keep its hue.
YELLOW_FROM, YELLOW_TO, YELLOW_HUE, YELLOW_SATURATION = 41.0, 52.0, 32.0, 0.3
# The brows' lightness (HLS) at most this share of the skin's (:func:`brow_color`): on pale skin above any brow's.
SKIN_CONTRAST = 0.55
# ...and on deep skin less: DEEP_CONTRAST[0] of it on a skin of lightness DEEP_CONTRAST[1] and under, SKIN_CONTRAST from
# DEEP_CONTRAST[2] up. At 0.55 of #412F25 (blind review S's #5) the brows showed 7.8 L* under the forehead round them,
# "brows lost" (a pale face's black brows: 41); with the brows' reflection at the lashes' (workbench.gltf.avatar) and
# this, 15 (tests/render/test_deep_face_review_s.py).
DEEP_CONTRAST = (0.4, 0.2, 0.35)
# Light hair's brows at most LIGHT_HAIR[0] + LIGHT_HAIR[1] of the hair's lightness (HLS): a blond's (#CBB392, 0.69) 0.28,
# a light brown's hairs in a portrait (0.33 was a tan pencil line on pale skin at 288 px, blind review AH's "brows thin
# drawn lines, almost invisible on pale #5 and #7"); dark hair's stay at 0.78 of the hair's.
LIGHT_HAIR = (0.10, 0.26)


def brow_color(hair: str, skin: str | None = None) -> str:
    """The brows' colour for a hair colour ('#RRGGBB'): darker and less saturated; light hair's brows darker
    still (a blond's brows are a light brown, white hair's a mid grey: at 0.47 of lightness they read on pale
    skin as pencil dust, so light hair's brows stop near 0.3: :data:`LIGHT_HAIR`). With the skin's tone (``skin``), never lighter than
    :data:`SKIN_CONTRAST` of its lightness (:data:`DEEP_CONTRAST` on deep skin): a deep tone's brows are darker than the
    skin, as real brows are (the hair's brown on #50352A skin was the skin's own value, and the brows disappeared, blind
    review G).

    >>> brow_color("#3D5390"), brow_color("#3D5390", "#50352A"), brow_color("#3D5390", "#EBB99F")
    ('#413227', '#201913', '#413227')
    """
    h, light, s = colorsys.rgb_to_hls(*hex_rgb(hair))
    light = min(light * 0.78, LIGHT_HAIR[0] + LIGHT_HAIR[1] * light)
    if skin is not None:
        skin_light = colorsys.rgb_to_hls(*hex_rgb(skin))[1]
        least, deep, mid = DEEP_CONTRAST
        share = least + (SKIN_CONTRAST - least) * float(smoothstep(deep, mid, skin_light))
        light = min(light, share * skin_light)
    yellow = float(smoothstep(YELLOW_FROM, YELLOW_TO, h * 360)) if h * 360 < 180 else 0.0
    sat = s * 0.7 + yellow * (min(s * 0.7, YELLOW_SATURATION) - s * 0.7)
    brow = np.array(colorsys.hls_to_rgb((h * 360 + yellow * (YELLOW_HUE - h * 360)) / 360, light, sat))
    # Hair dyed a colour no hair grows (green, blue, violet, pink: a hue outside red to yellow, saturated) keeps
    # natural brows, a muted brown as light as the rest: green brows on a bald head read as paint (blind review D).
    # The change ramps in over 20 degrees of hue and with saturation, so no hair colour is a step.
    outside = max(0.0, (h * 360 - DYED_FROM) if h * 360 < 180 else (DYED_TO - h * 360))
    t = min(outside / 20, 1.0) * min(max((s - 0.15) / 0.2, 0.0), 1.0)
    brow += t * (np.array(colorsys.hls_to_rgb(BROWN_HUE / 360, light, min(s * 0.7, 0.25))) - brow)
    return "#" + "".join(f"{round(v * 255):02X}" for v in brow)


def brow_style(body: tuple) -> str:
    """The brows (a key of :data:`SHAPES`) of the body keyed ``body`` (:func:`workbench.body.mesh.body_key`): the
    gender's in the weight its face's :data:`WEIGHT_FROM` gives; a face without variety has the gender's own.

    >>> brow_style(("feminine", "average", 166.0, ()))
    'feminine'
    >>> brow_style(("masculine", "average", 180.0, (("eyebrows/eyebrows-angle-up", 0.4),)))
    'masculine-bold'
    """
    gender, face = body[0], dict(body[3])
    if not face:
        return gender
    v = face.get(WEIGHT_FROM[0], 0.0) - face.get(WEIGHT_FROM[1], 0.0)
    weight = WEIGHTS[min(int((v + REACH) / (2 * REACH) * len(WEIGHTS)), len(WEIGHTS) - 1)]
    return f"{gender}-{weight}" if weight else gender


def _frame(mesh: BodyMesh):
    pos = mesh.positions
    eyes = {s: pos[mesh.groups[f"helper-{s}-eye"]].astype(np.float64).mean(0) for s in "lr"}
    mid_x = (eyes["l"][0] + eyes["r"][0]) / 2
    unit = float(np.linalg.norm(eyes["l"] - eyes["r"])) / EYES_APART
    return eyes, mid_x, unit


def _line(shape: Shape, bx: np.ndarray) -> np.ndarray:
    """The brow's line (the middle of its head's height, carried along) over the eye's centre at ``bx`` (reference
    metres)."""
    rise = np.sin(0.5 * np.pi * np.clip((bx - shape.start) / (shape.peak - shape.start), 0, 1))
    fall = np.clip((bx - shape.peak) / (shape.end - shape.peak), 0, 1)
    return shape.height + shape.lift * np.where(bx <= shape.peak, rise, 1 - 1.25 * fall ** 1.5)


def band(shape: Shape, s: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """The brow's (lower, upper) edges at ``s`` along it (0 its head, 1 its tail's end), reference metres over its
    line: the head's full height to the arch's peak's side, then tapering to ``shape.tail`` of it at the end, the
    upper edge coming down most (:data:`LOW`).

    >>> lo, up = band(SHAPES["masculine"], np.array([0.0, 1.0]))
    >>> [round(float(x) * 1000, 2) for x in (up[0] - lo[0], up[1] - lo[1])], bool(lo[1] > lo[0] and up[1] < up[0])
    ([7.6, 0.61], True)
    """
    t = np.clip((np.asarray(s, np.float64) - 0.12) / 0.88, 0, 1)
    height = shape.thick * (1 - (1 - shape.tail) * t ** 1.4)
    lower = -shape.thick / 2 + LOW * (shape.thick - height)
    return lower, lower + height


def texels_per_mm(shape: Shape) -> tuple[float, float]:
    """The texture's texels per millimetre of the reference face, (along the brow, across it)."""
    h, w = BROW_SIZE
    return w / ((shape.end - shape.start + 2 * MARGIN[0]) * 1000), h / ((shape.thick + MARGIN[1] + MARGIN[2]) * 1000)


def _coordinates(shape: Shape, bx: np.ndarray, by: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) of points at ``bx`` (along, towards the temple) and ``by`` (up) from the eye's centre, in the
    reference face's metres: the brow from its head to its tail's end and :data:`MARGIN` round it."""
    u = (bx - shape.start + MARGIN[0]) / (shape.end - shape.start + 2 * MARGIN[0])
    v = (by - _line(shape, bx) + shape.thick / 2 + MARGIN[2]) / (shape.thick + MARGIN[1] + MARGIN[2])
    return u, v


def brow_bottom(style: str, bx: np.ndarray) -> np.ndarray:
    """Brow ``style``'s lower edge seen from the front (a gender's: its reference brow): its height over the eye's centre (reference metres, as the
    brow's own: scale by the eyes' spacing) at ``bx`` (along, towards the temple), where the soft fill under the
    hairs ends (NaN past the brow's ends). What :mod:`.glasses` keeps its rims under.

    >>> b = brow_bottom("masculine", np.array([-0.03, -0.017, 0.0, 0.025]))
    >>> bool(np.isnan(b[0])), bool(0.010 < b[1] < b[2] < 0.016)
    (True, True)
    """
    shape = SHAPES[style]
    s = (bx - shape.start) / (shape.end - shape.start)
    lower, upper = band(shape, s)
    edge = _line(shape, bx) + (lower + upper) / 2 - EDGE * (upper - lower) / 2
    return np.where((s >= 0) & (s <= 1), edge, np.nan)


def brow_piece(mesh: BodyMesh, style: str) -> Piece:
    """Both brows' shell for ``mesh`` (see the module's text) in brow ``style`` (a key of :data:`SHAPES`): the body's
    triangles whose corners all lie in a brow's texture (the brow and :data:`MARGIN` round it), lifted off the skin,
    with UVs on :func:`brow_texture` (the right brow's u mirrored)."""
    shape = SHAPES[style]
    eyes, mid_x, unit = _frame(mesh)
    body = mesh.face_groups["body"]
    tris = mesh.triangles[body]
    pos = mesh.positions.astype(np.float64)
    uv = np.full((len(pos), 2), np.nan)
    for s in "lr":
        eye = eyes[s]
        side = np.sign(eye[0] - mid_x)
        mine = np.flatnonzero(((pos[:, 0] - mid_x) * side > 0) & (np.abs(pos[:, 1] - eye[1]) < 0.05 * unit)
                              & (pos[:, 2] > eye[2] - 0.03 * unit))
        u, v = _coordinates(shape, (pos[mine, 0] - eye[0]) * side / unit, (pos[mine, 1] - eye[1]) / unit)
        uv[mine] = np.column_stack([u, v])
    # Whole triangles only (their UVs as they are: none clamped, see MARGIN); the texture's edges are clear, so an
    # atlas's neighbour never shows.
    inside = (uv[:, 0] >= 0.0) & (uv[:, 0] <= 1.0) & (uv[:, 1] >= 0.0) & (uv[:, 1] <= 1.0)
    front = mesh.normals[:, 2] > -0.3
    keep = tris[(inside & front)[tris].all(1)]
    # ...and of those only the ones with hairs over them (any texel under the triangle's box): the room round the
    # brow is bare skin, and a shell over it would stand for a brow farther out than its hairs (what the hairline
    # tests take for the brows' height: the shell's mean).
    cover = _hairs(style)[0]
    h, w = BROW_SIZE
    box = uv[keep]
    lo = np.floor(np.column_stack([box[..., 0].min(1) * w, (1 - box[..., 1].max(1)) * h])).astype(int)
    hi = np.ceil(np.column_stack([box[..., 0].max(1) * w, (1 - box[..., 1].min(1)) * h])).astype(int)
    keep = keep[[bool((cover[max(a[1], 0):b[1] + 1, max(a[0], 0):b[0] + 1] > 0).any()) for a, b in zip(lo, hi, strict=True)]]
    source, index = np.unique(keep, return_inverse=True)
    index = index.reshape(-1, 3).astype(np.int64)
    normals = mesh.normals[source]
    positions = (mesh.positions[source] + LIFT * normals).astype(np.float32)
    # glTF's v runs down the image: the brow's top (v = 1 here) is the texture's first row.
    tex = np.column_stack([uv[source, 0], 1 - uv[source, 1]]).astype(np.float32)
    return Piece(positions, vertex_normals(positions, index), tex, index, mesh.joints[source],
                 mesh.weights[source], source.astype(np.int64))


@lru_cache(maxsize=8)
def _hairs(style: str) -> tuple[np.ndarray, np.ndarray]:
    """The brow's cover and each texel's shade for brow ``style`` (colour-free: drawn once per style and machine,
    then read)."""
    kept = keep.kept(f"brows-{style}", lambda: dict(zip(("cover", "shade"), _draw_hairs(style), strict=True)),
                     {"cover": BROW_SIZE, "shade": BROW_SIZE})
    return kept["cover"], kept["shade"]


def _draw_hairs(style: str) -> tuple[np.ndarray, np.ndarray]:
    shape = SHAPES[style]
    h, w = BROW_SIZE
    rng = np.random.default_rng({"feminine": 91, "masculine": 92}.get(style, 93 + sorted(SHAPES).index(style)))  # (references: theirs)
    length_mm = (shape.end - shape.start) * 1000
    px_u, px_v = texels_per_mm(shape)
    x0, y0 = MARGIN[0] * 1000 * px_u, (MARGIN[1] + shape.thick / 2) * 1000 * px_v   # the head's column, the line's row

    def edges(s):                                          # the band's (middle, half height) at s, texels up
        lower, upper = band(shape, s)
        return (lower + upper) / 2 * 1000 * px_v, (upper - lower) / 2 * 1000 * px_v

    strokes = []
    # The hairs lie in clumps of CLUMP (their roots within a millimetre, one lean, one shade): a clump is a streak a few
    # pixels long at a portrait's size, where single hairs (a pixel or less) blurred into a fuzzy strip with no
    # direction (blind review AC, "a fuzzy caterpillar pasted on the skin"). Their roots spread as the band's area
    # does (as many a square millimetre at the head as along the body), so the tail thins with its height.
    clumps = 0
    while clumps < shape.hairs // CLUMP:
        s0 = 0.01 + 0.93 * rng.random()
        if rng.random() > float(np.diff(band(shape, s0))[0]) / shape.thick:
            continue
        clumps += 1
        across0 = rng.uniform(-1.0, 0.8)                   # roots from the lower edge up
        angle0 = _lean(s0, across0) + rng.normal(0, 5)
        # (the head's upright hairs no longer than most of its height: they feather its top, not stand over it)
        length0 = min(_length(s0), 0.8 * shape.thick * 1000 if s0 < 0.2 else 99) * rng.uniform(0.8, 1.15)
        tone = rng.uniform(0.6, 1.2)
        for _j in range(CLUMP):
            s = float(np.clip(s0 + rng.normal(0, 0.5) / length_mm, 0.0, 0.96))
            across = float(np.clip(across0 + rng.normal(0, 0.12), -1.0, 0.85))
            middle, half = edges(s)
            root = np.array([x0 + s * length_mm * px_u, y0 - middle - across * half])
            angle = np.radians(angle0 + rng.normal(0, 4))
            length = length0 * rng.uniform(0.8, 1.1)         # millimetres
            direction = np.array([np.cos(angle) * px_u, -np.sin(angle) * px_v]) * length
            bend = root + 0.55 * direction + np.array([0.0, 0.1 * abs(direction[1]) + 0.4])
            tip = root + direction
            strokes.append((root, bend, tip, rng.uniform(1.0, 1.35) * w / 320, 0.25, tone * rng.uniform(0.9, 1.1)))
    cover, shade = draw(BROW_SIZE, strokes)
    # A soft fill in the brow's shape under the hairs: its shape at a distance, the skin showing through a
    # little (at 0.45 the hairs, a pixel or less at a portrait's size, read as sparse specks: a brow is a filled
    # shape first).
    yy, xx = (np.mgrid[0:h, 0:w] + 0.5).astype(np.float32)
    s = (xx - x0) / (length_mm * px_u)
    middle, half = edges(s)
    d = np.abs(yy - (y0 - middle)) / np.maximum(half, 1e-3)
    # Thin at the head's inner end (FILL[0] of the body's), where the upright hairs show one by one over the skin, as a
    # brow's head does (one even fill from head to tail was a strip pasted on), and lighter than the hairs over it
    # (FILL[1]: the hairs' streaks show on it); its edges soft over a third of the half height (a hard edge was a
    # sticker's), and none past the tail's point.
    dense = FILL[0] + (1 - FILL[0]) * smoothstep(0.0, 0.28, s)
    base = (shape.fill * dense * np.clip((EDGE - d) / 0.55, 0, 1) ** 1.5 * np.clip(s / 0.02, 0, 1)
            * np.clip((1.0 - s) / 0.15, 0, 1))
    hairs = cover * 0.9
    shade = np.where(hairs >= base, shade, FILL[1]).astype(np.float32)
    cover = np.maximum(hairs, base).astype(np.float32)
    cover[:, :1] = cover[:, -1:] = 0.0
    cover[:1, :] = cover[-1:, :] = 0.0
    return cover, shade


def _lean(s: float, across: float) -> float:
    """A hair's lean (degrees up from along the brow, towards the tail) at ``s`` along the brow (0 its head) and
    ``across`` it (-1 its lower edge, 1 its upper): upright and a little outward at the head; along the body the
    lower hairs lean up and out and the upper ones lie down and out, meeting along the brow's ridge (a brow's
    herringbone); lying along the tail, a little down (the tail's top comes down to its point)."""
    head = float(np.clip(1 - s / 0.2, 0, 1)) ** 0.8
    tail = float(np.clip((s - 0.6) / 0.3, 0, 1))
    body = 7 - 10 * across
    return head * 72 + (1 - head) * ((1 - tail) * body + tail * (-6 - 6 * across))


def _length(s: float) -> float:
    """A hair's length (mm) at ``s`` along the brow: short at the head, longest along the body, shorter to the tail."""
    return 3.2 + 4.0 * float(np.clip(s / 0.3, 0, 1)) - 2.5 * float(np.clip((s - 0.6) / 0.4, 0, 1))


def prepare() -> None:
    """Draw every brow's hairs before a first avatar needs them (:mod:`workbench.body.warm`)."""
    for style in SHAPES:
        _hairs(style)


@lru_cache(maxsize=16)
def brow_texture(hair: str, style: str, skin: str | None = None) -> np.ndarray:
    """RGBA (BROW_SIZE + (4,)) uint8: the hairs of brow ``style`` (a key of :data:`SHAPES`; a gender is its own) in
    :func:`brow_color` of ``hair`` (on ``skin``), alpha their cover."""
    cover, shade = _hairs(style)
    c = brow_color(hair, skin).lstrip("#")
    rgb = np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], np.float32) / 255
    out = np.empty(BROW_SIZE + (4,), np.uint8)
    out[..., :3] = np.clip(rgb * shade[..., None] * 255 + 0.5, 0, 255)
    out[..., 3] = np.clip(cover * 255 + 0.5, 0, 255)
    out.setflags(write=False)
    return out
