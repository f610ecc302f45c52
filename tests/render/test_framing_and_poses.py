"""How the avatars look: portrait framing, one framing per sequence, the turntable's pose, no
trousers through the shirt in any clip, five skinned fingers, an idle clip that moves.

Measured on real avatars through the public renderer (``render``, ``render_preview``,
``turntable``, ``pose_sequence``) and the public GLB builder.
"""

import io
from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import sweep
from PIL import Image

from workbench.body.mesh import body_mesh
from workbench.body.outfit.pattern import pattern
from workbench.gltf.clips import clip as library_clip
from workbench.options import ANIMATIONS, BODY_SHAPES, ModelOptions, PreviewOptions, normalize_avatar_settings
from workbench.render import pose_sequence, render, render_preview, turntable
from workbench.render.framing import frame
from workbench.render.scene import Model


@cache
def avatar(gender="feminine", shape="average", hair="none", glasses="none", lod=0) -> bytes:
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "hair": {"style": hair},
                                          "glasses": glasses})
    # With the idle clip, as the look tests build these bodies (the pictures here pose the library's clips by name,
    # never the file's): one build per run shared with them (suite42).
    return build_avatar(settings, ModelOptions(lod=lod, animations=("idle",)))


def _alpha(im) -> np.ndarray:
    return np.asarray(im)[..., 3] > 127


def _project(cam, point, size) -> tuple[float, float]:
    """Pixel (x, y) of a world point seen by ``cam`` in a ``size`` image."""
    f = 1 / np.tan(np.radians(cam.fov_deg) / 2)
    p = cam.view[:3, :3] @ np.asarray(point, float) + cam.view[:3, 3]
    return (0.5 + 0.5 * f * p[0] / -p[2]) * size, (0.5 - 0.5 * f * p[1] / -p[2]) * size


# --------------------------------------------------------------------------
# Framing
# --------------------------------------------------------------------------

# Every gender and shape in the quick loop, their every pairing in the whole suite (helpers.sweep).
@pytest.mark.parametrize("gender,shape", sweep((g, s) for g in ("feminine", "masculine") for s in BODY_SHAPES))
def test_portrait_is_head_and_shoulders(gender, shape):
    """Eyes 35-45% from the top, centred; the head 40-60% of the width at the eyes' row."""
    size = 256
    glb = avatar(gender, shape)
    im = render(glb, size=size, camera="portrait")
    cam = frame(Model(glb).posed(), "portrait")
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape})
    mesh = body_mesh(settings)
    ex, ey = _project(cam, mesh.positions[mesh.groups["helper-l-eye"]].mean(0), size)
    ex2, _ = _project(cam, mesh.positions[mesh.groups["helper-r-eye"]].mean(0), size)
    assert 0.35 * size <= ey <= 0.45 * size
    assert abs((ex + ex2) / 2 - size / 2) < 0.03 * size
    row = np.nonzero(_alpha(im)[int(ey)])[0]
    width = row.max() - row.min() + 1
    assert 0.40 * size <= width <= 0.60 * size
    assert abs((row.max() + row.min()) / 2 - size / 2) < 0.03 * size
    # Shoulders: the bottom row is covered from edge to edge... nearly (the body goes on below).
    assert _alpha(im)[-1].mean() > 0.7


