"""The eyes' look: a generated eyeball texture (sclera, iris, pupil, limbal ring, catchlight) and its UVs.

MakeHuman's eye helpers are low spheres (72 vertices each) whose own UVs use a 25-texel corner of
the body's layout, too small for an iris; :func:`eye_uvs` gives each eyeball a front projection
instead (the iris centred on the eye's forward axis). A planar projection is exact under linear
interpolation across flat triangles, so the iris stays round however coarse the sphere is.

The texture is the settings' ``eyeColor`` in the iris (no more saturated than :data:`MAX_SATURATION`; radial
fibres, a lighter collarette round the pupil, darker towards its rim), a dark limbal ring, an off-white sclera a
little greyer and warmer towards its edge and its corners, the upper lid's shade over the top of the eye
(:data:`LID_SHADE`: no renderer here casts it), and a catchlight up on the key light's side over the pupil's
edge, so the eyes look alive at 128 px. Its layers are drawn once (:func:`_layers`); a colour is one multiply-add. The
material's faint clear coat (:data:`CLEARCOAT`) is the eye's wet film in viewers that draw it.

>>> img = eye_texture()
>>> img.shape, img.dtype.name
((256, 256, 3), 'uint8')
>>> bool(img[128, 128].max() < 40)          # the pupil in the middle
True
>>> blue = eye_texture("#3A6EA5")[128, 160]        # the iris, between the pupil and the rim
>>> bool(blue[2] > blue[0]), bool(img[128, 160][0] > img[128, 160][2])
(True, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["EYE_SIZE", "IRIS", "CLEARCOAT", "ROUGHNESS", "IOR", "eye_texture", "eye_uvs", "lid_arc", "with_eye_uvs"]

EYE_SIZE = 256
# Radii as shares of the eyeball's radius: an adult's iris is 11.7 mm across, and MakeHuman's eyeball is larger than
# a real one's 24 mm (its radius 15 to 16 mm), so the iris is 0.38 of it, 11.7 mm at the default eyeSize (at a real
# eyeball's share, 0.49, it was 14.5 mm, filling 0.73 of the eye's opening across and hidden by the lids over 0.4 of
# its height: a doll's iris, squinting). The pupil a third of the iris across, as in room light.
IRIS = 0.38
PUPIL = 0.13
# How much of the texture's half width one eyeball radius spans (the rest is sclera).
SPAN = 0.95
# The sclera's albedo (sRGB) and the iris when the settings give none (contract section 4's default).
# (A touch below white: three.js's room, unshadowed by the lids, lit (0.86, 0.84, 0.8) to a glowing white under ACES,
# blind review F.)
SCLERA = (0.81, 0.79, 0.75)
# The most saturated an iris is drawn (HSV saturation; the settings' eyeColor keeps its hue and value).
MAX_SATURATION = 0.45
DEFAULT_IRIS = "#5B3A1E"
# The eyes' wet surface: a faint, mirror-smooth clear coat (KHR_materials_clearcoat), and under it an eyeball that
# reflects nothing at normal incidence (KHR_materials_ior 1.0) and is a little rough. Any stronger mirror showed
# three.js's and model-viewer's room (its ceiling light most) as a big white window over the pupil under ACES, the
# film's and the eyeball's reflections both saturating to white at any strength from a third of a dielectric's
# (blind review F, "the highlight covers the pupil"): the painted catchlights (GLINTS) are the small highlight, the
# coat a faint sheen of the room. Our renderer reads neither extension, and its highlight is the same for a roughness
# from 0 to 0.37.
CLEARCOAT = (0.15, 0.05)
ROUGHNESS = 0.3
IOR = 1.0
# The upper lid's shade on the eye (no renderer here casts it): the lid's edge at rest arcs over the eye at
# LID[0] - LID[1] * x ** 2 eyeball radii above its centre (x across, from the front), and the eye darkens towards
# it over LID_SHADE[0] radii, to 1 - LID_SHADE[1] at the edge (a flat white sclera up to the lid read as a staring
# eye, and one lit to its top as a sticker; blind review E). Over 0.16 radii (0.12 now, below), not 0.36:
# the smile's squint raises the lower lid over the sclera's lit half, and with 0.36 what it left was the shade, grey
# (blind review AB, "the squinted eyes turn grey and chrome-like": tests/render/test_smile_sclera_review_ab.py).
LID = (0.34, 0.7)
LID_SHADE = (0.12, 0.5)
# ... and that edge is each avatar's own (:func:`lid_arc`): its upper lid's lash roots, fitted as LID's arc, less
# LID_DROP radii, how far under its lash roots the lid's skin covers the eye from the front (the visible edge in a
# 1152 px portrait 0.09 to 0.12 radii under the roots' arc over the eye's middle, review AC's #1, #8, #9, #11). The lid
# moves with eyeSize and the gender's rest (details.LID_FOLLOW, EYES_WIDE: roots 0.22 to 0.35 radii up), and at
# LID's fixed 0.34 the shade's darkest lay under the lid on every face but the default feminine one, the edge seen
# getting a half of it or less: a lit white up to the lid, the eye stuck on (blind review AC's seventh defect).
LID_DROP = 0.08
# Where the edge was lowered to the lid's, its band was over 0.12 radii (1.8 mm; a person's shows some 1 to 2 mm) and to
# 0.5, not 0.16 and 0.6: the lid's arc comes down over the white beside the iris, what the smile's squint leaves, and
# there the wider, deeper band greyed the smile's whites 8 to 12 L* (review AB's #8 and #11, the test above). And it
# fades out across the eye from LID_SIDES[0] to LID_SIDES[1] radii, where the lid hugs the eyeball (its shadow is
# the overhang's, over the cornea): faded from 0.35 to 0.6 the whites' tops were as light as their bottoms, the eye
# under no lid again (review E's "the upper lid shades the eye", tests/render/test_eye_detail_review_e.py).
LID_SIDES = (0.5, 0.9)
# The catchlights (centre x, y down, in eyeball radii from the front; radius; strength): the key light's window up
# and to the figure's right of the pupil as seen, over the pupil's edge where it shows most, and a faint second.
# The first 0.1 radii (3 mm across), not 0.05: at 0.05 it was under a pixel in the sheets' 288 px portrait (one or no
# pixel of an iris as light as its white on most eyes, two at most), the eyes dull and "dead, no catchlight" (blind review AF's
# sixth defect); now 3 to 4 pixels, a clear spark in ours and three.js (tests/render/test_eye_alive_review_af.py).
GLINTS = ((-0.12, -0.1, 0.1, 1.0), (0.16, 0.1, 0.04, 0.5))


def eye_uvs(positions: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    """UVs (N, 2) of an eyeball's vertices: the front projection along +Z, the iris in the middle.

    >>> eye_uvs(np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]), np.zeros(3), 1.0).astype(float).round(3).tolist()
    [[0.5, 0.5], [0.975, 0.5]]
    """
    d = (np.asarray(positions, np.float64) - np.asarray(centre, np.float64)) / float(radius)
    u = 0.5 + 0.5 * SPAN * d[:, 0]
    v = 0.5 - 0.5 * SPAN * d[:, 1]
    return np.stack([u, v], 1).astype(np.float32)


def _smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def lid_arc(mesh) -> tuple[float, float]:
    """The upper lid's edge over the eye as seen from the front, (height, bend): at ``height - bend * x ** 2`` eyeball
    radii above the eye's centre (x across), both eyes' on average: their upper lash roots' arc (the least height of
    the ``eyelashes-2`` helper in each 0.12 radii across the middle 1.3, fitted) less :data:`LID_DROP`; to 0.01 (a
    few textures shared by many avatars)."""
    fits = []
    for side in "lr":
        eye = mesh.positions[mesh.groups[f"helper-{side}-eye"]].astype(np.float64)
        centre = eye.mean(0)
        radius = float(np.linalg.norm(eye - centre, axis=1).max())
        lash = (mesh.positions[mesh.groups[f"helper-{side}-eyelashes-2"]].astype(np.float64) - centre) / radius
        xs = [x for x in np.linspace(-0.6, 0.6, 11) if (np.abs(lash[:, 0] - x) < 0.06).any()]
        ys = [lash[np.abs(lash[:, 0] - x) < 0.06, 1].min() for x in xs]
        fits.append(np.linalg.lstsq(np.column_stack([np.ones(len(xs)), -np.square(xs)]), ys, rcond=None)[0])
    height, bend = np.mean(fits, 0)
    return round(float(height) - LID_DROP, 2), round(float(np.clip(bend, 0.3, 1.0)), 2)


@lru_cache(maxsize=8)
def _layers(arc: tuple[float, float] = (LID[0] - LID_DROP, LID[1])) -> tuple[np.ndarray, np.ndarray]:
    """The eyeball texture as ``a + b * iris`` (float32 (EYE_SIZE, EYE_SIZE, 3) and (EYE_SIZE, EYE_SIZE, 1)), the
    upper lid's shade under the edge ``arc`` (:func:`lid_arc`): every step below is linear in the iris colour, so
    a new colour is one multiply-add (1 ms), not a redraw."""
    n = EYE_SIZE
    y, x = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n * 2 - 1
    r = np.sqrt(x * x + y * y) / SPAN                 # in eyeball radii from the front
    a = np.arctan2(y, x)
    rng = np.random.default_rng(5)
    # Sclera: a clean warm white (a grey one read as a dull, tired eye under the lids' shade), greying a little
    # and warming towards the sides (hidden under the lids anyway).
    sclera = np.empty((n, n, 3), np.float32)
    sclera[:] = np.array(SCLERA, np.float32)
    sclera *= (1 - 0.1 * _smoothstep(0.55, 1.0, r))[..., None]
    sclera += np.array([0.04, -0.01, -0.02], np.float32) * _smoothstep(0.65, 1.0, r)[..., None]
    # ...and towards the corners, where the eyeball turns away under the lids, greyer and a little pink.
    side = _smoothstep(0.3, 0.85, np.abs(x) / SPAN)[..., None]
    sclera *= 1 - 0.22 * side
    sclera += np.array([0.03, -0.01, -0.01], np.float32) * side
    # Iris: radial fibres (a random phase per angle bin) over a ring that is darker at the rim and lighter
    # round the pupil (the collarette), as the colour's own shade.
    fibres = rng.random(180).astype(np.float32)
    bins = ((a + np.pi) / (2 * np.pi) * 180).astype(np.int64) % 180
    fib = fibres[bins] * 0.5 + fibres[(bins + 1) % 180] * 0.5
    t = np.clip(r / IRIS, 0, 1)
    # (About the colour's own brightness on average, not half as bright again: a lit amber iris at 1.2 of its
    # colour glowed yellow, a cat's; the fibres darker between them, the outer third darkening to the rim.)
    shade = 0.55 + 0.6 * fib ** 1.5 * (1 - 0.5 * t) + 0.25 * np.exp(-((t - 0.5) / 0.12) ** 2)
    iris = (shade * (1 - 0.55 * _smoothstep(0.65, 1.0, t)))[..., None]
    inside = _smoothstep(IRIS, IRIS - 0.03, r)[..., None]

    def finish(img: np.ndarray) -> np.ndarray:
        # The limbal ring: a soft dark edge around the iris; the pupil; the catchlights (up and to the figure's
        # right of the pupil as seen: the key light is front left above), the same on every colour.
        img = img * (1 - np.exp(-((r - IRIS) / 0.035) ** 2) * 0.82)[..., None]
        pupil = _smoothstep(PUPIL, PUPIL - 0.025, r)[..., None]
        img = img * (1 - pupil) + np.float32(0.015) * pupil
        # The upper lid's shade, over the iris as over the sclera (the catchlights, a reflection, lie over it),
        # and a little at the lower lid.
        up, lid = -y / SPAN, arc[0] - arc[1] * (x / SPAN) ** 2
        over = _smoothstep(LID_SIDES[1], LID_SIDES[0], np.abs(x) / SPAN)
        img = img * (1 - LID_SHADE[1] * _smoothstep(lid - LID_SHADE[0], lid, up) * over
                     - 0.12 * _smoothstep(-0.15, -0.32, up))[..., None]
        for cx, cy, rad, k in GLINTS:
            d = np.sqrt((x / SPAN - cx) ** 2 + (y / SPAN - cy) ** 2)
            glint = (_smoothstep(rad, rad * 0.55, d) * k)[..., None]
            img = img * (1 - glint) + glint
        return img

    a0 = finish(sclera * (1 - inside))                     # the colour black
    b = finish(sclera * (1 - inside) + iris * inside) - a0  # what one unit of every channel adds
    return a0.astype(np.float32), b[..., :1].astype(np.float32)


@lru_cache(maxsize=16)
def eye_texture(iris_color: str = DEFAULT_IRIS, lid: tuple[float, float] | None = None) -> np.ndarray:
    """The eyeball texture (EYE_SIZE, EYE_SIZE, 3) uint8 for :func:`eye_uvs`, its iris ``iris_color``
    ('#RRGGBB', the settings' ``eyeColor``), the lid's shade under ``lid`` (the avatar's :func:`lid_arc`; by
    default :data:`LID`'s, less :data:`LID_DROP`)."""
    c = iris_color.lstrip("#")
    rgb = np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], np.float32) / 255
    # Its hue and brightness kept, its saturation at most MAX_SATURATION (an iris's pigment is never a pure
    # colour; a saturated amber read as a glowing yellow).
    top = float(rgb.max())
    rgb = top - (top - rgb) * min(1.0, MAX_SATURATION * top / max(top - float(rgb.min()), 1e-6))
    a, b = _layers() if lid is None else _layers(lid)
    out = np.clip((a + b * rgb) * 255 + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def with_eye_uvs(mesh, p):
    """The ``Eyes`` piece (both eyeballs, cut from ``mesh``) with :func:`eye_uvs` instead of MakeHuman's UVs;
    each vertex is projected about its own eyeball's centre (``source`` tells which helper it came from)."""
    from dataclasses import replace

    uv = np.zeros((len(p.positions), 2), np.float32)
    for side in ("l", "r"):
        group = mesh.groups[f"helper-{side}-eye"]
        centre = mesh.positions[group].astype(np.float64).mean(0)
        radius = float(np.linalg.norm(mesh.positions[group] - centre, axis=1).max())
        mine = np.isin(p.source, group)
        uv[mine] = eye_uvs(mesh.positions[p.source[mine]], centre, radius)
    return replace(p, uv=uv)


# The eyeball as a sphere, for what must stay off it (the smile's lower lids: expressions.smileLids).
def eyeball_sphere(points: np.ndarray) -> tuple[np.ndarray, float]:
    """The sphere (centre, radius) nearest an eye's vertices (least squares; the cornea's bulge aside, within
    0.6 mm of them)."""
    a = np.column_stack([2 * points, np.ones(len(points))])
    x = np.linalg.lstsq(a, (points * points).sum(1), rcond=None)[0]
    return x[:3], float(np.sqrt(x[3] + x[:3] @ x[:3]))


def in_front_of_sphere(p: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    """How far each point lies in front of (+z) the sphere's front surface at its x, y (large off the sphere)."""
    rho2 = (p[:, 0] - centre[0]) ** 2 + (p[:, 1] - centre[1]) ** 2
    return np.where(rho2 < radius * radius, p[:, 2] - centre[2] - np.sqrt(np.maximum(radius * radius - rho2, 0)),
                    np.nan)
