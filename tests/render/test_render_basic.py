"""Renderer pixel tests on the generated product and the tiny skinned rig (no avatar needed)."""

import io

import numpy as np
from PIL import Image

from workbench.gltf.glb import GlbWriter, read_glb
from workbench.options import PreviewOptions
from workbench.regeneration.product import build_product_glb, png_bytes
from workbench.render import grid, pose_image, render, render_preview, turntable
from workbench.render.scene import Model, load_clip
from workbench.render.testing import tiny_clip_glb, tiny_rig_glb


def _alpha_box(im):
    a = np.asarray(im)[..., 3]
    ys, xs = np.nonzero(a > 0)
    return xs.min(), ys.min(), xs.max(), ys.max()


def test_sizes_and_mode():
    glb = build_product_glb("sizes")
    for size in (32, 64, 256):
        im = render(glb, size=size, camera="full")
        assert im.size == (size, size)
        assert im.mode == "RGBA"


def test_transparent_corners_and_opaque_background():
    glb = build_product_glb("corners")
    im = np.asarray(render(glb, size=128, camera="full"))
    for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        assert im[y, x, 3] == 0
    assert im[..., 3].max() == 255
    im = np.asarray(render(glb, size=128, camera="full", background=(10, 200, 30)))
    assert (im[..., 3] == 255).all()
    assert tuple(im[0, 0]) == (10, 200, 30, 255)


def test_full_framing_keeps_margin_and_fills_height():
    im = render(build_product_glb("frame"), size=256, camera="full")
    x0, y0, x1, y1 = _alpha_box(im)
    assert x0 > 0 and y0 > 0 and x1 < 255 and y1 < 255
    assert (y1 - y0) > 0.75 * 256


def test_portrait_without_joints_shows_top_of_bounds():
    # A tall column, no skin: the portrait shows its top, cut at the bottom edge.
    b = GlbWriter()
    p = np.array([[x, y, z] for y in (0, 2) for x in (-0.1, 0.1) for z in (-0.1, 0.1)], np.float32)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    t = [(a, b_, c) for a, b_, c, d in faces] + [(a, c, d) for a, b_, c, d in faces]
    m = b.mesh("Column", [b.primitive(positions=p, indices=np.array(t), material=b.material("c", (1, 0, 0, 1),
                                                                                          double_sided=True))])
    b.scene([b.node("Column", mesh=m)])
    im = render(b.to_bytes(), size=128, camera="portrait")
    x0, y0, x1, y1 = _alpha_box(im)
    assert y1 == 127          # cut by the bottom edge
    assert 0 < y0 < 40        # the top is inside the frame, in the upper part


def test_render_preview_is_deterministic_png():
    glb = build_product_glb("det")
    opts = PreviewOptions(size=64, camera="full", background=None)
    a, b = render_preview(glb, opts), render_preview(glb, opts)
    assert a == b
    im = Image.open(io.BytesIO(a))
    assert im.format == "PNG" and im.size == (64, 64) and im.mode == "RGBA"
    opaque = Image.open(io.BytesIO(render_preview(glb, PreviewOptions(size=32, camera="full", background=(1, 2, 3)))))
    assert opaque.mode == "RGBA" and opaque.getpixel((0, 0)) == (1, 2, 3, 255)
    assert np.asarray(opaque)[..., 3].min() == 255


def test_texture_colour_reaches_pixels():
    # A quad facing the camera with a pure blue texture and a white factor must come out blue.
    b = GlbWriter()
    tex = b.texture(png_bytes(np.tile(np.array([0, 0, 255], np.uint8), (8, 8, 1))))
    mat = b.material("blue", texture=tex)
    p = np.array([[-1, 0, 0], [1, 0, 0], [1, 2, 0], [-1, 2, 0]], np.float32)
    n = np.tile([0, 0, 1], (4, 1))
    uv = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)
    m = b.mesh("Quad", [b.primitive(positions=p, normals=n, uv=uv, indices=[0, 1, 2, 0, 2, 3], material=mat)])
    b.scene([b.node("Quad", mesh=m)])
    im = np.asarray(render(b.to_bytes(), size=64, camera="full")).astype(int)
    c = im[32, 32]
    # Blue from the texture; red and green only from the white specular highlight.
    assert c[3] == 255 and c[2] > 100 and c[2] > 3 * c[0] and c[2] > 3 * c[1]