@pytest.mark.parametrize("hair", ["long", "bun", "curly"])
def test_preview_portrait_in_idle_pose_keeps_the_head_centred(hair):
    """As the service renders it (idle pose): the face's middle column holds the head, centred."""
    glb = avatar("feminine", "average", hair)
    png = render_preview(glb, PreviewOptions(size=128, camera="portrait"), pose=("idle", 0.0))
    a = _alpha(Image.open(io.BytesIO(png)))
    rows = np.nonzero(a[:, 64])[0]
    # The head's top near the top (0.2 until the portrait kept framing.TOP_MARGIN, 0.10, over the hair: the curls'
    # middle column now starts 0.203 down).
    assert rows.min() < 0.25 * 128
    row = np.nonzero(a[int(0.4 * 128)])[0]
    assert abs((row.max() + row.min()) / 2 - 64) < 0.04 * 128
    # With hair: wider, not cut (the frame grows to keep a margin round big hair: the head a little smaller).
    assert 0.35 * 128 <= row.max() - row.min() + 1 <= 0.75 * 128


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_full_keeps_a_constant_margin(gender):
    """Head to toe with the same margin above and below, the same for every body shape."""
    margins = []
    for shape in ("slim", "heavy"):
        a = _alpha(render(avatar(gender, shape), size=200, camera="full", pose=("idle", 0.0)))
        ys = np.nonzero(a.any(1))[0]
        margins.append((ys.min(), 199 - ys.max()))
    for top, bottom in margins:
        assert 0.03 * 200 <= top <= 0.10 * 200 and 0.03 * 200 <= bottom <= 0.10 * 200
        assert abs(top - bottom) <= 3
    assert abs(margins[0][0] - margins[1][0]) <= 3


# --------------------------------------------------------------------------
# One pose for turntables and previews; one framing for a sequence
# --------------------------------------------------------------------------

def _bbox(a):
    ys, xs = np.nonzero(a)
    return xs.min(), ys.min(), xs.max(), ys.max()


def test_turntable_shows_the_preview_pose():
    glb = avatar("masculine")
    first = Image.open(io.BytesIO(turntable(glb, frames=4, size=128, fmt="png")))
    first.seek(0)
    x0, y0, x1, y1 = _bbox(_alpha(first.convert("RGBA")))
    preview = Image.open(io.BytesIO(render_preview(glb, PreviewOptions(size=128, camera="full"),
                                                   pose=("idle", 0.0))))
    px0, py0, px1, py1 = _bbox(_alpha(preview))
    # The same pose: the same aspect of the figure (a T-pose is about as wide as it is tall).
    aspect, preview_aspect = (x1 - x0) / (y1 - y0), (px1 - px0) / (py1 - py0)
    assert abs(aspect - preview_aspect) < 0.03
    tpose = Image.open(io.BytesIO(turntable(glb, frames=4, size=128, fmt="png", pose=None)))
    tx0, ty0, tx1, ty1 = _bbox(_alpha(tpose.convert("RGBA")))
    assert (tx1 - tx0) / (ty1 - ty0) > aspect + 0.3


@pytest.mark.parametrize("camera", ["full", "portrait"])
def test_a_clip_sequence_keeps_one_framing(camera):
    """While the avatar waves, the head keeps its size and place in a sequence; framed one by
    one, the raised arm changes the full framing and the figure jumps in size."""
    glb = avatar("feminine")
    times = [0.0, 0.5, 1.0]
    seq = pose_sequence(glb, "wave", times, size=128, camera=camera)
    singles = [render(glb, size=128, camera=camera, pose=("wave", t)) for t in times]

    def head(im):
        # The head's top and the feet (full) or the head's top and the chin (portrait),
        # along the middle column; the raised hand is off to the side.
        col = np.nonzero(_alpha(im)[:, 60:68].any(1))[0]
        return col.min(), (np.nonzero(_alpha(im).any(1))[0].max() if camera == "full" else col.max())

    tops = [head(im) for im in seq]
    assert max(t for t, _ in tops) - min(t for t, _ in tops) <= 1
    assert max(b for _, b in tops) - min(b for _, b in tops) <= 1
    if camera == "full":
        spans = [b - t for t, b in (head(im) for im in singles)]
        assert max(spans) - min(spans) >= 4


# --------------------------------------------------------------------------
# The idle clip
# --------------------------------------------------------------------------

@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_idle_breathes_and_shifts_its_weight(gender):
    """Some joint turns by more than 0.15 rad over the clip (it was 0.048 rad), the chest
    breathes, and the hips move sideways by more than 2 cm on a 1.7 m avatar."""
    c = library_clip("idle", gender)

    def swing(joint):
        q = c.rotations[joint]
        return float((2 * np.arccos(np.clip(np.abs(q @ q[0]), 0, 1))).max())
    assert max(swing(j) for j in c.rotations) > 0.15
    assert swing("Spine1") > 0.04
    assert np.ptp(c.hips_offset[:, 0]) * 0.53 * 1.7 > 0.02


