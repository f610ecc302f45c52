"""Renderer tests on real avatars from workbench.gltf: framing, colours, poses, determinism."""

import io
from functools import cache

import numpy as np
import pytest
from PIL import Image

from workbench import gltf  # our own package: a broken import must fail, not skip
from workbench.options import ModelOptions, PreviewOptions, normalize_avatar_settings
from workbench.render import render, render_preview, turntable
from workbench.render.framing import frame
from workbench.render.scene import Model


@cache
def avatar(gender="feminine", top=None, glasses="none", **opts) -> bytes:
    settings = {"gender": gender, "glasses": glasses}
    if top:
        settings["outfit"] = {"top": top}
    return gltf.build_avatar(normalize_avatar_settings(settings), ModelOptions(**opts))


def _hex(c):
    return np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)])


def _near(im, colour, tol=25):
    a = np.asarray(im).astype(int)
    d = np.abs(a[..., :3] - _hex(colour)).max(-1)
    return (d < tol) & (a[..., 3] == 255)


def _alpha_box(im):
    # The figure's silhouette (alpha >= 128, as the three.js comparison counts it): an avatar's
    # contact shadow is translucent and lies wider than its feet.
    a = np.asarray(im)[..., 3]
    ys, xs = np.nonzero(a >= 128)
    return xs.min(), ys.min(), xs.max(), ys.max()


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_full_shows_head_to_toe_inside_the_frame(gender):
    im = render(avatar(gender), size=256, camera="full")
    x0, y0, x1, y1 = _alpha_box(im)
    assert x0 > 0 and y0 > 0 and x1 < 255 and y1 < 255   # touches no edge
    assert (y1 - y0) > 0.6 * 256                            # and fills most of the height
    a = np.asarray(im)[..., 3]
    assert a[0, 0] == a[0, -1] == a[-1, 0] == a[-1, -1] == 0


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_portrait_puts_the_head_high_and_cuts_at_the_shoulders(gender):
    glb = avatar(gender)
    im = render(glb, size=256, camera="portrait")
    a = np.asarray(im)[..., 3]
    x0, y0, x1, y1 = _alpha_box(im)
    assert 0 < y0 < 0.25 * 256                 # the top of the head is inside, near the top
    assert (a[-1] == 255).sum() > 0.2 * 256     # the body goes on below the bottom edge
    # Project the skeleton's joints with the portrait camera: head and shoulders (issue 11).
    # The head's top in the upper fifth, its base joint in the lower half, the neck inside
    # the frame, the chest (Spine2) and the hips below it.
    posed = Model(glb).posed()
    cam = frame(posed, "portrait")
    f = 1 / np.tan(np.radians(cam.fov_deg) / 2)

    def row(name):
        p = cam.view[:3, :3] @ posed.joints[name] + cam.view[:3, 3]
        return (0.5 - 0.5 * f * p[1] / -p[2]) * 256
    assert row("HeadTop_End") < 0.2 * 256 and 0.5 * 256 < row("Head") < 0.8 * 256
    assert row("Neck") < 256
    assert row("Spine2") > 256
    assert row("Hips") > 256


def test_outfit_top_colour_appears():
    red, green = "#C02020", "#20A040"
    im_red = render(avatar(top=red), size=128, camera="full")
    im_green = render(avatar(top=green), size=128, camera="full")
    # Within 30 of the asked colour on every channel (25 before cloth41: its smooth jersey, without the heather's
    # paler fibres, shades the lit tee a few levels further from the flat colour; pixels within 25: red 93 -> 37,
    # green 154 -> 118; within 30: 344 -> 332, 433 -> 405). The other colour's zero still says whose top it is.
    assert _near(im_red, red, 30).sum() > 50 and _near(im_red, green, 30).sum() == 0
    assert _near(im_green, green, 30).sum() > 50 and _near(im_green, red, 30).sum() == 0


def test_key_light_comes_from_one_side():
    # The body's left half (image left) is lit by the key light, so it is brighter.
    a = np.asarray(render(avatar(top="#808080"), size=128, camera="portrait")).astype(float)
    lum = a[..., :3].mean(-1)
    covered = a[..., 3] == 255
    left = lum[:, 40:64][covered[:, 40:64]].mean()
    right = lum[:, 64:88][covered[:, 64:88]].mean()
    assert left > right * 1.1