def test_back_faces_are_culled_unless_double_sided():
    def quad(double):
        b = GlbWriter()
        p = np.array([[-1, 0, 0], [1, 0, 0], [1, 2, 0], [-1, 2, 0]], np.float32)
        # Clockwise seen from +Z, where the camera is: a back face.
        m = b.mesh("Q", [b.primitive(positions=p, indices=[0, 2, 1, 0, 3, 2],
                                     material=b.material("m", (1, 1, 1, 1), double_sided=double))])
        b.scene([b.node("Q", mesh=m)])
        return b.to_bytes()
    assert np.asarray(render(quad(False), size=32, camera="full"))[..., 3].max() == 0
    assert np.asarray(render(quad(True), size=32, camera="full"))[16, 16, 3] == 255


def test_nearer_surface_wins_depth_test():
    b = GlbWriter()
    red, green = b.material("r", (1, 0, 0, 1)), b.material("g", (0, 1, 0, 1))
    def quad(z, s):
        return np.array([[-s, -s, z], [s, -s, z], [s, s, z], [-s, s, z]], np.float32)
    # Green (nearer, smaller) listed first, red behind it listed last: order must not matter.
    m = b.mesh("Q", [b.primitive(positions=quad(0.5, 0.5), indices=[0, 1, 2, 0, 2, 3], material=green),
                     b.primitive(positions=quad(0.0, 1.0), indices=[0, 1, 2, 0, 2, 3], material=red)])
    b.scene([b.node("Q", mesh=m)])
    im = np.asarray(render(b.to_bytes(), size=64, camera="full")).astype(int)
    assert im[32, 32, 1] > im[32, 32, 0]
    assert im[3, 32, 0] > im[3, 32, 1] or im[6, 6, 0] > im[6, 6, 1]


def test_edges_are_anti_aliased():
    im = np.asarray(render(build_product_glb("aa"), size=128, camera="full"))
    a = im[..., 3]
    partial = ((a > 0) & (a < 255)).sum()
    assert partial > 50  # a hard-edged render would have none


def test_pose_moves_skinned_vertices():
    model = Model(tiny_rig_glb())
    rest = model.posed().points()
    bent = model.posed(load_clip(tiny_clip_glb()), 1.0).points()
    assert rest[:, 1].max() > 0.99 and bent[:, 1].max() < 0.6
    # STEP interpolation: Root's translation jumps at 0.5 s, not before.
    low = rest[:, 1] < 0.3  # bound to Root only
    before = model.posed(load_clip(tiny_clip_glb()), 0.49).points()[low]
    after = model.posed(load_clip(tiny_clip_glb()), 0.5).points()[low]
    np.testing.assert_allclose(before, rest[low], atol=1e-6)
    np.testing.assert_allclose(after - rest[low], np.tile([0.2, 0, 0], (low.sum(), 1)), atol=1e-6)
    a = np.asarray(pose_image(tiny_rig_glb(), tiny_clip_glb(), 0.0, size=64))
    b = np.asarray(pose_image(tiny_rig_glb(), tiny_clip_glb(), 1.0, size=64))
    assert not np.array_equal(a, b)


def test_yaw_turns_the_model():
    glb = tiny_rig_glb()
    a = np.asarray(render(glb, size=64, camera="full", pose=(tiny_clip_glb(), 1.0)))
    b = np.asarray(render(glb, size=64, camera="full", pose=(tiny_clip_glb(), 1.0), yaw_deg=90))
    assert _alpha_box(a) != _alpha_box(b)