# --------------------------------------------------------------------------
# Shirt over trousers in every clip
# --------------------------------------------------------------------------
#
# The rule, on the skinned meshes as the renderer poses them: every point of the trousers'
# surface that the shirt covers in the rest pose stays inside the shirt in every frame.
# Points: the trousers' vertices and three points along each edge near the waist (an edge
# from a covered vertex to one below the hem crosses the hem: the spikes). Covered: the
# point's rest height lies between the shirt's hem plus 0.2% of the height and 0.60 of the
# height. Inside: behind the shirt's surface, i.e. for one of the 3 nearest vertices of the
# shirt's lower body (rest height below 0.65 of the height; no sleeves there) the offset
# to the point has a component along that vertex's outward normal of at most 1.5 mm for
# 1.7 m (the shirt's own facets), or the same along the face normal from the nearest point of
# one of the 3 nearest triangles. Triangles too: the hem is cut along a level line, so its last
# row of vertices is dense and the next row up can be 3 cm away; judged only by those vertices'
# tangent planes, a point 2 cm above the hem read as outside when the hips bent, though it was
# 0.6 mm inside the surface. (Not triangles only: at the back's seam the helper has a few
# triangles standing edge-on, whose face normals say nothing.) One of three, not only the nearest: where the shirt
# folds over itself in a crouch, being behind any nearby layer is being covered. Skinning
# is linear per vertex, as is the rasterizer along an edge, so an edge point moves with
# the blend of its ends.

EDGE_T = np.array([0.25, 0.5, 0.75])
NEAREST = 3
CANDIDATES = 10      # triangles (by centre) among which the nearest three are found


def _edge_points(positions: np.ndarray, tris: np.ndarray, keep: np.ndarray):
    """Edge samples (a, b, t) of the triangles that touch ``keep`` vertices."""
    t = tris[keep[tris].any(1)]
    edges = np.unique(np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1), axis=0)
    return (np.repeat(edges[:, 0], len(EDGE_T)), np.repeat(edges[:, 1], len(EDGE_T)),
            np.tile(EDGE_T, len(edges)))


def _sample(positions, a, b, w):
    return np.concatenate([positions, positions[a] * (1 - w)[:, None] + positions[b] * w[:, None]])


def _nearest_on_triangles(p, a, b, c):
    """The nearest point to each ``p`` on the triangle (a, b, c) with the same index (all (..., 3)) and the
    squared distance: the projection when it falls inside, else the nearest point of the nearest edge."""
    n = np.cross(b - a, c - a)
    nn = np.maximum((n * n).sum(-1), 1e-30)
    q = p - (((p - a) * n).sum(-1) / nn)[..., None] * n
    u = (np.cross(b - q, c - q) * n).sum(-1) / nn          # barycentric weights of a and b
    v = (np.cross(c - q, a - q) * n).sum(-1) / nn
    best = q
    best_d = np.where((u >= 0) & (v >= 0) & (u + v <= 1), ((p - q) ** 2).sum(-1), np.inf)
    for s, e in ((a, b), (b, c), (c, a)):
        t = np.clip(((p - s) * (e - s)).sum(-1) / np.maximum(((e - s) ** 2).sum(-1), 1e-30), 0, 1)
        x = s + (e - s) * t[..., None]
        d = ((p - x) ** 2).sum(-1)
        best = np.where((d < best_d)[..., None], x, best)
        best_d = np.minimum(d, best_d)
    return best, best_d