def test_preview_is_deterministic_and_sized():
    glb = avatar()
    opts = PreviewOptions(size=128, camera="portrait", background=None)
    a, b = render_preview(glb, opts), render_preview(glb, opts)
    assert a == b
    im = Image.open(io.BytesIO(a))
    assert im.size == (128, 128) and im.mode == "RGBA" and im.getpixel((0, 0))[3] == 0
    bg = Image.open(io.BytesIO(render_preview(glb, PreviewOptions(size=64, camera="full", background=(250, 240, 230)))))
    assert bg.size == (64, 64) and bg.getpixel((0, 0)) == (250, 240, 230, 255)
    assert np.asarray(bg)[..., 3].min() == 255


def test_webp_merged_avatar_with_glasses_renders_like_the_default():
    glb = avatar(top="#20A040", glasses="clear", texture_format="webp", merge_mesh=True)
    im = render(glb, size=128, camera="full")
    assert _near(im, "#20A040").sum() > 50
    x0, y0, x1, y1 = _alpha_box(im)
    assert (y1 - y0) > 0.6 * 128


def test_pose_by_clip_bytes_and_by_name():
    glb = avatar()
    clip = gltf.build_animation("feminine", "walk")
    rest = np.asarray(render(glb, size=96, camera="full", pose="bind"))
    posed = np.asarray(render(glb, size=96, camera="full", pose=(clip, 0.5)))
    by_name = np.asarray(render(glb, size=96, camera="full", pose=("feminine/walk", 0.5)))
    assert not np.array_equal(rest, posed)
    assert np.array_equal(posed, by_name)
    # Walking, the arms hang: the figure is much narrower than in the T-pose.
    assert (_alpha_box(posed)[2] - _alpha_box(posed)[0]) < 0.7 * (_alpha_box(rest)[2] - _alpha_box(rest)[0])


def test_turntable_of_an_avatar():
    data = turntable(avatar(), frames=8, size=64)
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF" and im.n_frames == 8


def test_bare_clip_name_picks_the_avatars_gender():
    from workbench.render.pictures import _closest_gender_clip
    from workbench.render.scene import load_clip
    fem, masc = load_clip("feminine/wave"), load_clip("masculine/wave")
    assert any(not np.allclose(fem.rest_offsets[n], masc.rest_offsets[n]) for n in fem.rest_offsets)
    for gender, expected in (("masculine", masc), ("feminine", fem)):
        chosen = _closest_gender_clip(Model(avatar(gender)), "wave")
        for n, v in expected.rest_offsets.items():
            np.testing.assert_allclose(chosen.rest_offsets[n], v)
    # And a bare name renders.
    assert render(avatar("masculine"), size=32, camera="full", pose=("wave", 0.6)).size == (32, 32)


def test_render_draws_the_preview_pose_by_default_and_the_bind_pose_on_request():
    """The same pose as previews and turntables (idle at 0 s, arms down), unless the T-pose is asked for."""
    glb = avatar()
    default = np.asarray(render(glb, size=96, camera="full"))
    idle = np.asarray(render(glb, size=96, camera="full", pose=("idle", 0.0)))
    bind = np.asarray(render(glb, size=96, camera="full", pose="bind"))
    assert np.array_equal(default, idle) and not np.array_equal(default, bind)
    assert (_alpha_box(default)[2] - _alpha_box(default)[0]) < 0.7 * (_alpha_box(bind)[2] - _alpha_box(bind)[0])
    assert np.array_equal(bind, np.asarray(render(glb, size=96, camera="full", pose=None)))


def test_hair_alpha_test_skips_opaque_triangles_with_the_same_pixels(monkeypatch):
    """Alpha-tested triangles whose whole texture footprint is opaque pass the test without a lookup (the
    hair's scalp shell inside its hairline; a card's texels run out to clear edges, so its fragments
    are tested), and the picture is the same bytes as testing every one."""
    from workbench.render import raster
    from workbench.render.scene import Model

    glb = gltf.build_avatar(normalize_avatar_settings({"gender": "feminine", "hair": {"style": "long"}}), ModelOptions())
    draws = Model(glb).posed().draws
    tris = np.concatenate([d.tris for d in draws])
    tri_draw = np.concatenate([np.full(len(d.tris), k) for k, d in enumerate(draws)])
    mask = np.array([d.material.alpha_mode == "MASK" for d in draws])
    sure = raster._opaque_triangles(draws, tris, tri_draw, mask)
    # (a share of the masked triangles: 0.02 and more until long hair's cards grew from 394 to 522, 0.019 now)
    assert mask.any() and sure[mask[tri_draw]].mean() > 0.01, sure[mask[tri_draw]].mean()
    fast = np.asarray(render(glb, size=256, camera="portrait"))
    monkeypatch.setattr(raster, "_opaque_triangles", lambda draws, tris, tri_draw, *_: np.zeros(len(tri_draw), bool))
    every = np.asarray(render(glb, size=256, camera="portrait"))
    assert np.array_equal(fast, every)