def test_turntable_gif_and_apng():
    glb = tiny_rig_glb()  # a square column: every frame differs (a turned vase would not)
    gif = Image.open(io.BytesIO(turntable(glb, frames=6, size=48)))
    assert gif.format == "GIF" and gif.n_frames == 6 and gif.size == (48, 48)
    png = Image.open(io.BytesIO(turntable(glb, frames=4, size=48, fmt="png", background=(255, 255, 255))))
    assert png.format == "PNG" and png.n_frames == 4


def test_grid_lays_out_and_labels():
    tile = Image.new("RGBA", (40, 30), (255, 0, 0, 255))
    g = grid([[tile, tile, tile], [tile]], row_labels=["one", "two"], col_labels=["a", "b", "c"])
    assert g.width >= 120 and g.height >= 60
    arr = np.asarray(g)
    # Labels are dark text on white, tiles are red.
    assert (arr[..., 0] < 80).any()
    assert ((arr[..., 0] == 255) & (arr[..., 1] == 0)).sum() == 4 * 40 * 30


def test_read_glb_rejects_non_glb():
    try:
        read_glb(b"not a glb at all....")
    except ValueError as e:
        assert "GLB" in str(e)
    else:
        raise AssertionError("read_glb accepted garbage")


def _quads(front_mat, back_mat, builder):
    def quad(z, s):
        return np.array([[-s, -s, z], [s, -s, z], [s, s, z], [-s, s, z]], np.float32)
    n = np.tile([0, 0, 1], (4, 1))
    return builder.mesh("Q", [builder.primitive(positions=quad(0.0, 1.0), normals=n, indices=[0, 1, 2, 0, 2, 3], material=back_mat),
                              builder.primitive(positions=quad(0.3, 0.5), normals=n, indices=[0, 1, 2, 0, 2, 3], material=front_mat)])


def test_blended_material_shows_what_is_behind_it():
    b = GlbWriter()
    glass = b.material("glass", (0, 0, 1, 0.5), blend=True)
    wall = b.material("wall", (1, 0, 0, 1))
    b.scene([b.node("Q", mesh=_quads(glass, wall, b))])
    im = np.asarray(render(b.to_bytes(), size=64, camera="full")).astype(int)
    centre, edge = im[32, 32], im[8, 32]
    assert centre[3] == 255
    assert centre[2] > 40 and centre[0] > 40        # blue glass over red wall: both show
    assert edge[2] < edge[0] // 3                    # outside the glass: red only
    # Alone, the glass is half transparent.
    b = GlbWriter()
    glass = b.material("glass", (0, 0, 1, 0.5), blend=True)
    p = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
    b.scene([b.node("G", mesh=b.mesh("G", [b.primitive(positions=p, indices=[0, 1, 2, 0, 2, 3], material=glass)]))])
    a = np.asarray(render(b.to_bytes(), size=32, camera="full"))[16, 16, 3]
    assert 100 < a < 160


def test_masked_material_cuts_out_by_texture_alpha():
    b = GlbWriter()
    rgba = np.zeros((8, 8, 4), np.uint8)
    rgba[..., 1] = 255
    rgba[:, 4:, 3] = 255  # right half opaque, left half cut away
    tex = b.texture(png_bytes(rgba))
    mat = b.material("leaf", texture=tex)
    b.doc["materials"][mat]["alphaMode"] = "MASK"
    p = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], np.float32)
    uv = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)
    b.scene([b.node("L", mesh=b.mesh("L", [b.primitive(positions=p, uv=uv, indices=[0, 1, 2, 0, 2, 3], material=mat)]))])
    im = np.asarray(render(b.to_bytes(), size=64, camera="full"))
    assert im[32, 16, 3] == 0 and im[32, 48, 3] == 255