def _behind_triangles(P, corners):
    """Each point's least offset along the face normal from the nearest point of its 3 nearest triangles."""
    from scipy.spatial import cKDTree

    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-30)
    near = cKDTree(corners.mean(1)).query(P, CANDIDATES)[1]
    x, d = _nearest_on_triangles(P[:, None, :], corners[near, 0], corners[near, 1], corners[near, 2])
    pick = np.argsort(d, axis=1)[:, :NEAREST]
    x = np.take_along_axis(x, pick[..., None], axis=1)
    return np.einsum("pkc,pkc->pk", P[:, None, :] - x, normal[np.take_along_axis(near, pick, axis=1)]).min(1)


@cache
def _trousers_under_shirt(glb: bytes, height: float):
    """What every clip's check of ``glb`` reads at rest, made once a model (the 18 clips' tests share it): the model,
    the shirt's outside vertices and triangles below the chest, and the trousers' points the shirt covers."""
    model = Model(glb)
    rest = {d.mesh_name: d for d in model.posed().draws}
    # The shirt's outside (its first vertices): its rolled hem and the facing turned in under it come after, and
    # a facing's normals face in, so trousers a loose hem hangs 3 cm clear of read as outside the facing.
    shell = np.arange(len(rest["Outfit_Top"].positions)) < len(pattern("tee")["vmap"])
    shirt_keep = (rest["Outfit_Top"].positions[:, 1] < 0.65 * height) & shell
    shirt_tris = rest["Outfit_Top"].tris[shirt_keep[rest["Outfit_Top"].tris].all(1)]
    trousers = rest["Outfit_Bottom"]
    # The shirt's hem: its lowest point at rest, as a share of the height.
    hem = float(rest["Outfit_Top"].positions[:, 1].min()) / height
    y = trousers.positions[:, 1]
    a, b, w = _edge_points(trousers.positions, trousers.tris, (y > (hem - 0.04) * height) & (y < 0.62 * height))
    y = _sample(trousers.positions, a, b, w)[:, 1]
    covered = (y > (hem + 0.006) * height) & (y < 0.60 * height)
    return model, shirt_keep, shirt_tris, (a, b, w), covered


@pytest.fixture(scope="module", autouse=True)
def _forget_models():
    """The models the clips' checks shared (decoded textures and all) are let go when the module ends."""
    yield
    _trousers_under_shirt.cache_clear()


def _covered_trousers_outside(glb: bytes, height: float, clip_name, times) -> list[tuple[float, float]]:
    """(time, worst outward offset in metres) for each frame with a covered trouser point outside the shirt."""
    from scipy.spatial import cKDTree

    model, shirt_keep, shirt_tris, edges, covered = _trousers_under_shirt(glb, height)
    # Enough points to judge by (the short-sleeved shirt at LOD 2 keeps ~100 below the chest).
    assert covered.sum() > 100 and shirt_keep.sum() > 60
    clip = _clip(clip_name, glb) if clip_name else None
    bad = []
    for t in times:
        draws = {d.mesh_name: d for d in model.posed(clip, float(t)).draws}
        S = draws["Outfit_Top"].positions[shirt_keep].astype(np.float64)
        N = draws["Outfit_Top"].normals[shirt_keep].astype(np.float64)
        P = _sample(draws["Outfit_Bottom"].positions.astype(np.float64), *edges)[covered]
        # Each point's NEAREST shirt vertices (a k-d tree: the full table of distances took a quarter of the test)
        nearest = cKDTree(S).query(P, NEAREST)[1]
        out = np.einsum("pkc,pkc->pk", P[:, None, :] - S[nearest], N[nearest]).min(1)
        out = np.minimum(out, _behind_triangles(P, draws["Outfit_Top"].positions.astype(np.float64)[shirt_tris]))
        worst = float(out.max())
        if worst > 0.0015 * height / 1.7:
            bad.append((round(float(t), 3), round(worst, 4)))
    return bad


def _clip(name, glb):
    from workbench.render.pictures import _closest_gender_clip
    return _closest_gender_clip(Model(glb), name)


# Slow by nature (about 30 s: 18 clips x 6 frames x 2 avatars, each posed whole at LOD 0):
# the extremes only, the slimmest feminine and the heaviest masculine build, whose hems and
# waists differ most; every build passed the same check at 7 frames per clip when written.
# The quick loop keeps the idle clip; the others are slow.
@pytest.mark.parametrize("name", [pytest.param(a, marks=() if a == "idle" else pytest.mark.slow) for a in ANIMATIONS])
def test_no_trousers_through_the_shirt_in_any_clip(name):
    from workbench.gltf.clips import DURATIONS
    times = DURATIONS[name] * np.arange(6) / 6
    for gender, shape, height in (("feminine", "slim", 1.66), ("masculine", "heavy", 1.78)):
        assert _covered_trousers_outside(avatar(gender, shape), height, name, times) == [], (gender, shape)


def test_the_interpenetration_check_sees_trousers_over_the_shirt():
    """The check fails a shirt whose hem is too tight: the same avatar with its shirt pulled in
    under the trousers' surface, so the trousers' waist stands out through it."""
    from dataclasses import replace

    from workbench.body.outfit import STYLES, fit
    from workbench.gltf import build_avatar as build_patched  # built under a patch: never the run's shared build
    # A height no other test uses, so no cached mesh stands in for the tight one; the shirt under its
    # helper's surface and not pushed out over the trousers.
    settings = normalize_avatar_settings({"gender": "feminine", "bodyShape": "slim", "hair": {"style": "none"},
                                          "height": 163})
    real, over = STYLES["tee"], fit.over
    STYLES["tee"] = replace(real, lift=-0.004, torso=None)
    fit.over = lambda p, *args, **kw: p
    try:
        glb = build_patched(settings, ModelOptions(lod=2))
    finally:
        STYLES["tee"], fit.over = real, over
    assert _covered_trousers_outside(glb, 1.63, None, [0.0])



def _skin_in_front_of_the_shirt(posed, yaw_deg: float) -> int:
    """Pixels of a portrait from ``yaw_deg`` (180 = from behind) where the body shows inside the shirt's
    silhouette: drawn with and without the body, the shirt's opaque pixels (2 px in from its edge) must not
    change. ``posed`` is the avatar in its own idle clip at a time, as the contact sheets pose it. The shirt is
    drawn one-sided here: it hangs loose, and through a sleeve's opening the arm inside it shows, where
    the shirt alone shows the sleeve's inside."""
    from dataclasses import replace

    from scipy import ndimage

    from workbench.render.pictures import _pivot, _turned
    from workbench.render.raster import draw
    from workbench.render.scene import Posed

    posed = _turned(posed, yaw_deg, _pivot(posed))
    cam = frame(posed, "portrait")
    # The shirt's outside only: through the neck's opening the collar's facing (turned in, its outside facing in)
    # shows on the far side in the shirt alone, where the neck rightly hides it.
    shell = len(pattern("tee")["vmap"])
    posed.draws[:] = [replace(d, material=replace(d.material, double_sided=False), tris=d.tris[(d.tris < shell).all(1)])
                      if d.mesh_name == "Outfit_Top" else d for d in posed.draws]

    def only(names):
        return Posed(draws=[d for d in posed.draws if d.mesh_name in names], joints=posed.joints, joint_names=set())

    both = draw(only({"Body", "Outfit_Top"}), cam, 256).astype(int)
    shirt = draw(only({"Outfit_Top"}), cam, 256).astype(int)
    inside = ndimage.binary_erosion(shirt[..., 3] == 255, iterations=2)
    return int((inside & (np.abs(both[..., :3] - shirt[..., :3]).max(-1) > 30)).sum())