def test_alpha_test_by_texel_blocks_gives_the_same_pixels(monkeypatch):
    """Alpha-tested fragments whose texel block's least alpha passes (workbench.render.loops.opaque_blocks) pass
    without a filtered lookup, and the picture is the same bytes as filtering every one: layers of cards, a texture
    of opaque patches, holes and alphas either side of the cutoff, its coordinates run past the edges under each
    wrap mode (repeat, clamp, mirrored), the cards turned so a lookup's footprint crosses blocks at every angle."""
    from workbench.render import raster

    rng = np.random.default_rng(55)
    rgba = np.zeros((64, 48, 4), np.uint8)
    rgba[..., :3] = rng.integers(0, 256, (64, 48, 3))
    alpha = np.where(rng.random((4, 3)) < 0.6, 255, 0).repeat(16, 0).repeat(16, 1)   # opaque and clear patches
    near_cut = (rng.random((64, 48)) < 0.3) & (np.arange(64)[:, None] % 16 < 5)      # bands of noise
    alpha[near_cut] = rng.integers(120, 136, near_cut.sum())                       # either side of 0.5 x 255
    rgba[..., 3] = alpha
    b = GlbWriter()
    tex = b.texture(png_bytes(rgba))
    b.doc["textures"].append({"source": b.doc["textures"][tex]["source"], "sampler": b.add("samplers", {
        "magFilter": 9729, "minFilter": 9729, "wrapS": 33071, "wrapT": 33648})})
    clamp_mirror = len(b.doc["textures"]) - 1
    prims = []
    for k, (t, turn) in enumerate(((tex, 0.3), (clamp_mirror, -0.5), (tex, 1.1), (clamp_mirror, 0.8))):
        mat = b.material(f"cards{k}", texture=t)
        b.doc["materials"][mat].update({"alphaMode": "MASK", "doubleSided": True})
        c, s_ = np.cos(turn), np.sin(turn)
        quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) @ np.array([[c, s_], [-s_, c]], np.float32)
        p = np.column_stack([quad, np.full(4, -0.3 * k, np.float32)]).astype(np.float32)
        uv = np.array([[-0.7, 1.6], [1.9, 1.6], [1.9, -0.4], [-0.7, -0.4]], np.float32) + 0.13 * k
        prims.append(b.primitive(positions=p, uv=uv.astype(np.float32), indices=[0, 1, 2, 0, 2, 3], material=mat))
    b.scene([b.node("C", mesh=b.mesh("C", prims))])
    glb = b.to_bytes()
    made = []
    blocks = raster._opaque_blocks
    monkeypatch.setattr(raster, "_opaque_blocks", lambda *a: made.append(blocks(*a)) or made[-1])
    fast = np.asarray(render(glb, size=160, camera="full"))
    # (the blocks were made and a share of them pass whole)
    assert made and (made[0][0] >= 130).mean() > 0.1, made
    monkeypatch.setattr(raster, "_opaque_blocks", lambda textures, which: (np.zeros(1, np.uint8),
                                                                           np.full(len(textures), -1, np.int64)))
    every = np.asarray(render(glb, size=160, camera="full"))
    assert 0.2 < (fast[..., 3] == 255).mean() < 0.95
    assert np.array_equal(fast, every)


def test_scene_without_meshes_renders_empty():
    b = GlbWriter()
    b.scene([b.node("nothing")])
    im = np.asarray(render(b.to_bytes(), size=32, camera="portrait"))
    assert im.shape == (32, 32, 4) and im[..., 3].max() == 0
    assert Image.open(io.BytesIO(turntable(b.to_bytes(), frames=2, size=16))).n_frames >= 1