# Every gender and shape in the quick loop, their every pairing in the whole suite (helpers.sweep).
@pytest.mark.parametrize("gender,shape", sweep((g, s) for g in ("feminine", "masculine") for s in BODY_SHAPES))
def test_no_skin_through_the_shirt_on_the_back_in_the_idle_clip(gender, shape):
    """Seen from behind and from either back quarter through the idle clip, no skin shows through the shirt.
    The lead saw a skin-coloured patch over the masculine right shoulder blade on the hair sheet
    (162 pixels here with the shirt 8 mm off the skin)."""
    glb = build_avatar(normalize_avatar_settings({"gender": gender, "bodyShape": shape, "hair": {"style": "none"}}),
                       ModelOptions(animations=("idle",)))
    from workbench.render.scene import load_clip

    # The model read and posed once for each time, turned for each view (it was read and posed again for each).
    model, clip = Model(glb), load_clip(glb)
    at = {t: model.posed(clip, t) for t in (0.0, 1.0, 2.0)}
    seen = {(t, yaw): _skin_in_front_of_the_shirt(at[t], yaw) for t in at for yaw in (140, 180, 220)}
    # A few pixels of anti-aliasing where the shirt's edge crosses its own folds.
    assert max(seen.values()) <= 5, seen


# --------------------------------------------------------------------------
# Hands
# --------------------------------------------------------------------------

def test_five_fingers_skinned_to_their_joints():
    """Each finger of each hand has vertices led by each of its three joints, and a clip that
    curls the fingers (thumbs up) draws the right hand's fingertips in towards the wrist."""
    from workbench.skeleton import FINGERS
    glb = avatar("masculine")
    model = Model(glb)
    node = next(n for n in model.doc["nodes"] if n.get("name") == "Body")
    prim = model.doc["meshes"][node["mesh"]]["primitives"][0]
    joints = model.accessor(prim["attributes"]["JOINTS_0"]).astype(int)
    weights = model.accessor(prim["attributes"]["WEIGHTS_0"])
    skin = model.doc["skins"][node["skin"]]["joints"]
    lead = np.array([model.names[skin[j]] for j in joints[np.arange(len(joints)), weights.argmax(1)]])
    for side in ("Left", "Right"):
        for f in FINGERS:
            for k in (1, 2, 3):
                assert (lead == f"{side}Hand{f}{k}").sum() >= 20, (side, f, k)
    rest = {d.mesh_name: d for d in model.posed().draws}["Body"].positions
    clip = _clip("thumbs_up", glb)
    posed = model.posed(clip, 1.0)
    bent = {d.mesh_name: d for d in posed.draws}["Body"].positions
    wrist_rest = Model(glb).posed().joints["RightHand"]
    for f in ("Index", "Middle", "Ring", "Pinky"):
        tip = lead == f"RightHand{f}3"
        before = np.linalg.norm(rest[tip].mean(0) - wrist_rest)
        after = np.linalg.norm(bent[tip].mean(0) - posed.joints["RightHand"])
        assert after < 0.8 * before, f


# slow: every combination at LOD 0; the quick loop keeps tests/gltf/test_avatar.py::test_triangle_budget_and_lod_ratios
@pytest.mark.slow
def test_lod0_stays_within_its_triangle_budget_for_every_combination():
    """The MakeHuman body, its face meshes, the hair's cards, the clothes and glasses stay within LOD 0's
    budget for every gender, body shape, hair style and kind of glasses, in the default outfit and the largest
    (a hoodie, a skirt and boots) (geometry only, no GLB written).
    (Cards made long hair and curls about 11,000 triangles: 46,000, where the shells' stand-in hair kept
    to 40,000; the clothes' finished edges, the hood, the skirt's folds and laced shoes add up to 3,000. Blind
    review E's passes: long hair in narrower locks, 13,200 -> 16,900, curls over an inner layer, 8,300 -> 15,300:
    52,400 at most, hence 54,000; the GLB with every clip stays under the issue's 6 MB.)"""
    from workbench.gltf.meshes import triangle_count
    from workbench.options import GLASSES, HAIR_STYLES
    largest = {"topStyle": "hoodie", "bottomStyle": "skirt", "shoeStyle": "boots"}
    counts = [triangle_count(normalize_avatar_settings({"gender": g, "bodyShape": b, "hair": {"style": h},
                                                        "glasses": gl, "outfit": o}), 0)
              for g in ("feminine", "masculine") for b in BODY_SHAPES for h in HAIR_STYLES for gl in GLASSES
              for o in ({}, largest)]
    assert 20_000 <= min(counts) and max(counts) < 54_000