def test_texture_lookup_is_perspective_correct():
    # A long strip going away from the camera, its texture red on the near half and blue on the
    # far half. The colour change must sit where the strip's 3D midpoint projects, which is well
    # above the middle of its on-screen extent (where an affine lookup would put it).
    from workbench.render.framing import frame
    b = GlbWriter()
    rgb = np.zeros((2, 1, 3), np.uint8)
    rgb[0] = (0, 0, 255)   # v = 0..0.5: far half
    rgb[1] = (255, 0, 0)   # v = 0.5..1: near half
    tex = b.texture(png_bytes(rgb), repeat=False)
    mat = b.material("strip", texture=tex)
    b.doc["samplers"][0].update({"magFilter": 9728, "minFilter": 9728})
    p = np.array([[-0.5, 0, 1], [0.5, 0, 1], [0.5, 1.5, -9], [-0.5, 1.5, -9]], np.float32)
    uv = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)
    b.scene([b.node("S", mesh=b.mesh("S", [b.primitive(positions=p, uv=uv, indices=[0, 1, 2, 0, 2, 3], material=mat)]))])
    glb = b.to_bytes()
    size = 128
    im = np.asarray(render(glb, size=size, camera="full")).astype(int)
    col = im[:, size // 2]
    rows = np.nonzero(col[:, 3] == 255)[0]
    red_rows = rows[col[rows, 0] > col[rows, 2]]
    blue_rows = rows[col[rows, 2] > col[rows, 0]]
    boundary = (red_rows.min() + blue_rows.max()) / 2
    posed = Model(glb).posed()
    cam = frame(posed, "full")
    f = 1 / np.tan(np.radians(cam.fov_deg) / 2)

    def row(point):
        v = cam.view[:3, :3] @ point + cam.view[:3, 3]
        return (0.5 - 0.5 * f * v[1] / -v[2]) * size
    expected = row(np.array([0, 0.75, -4.0]))
    affine = (row(p[0]) + row(p[3])) / 2
    assert abs(boundary - expected) < 2.5
    assert abs(affine - expected) > 8  # the test can tell the two apart


def test_node_hierarchy_and_interleaved_attributes():
    # Positions and normals interleaved in one buffer view (byteStride 24), under a parent node
    # that is moved, turned 90 degrees about Y and scaled by 2, with a translated child.
    b = GlbWriter()
    pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    nrm = np.tile(np.array([0, 0, 1], np.float32), (3, 1))
    inter = np.concatenate([pos, nrm], 1)
    view = b.view(inter.tobytes(), 34962)
    b.doc["bufferViews"][view]["byteStride"] = 24
    pa = b.add("accessors", {"bufferView": view, "byteOffset": 0, "componentType": 5126, "count": 3,
                             "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]})
    na = b.add("accessors", {"bufferView": view, "byteOffset": 12, "componentType": 5126, "count": 3, "type": "VEC3"})
    prim = {"attributes": {"POSITION": pa, "NORMAL": na}, "indices": b.indices([0, 1, 2])}
    mesh = b.mesh("T", [prim])
    child = b.node("child", mesh=mesh, translation=(0, 0, 1))
    s = np.sin(np.pi / 4)
    parent = b.node("parent", children=[child], translation=(10, 0, 0), rotation=(0, s, 0, s), scale=(2, 2, 2))
    b.scene([parent])
    posed = Model(b.to_bytes()).posed()
    # Child local (x, y, z + 1), scaled 2, turned +90 deg about Y: (x, y, z) -> (z, y, -x), moved +10 in x.
    expected = np.array([[10 + 2, 0, 0], [10 + 2, 0, -2], [10 + 2, 2, 0]], np.float32)
    np.testing.assert_allclose(posed.draws[0].positions, expected, atol=1e-5)
    np.testing.assert_allclose(posed.draws[0].normals, np.tile([1, 0, 0], (3, 1)), atol=1e-5)


def test_cubic_spline_channel_passes_through_keys_and_uses_tangents():
    from workbench.gltf.pose import sample_keyframes as _sample  # the one keyframe sampler, which the renderer uses
    times = np.array([0.0, 1.0])
    # Keys 0 -> 1 with zero tangents: the Hermite curve is 3u^2 - 2u^3, 0.5 at the middle, 0.15625 at 0.25.
    values = np.array([[0.0], [0.0], [0.0], [0.0], [1.0], [0.0]])
    assert _sample(times, values, "CUBICSPLINE", 0.0, False)[0] == 0.0
    assert abs(_sample(times, values, "CUBICSPLINE", 0.25, False)[0] - 0.15625) < 1e-9
    assert abs(_sample(times, values, "CUBICSPLINE", 1.0, False)[0] - 1.0) < 1e-9
    assert abs(_sample(times, values[[1, 4]], "LINEAR", 0.25, False)[0] - 0.25) < 1e-9
