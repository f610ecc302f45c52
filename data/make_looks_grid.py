"""Contact sheets of the avatars' looks, for people to judge them by (issue 25, item 9).

``python data/make_looks_grid.py [OUT_DIR]`` (default ``docs``) writes:

- ``looks_bodies.png``: gender x body shape, full figure;
- ``looks_heights.png``: 150 cm and 200 cm side by side in one frame (one camera, one floor);
- ``looks_hair.png``: the four hair styles in a dark and a light colour, front, back, three-quarter and
  full (``data/make_hair_threejs.py`` draws the same in three.js);
- ``looks_outfits.png``: the cuts of clothes (each top and bottom style) in their colours, with glasses;
- ``looks_skin.png``: skin tones from #FFE0C4 to #3B2416;
- ``looks_expressions.png``: neutral and the extra shapes (smile, eyes closed, jaw open, mouth open, eyes
  up), the 15 Oculus visemes on both genders, and glasses at three quarters;
- ``looks_before_after.png``: the grid of eight avatars as the generator drew them before the
  MakeHuman bodies (commit 15a6100, saved as ``data/looks_before.png``) over the same grid now.

Everything is drawn through the public calls (``build_avatar``, ``render``, ``grid``), so the
grid of eight also renders from any older version of the code; ``data/looks_before.png`` was made so:

    git archive 15a6100 workbench | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before python data/make_looks_grid.py --before data/looks_before.png

(Those previews stood in the library's idle clip. The MakeHuman bodies' skeletons differ from the
library's, whose clip would give them its bone lengths, so the sheets pose every avatar in its own
idle clip, retargeted by ``build_avatar(..., ModelOptions(animations=("idle",)))``.)

Visemes and the extra shapes are the avatars' own morph targets (docs/face_rig.md says how each is made).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from PIL import Image

# (label, settings): together they cover both genders, four body shapes, five hair styles
# and three kinds of glasses.
AVATARS = [
    ("m slim short", {"gender": "masculine", "bodyShape": "slim", "hair": {"style": "short"},
                      "skinTone": "#E0AC8A"}),
    ("m average bald clear", {"gender": "masculine", "bodyShape": "average", "hair": {"style": "none"},
                              "glasses": "clear", "skinTone": "#8D5524",
                              "outfit": {"top": "#E8E4DA", "bottom": "#3A4A6B"}}),
    ("m athletic curly", {"gender": "masculine", "bodyShape": "athletic", "hair": {"style": "curly"},
                          "skinTone": "#C68642", "outfit": {"top": "#2E7D4F"}}),
    ("m heavy short sun", {"gender": "masculine", "bodyShape": "heavy", "hair": {"style": "short", "color": "#6B4A2B"},
                           "glasses": "sunglasses", "skinTone": "#F1C27D", "outfit": {"top": "#9C2F2F"}}),
    ("f slim long clear", {"gender": "feminine", "bodyShape": "slim", "hair": {"style": "long", "color": "#8A5A2B"},
                           "glasses": "clear", "skinTone": "#F1C27D", "outfit": {"top": "#B03A48"}}),
    ("f average bun", {"gender": "feminine", "bodyShape": "average", "hair": {"style": "bun"},
                       "skinTone": "#C68642"}),
    ("f athletic curly sun", {"gender": "feminine", "bodyShape": "athletic", "hair": {"style": "curly", "color": "#1A1A1A"},
                              "glasses": "sunglasses", "skinTone": "#5C3A21", "outfit": {"top": "#F0C04A"}}),
    ("f heavy long", {"gender": "feminine", "bodyShape": "heavy", "hair": {"style": "long", "color": "#D9B26A"},
                      "skinTone": "#E0AC8A", "outfit": {"top": "#5B6E8C", "bottom": "#4A3B30"}}),
]
LARGE = (1, 4)          # the avatars also shown at 512 px
BACKGROUND = (236, 238, 242)
SKIN_TONES = ("#FFE0C4", "#F1C27D", "#E0AC8A", "#C68642", "#8D5524", "#5C3A21", "#3B2416")
EXPRESSIONS = [
    ("neutral", {}),
    ("mouthSmile", {"mouthSmile": 1.0}),
    ("eyesClosed", {"eyesClosed": 1.0}),
    ("jawOpen", {"jawOpen": 0.8}),
    ("mouthOpen", {"mouthOpen": 1.0}),
    ("eyesLookUp", {"eyesLookUp": 1.0}),
]


_BARS: list = []  # the progress bar of the sheet being drawn (shows_progress)


def shows_progress(what: str, pictures):
    """A sheet that shows a bar once it has taken 2 s (workbench.progress): the ``pictures()`` it draws,
    counted as they are (a notebook cell drawing one sat up to 47 s in silence). An older workbench,
    which has no bar (the "before" grid), draws the sheet all the same."""
    def wrap(make):
        @functools.wraps(make)
        def run(*args, **kw):
            try:
                from workbench.progress import Progress
            except ImportError:
                return make(*args, **kw)
            with Progress(what, total=pictures(), unit="picture") as bar:
                _BARS.append(bar)
                try:
                    return make(*args, **kw)
                finally:
                    _BARS.remove(bar)
        return run
    return wrap


def _drawn() -> None:
    if _BARS:
        _BARS[-1].step()


# How many pictures each sheet draws (its bar's total).
def _grid_pictures() -> int:
    return 2 * len(AVATARS) + 2 * len(LARGE)


def _bodies_pictures() -> int:
    from workbench.options import BODY_SHAPES

    return 2 * len(BODY_SHAPES)


def _hair_pictures() -> int:
    from workbench.options import HAIR_STYLES

    return 4 * 2 * len([h for h in HAIR_STYLES if h != "none"])


def _expressions_pictures() -> int:
    from workbench.body.face import VISEMES

    return 2 * len(EXPRESSIONS) + 2 * len(VISEMES) + 8


def _glb(settings: dict, lod: int = 0) -> bytes:
    """LOD ``lod`` with the idle clip retargeted to the avatar's own skeleton (contract section 5's
    ``animations``), so each body keeps its own proportions when it stands in that pose."""
    from workbench.gltf import build_avatar
    from workbench.options import ModelOptions, normalize_avatar_settings

    return build_avatar(normalize_avatar_settings(settings), ModelOptions(lod=lod, animations=("idle",)))


# The sheets' avatars built so far, by their settings (the last KEEP): a sheet draws each avatar several times
# (the grid of eight in two rows and four at 512 px, the expressions sheet each look in 6 expressions and 15
# visemes), and a build costs about as much CPU as a draw (0.3 s warm, 1.5 s for a new skin or body) or more.
# The build is deterministic (tests/gltf/test_avatar.py), so a kept GLB is the bytes a new build would be.
KEEP = 8
_kept: dict[str, bytes] = {}


def _kept_glb(settings: dict) -> bytes:
    """:func:`_glb` of ``settings``, built once while it is among the last :data:`KEEP` asked for."""
    import json

    key = json.dumps(settings, sort_keys=True)
    if key not in _kept:
        _kept[key] = _glb(settings)
    _kept[key] = _kept.pop(key)   # the newest last, so the oldest goes first
    while len(_kept) > KEEP:
        del _kept[next(iter(_kept))]
    return _kept[key]


def render_avatar(settings: dict, camera: str, size: int, **kw) -> Image.Image:
    """One avatar at LOD 0, standing in the first frame of its own idle clip."""
    from workbench.render import render

    glb = _kept_glb(settings)
    image = render(glb, size=size, camera=camera, background=BACKGROUND, pose=(glb, 0.0), **kw)
    _drawn()
    return image


def render_avatar_as_before(settings: dict, camera: str, size: int) -> Image.Image:
    """The grid's avatars as the older code's previews drew them (the library's idle clip), for the "before"
    image: only calls every version has."""
    from workbench.gltf import build_animation, build_avatar
    from workbench.options import ModelOptions, normalize_avatar_settings
    from workbench.render import render

    s = normalize_avatar_settings(settings)
    image = render(build_avatar(s, ModelOptions()), size=size, camera=camera, background=BACKGROUND,
                   pose=(build_animation(s["gender"], "idle"), 0.0))
    _drawn()
    return image


def looks_grid(render_avatar) -> Image.Image:
    """The grid of eight avatars, from ``render_avatar(settings, camera, size) -> PIL image``."""
    from workbench.render import grid

    small = [[render_avatar(s, cam, 128) for _, s in AVATARS] for cam in ("portrait", "full")]
    top = grid(small, row_labels=["portrait", "full"], col_labels=[label for label, _ in AVATARS])
    large = [[render_avatar(AVATARS[i][1], cam, 512) for cam in ("portrait", "full")] for i in LARGE]
    bottom = grid(large, col_labels=["portrait 512 px", "full 512 px"])
    out = Image.new("RGBA", (max(top.width, bottom.width), top.height + bottom.height), (255, 255, 255, 255))
    out.alpha_composite(top, (0, 0))
    out.alpha_composite(bottom, ((out.width - bottom.width) // 2, top.height))
    return out


@shows_progress("Drawing the bodies sheet", _bodies_pictures)
def bodies_sheet() -> Image.Image:
    from workbench.options import BODY_SHAPES
    from workbench.render import grid

    rows = [[render_avatar({"gender": g, "bodyShape": b, "hair": {"style": "none"}}, "full", 320)
             for b in BODY_SHAPES] for g in ("feminine", "masculine")]
    return grid(rows, row_labels=["feminine", "masculine"], col_labels=list(BODY_SHAPES))


@shows_progress("Drawing the heights sheet", lambda: 4)
def heights_sheet(size: int = 720) -> Image.Image:
    """150 and 200 cm, both genders, on one floor with one camera (the renderer's own pieces)."""
    from dataclasses import replace

    import numpy as np

    from workbench.render.framing import frame
    from workbench.render.raster import draw, ground_shadow
    from workbench.render.scene import Model, Posed, load_clip

    draws, joints = [], {}
    figures = [("feminine", 150), ("feminine", 200), ("masculine", 150), ("masculine", 200)]
    for k, (gender, height) in enumerate(figures):
        data = _glb({"gender": gender, "height": height, "hair": {"style": "short"}})
        posed = Model(data).posed(load_clip(data), 0.0)
        _drawn()
        shift = np.array([(k - 1.5) * 0.62, 0.0, 0.0], np.float32)
        draws += [replace(d, positions=d.positions + shift) for d in posed.draws]
        joints.update({f"{k}{n}": v + shift for n, v in posed.joints.items()})
    scene = Posed(draws=draws, joints=joints, joint_names=set())
    cam = frame(scene, "full")
    im = Image.fromarray(draw(scene, cam, size, background=BACKGROUND, shadow=ground_shadow(scene)), "RGBA")
    from workbench.render import grid

    return grid([[im]], col_labels=["feminine 150 cm   feminine 200 cm   masculine 150 cm   masculine 200 cm"])


@shows_progress("Drawing the hair sheet", _hair_pictures)
def hair_sheet() -> Image.Image:
    """Every hair style in a dark and a light colour (the two ends a colour can go), on both genders:
    front, back and three-quarter portraits and the full figure (issue 36, item 1)."""
    from workbench.options import HAIR_STYLES
    from workbench.render import grid

    rows, labels = [], []
    for style in [h for h in HAIR_STYLES if h != "none"]:
        for gender, color in (("feminine", "#2B1B10"), ("masculine", "#E6CFA0")):
            s = {"gender": gender, "hair": {"style": style, "color": color}, "skinTone": "#E0AC8A"}
            rows.append([render_avatar(s, "portrait", 256), render_avatar(s, "portrait", 256, yaw_deg=180),
                         render_avatar(s, "portrait", 256, yaw_deg=60), render_avatar(s, "full", 256)])
            labels.append(f"{style} {gender[0]} {color}")
    return grid(rows, row_labels=labels, col_labels=["front", "back", "three-quarter", "full"])


@shows_progress("Drawing the outfits sheet", lambda: 24)
def outfits_sheet() -> Image.Image:
    """The cuts (``topStyle`` x ``bottomStyle``, each top and each bottom twice) in their colours on slim and
    heavy, feminine and masculine bodies: full front, three-quarter and back, and a portrait."""
    from workbench.render import grid

    sets = [
        ("tee, trousers (default)", {"gender": "feminine"}),
        ("hoodie, skirt", {"gender": "feminine", "bodyShape": "heavy", "glasses": "clear",
                           "outfit": {"top": "#5B6E8C", "bottom": "#2F2F36", "topStyle": "hoodie", "bottomStyle": "skirt"}}),
        ("longsleeve, shorts", {"gender": "masculine", "bodyShape": "slim",
                                "outfit": {"top": "#E8E4DA", "bottom": "#2C3A5A", "shoes": "#F2F2F2",
                                           "topStyle": "longsleeve", "bottomStyle": "shorts"}}),
        ("tee, shorts", {"gender": "masculine", "bodyShape": "heavy", "glasses": "sunglasses",
                         "outfit": {"top": "#2E7D4F", "bottom": "#B9A37E", "bottomStyle": "shorts"}}),
        ("longsleeve, skirt", {"gender": "feminine", "bodyShape": "slim",
                               "outfit": {"top": "#F0C04A", "bottom": "#3A5A8C", "shoes": "#EDEDED",
                                          "topStyle": "longsleeve", "bottomStyle": "skirt"}}),
        ("hoodie, trousers", {"gender": "masculine", "bodyShape": "average",
                              "outfit": {"top": "#9C2F2F", "bottom": "#1E1E22", "topStyle": "hoodie"}}),
    ]
    rows = [[render_avatar(s, "full", 300, yaw_deg=yaw) for _, s in sets] for yaw in (0, 40, 180)]
    rows.append([render_avatar(s, "portrait", 300, yaw_deg=25) for _, s in sets])
    return grid(rows, row_labels=["front", "3/4", "back", "portrait"], col_labels=[label for label, _ in sets])


@shows_progress("Drawing the skin sheet", lambda: 3 * len(SKIN_TONES))
def skin_sheet() -> Image.Image:
    from workbench.render import grid

    rows = [[render_avatar({"gender": g, "skinTone": t, "hair": {"style": "short"}}, "portrait", 220) for t in SKIN_TONES]
            for g in ("feminine", "masculine")]
    hands = [[render_avatar({"gender": "feminine", "skinTone": t, "hair": {"style": "none"}}, "full", 220, yaw_deg=150)
              for t in SKIN_TONES]]
    return grid(rows + hands, row_labels=["feminine", "masculine", "back"], col_labels=list(SKIN_TONES))


@shows_progress("Drawing the expressions sheet", _expressions_pictures)
def expressions_sheet() -> Image.Image:
    from workbench.body.face import VISEMES
    from workbench.render import grid

    rows = []
    looks = {"feminine": {"hair": {"style": "bun"}, "skinTone": "#C68642"},
             "masculine": {"hair": {"style": "short"}, "skinTone": "#8D5524"}}
    for gender, look in looks.items():
        rows.append([render_avatar({"gender": gender, **look}, "portrait", 240, morphs=w) for _, w in EXPRESSIONS])
    parts = [grid(rows, row_labels=list(looks), col_labels=[n for n, _ in EXPRESSIONS])]
    # The visemes: the lower face, large enough to read the lips and the teeth.
    crop = (52, 100, 188, 172)
    seq = [[render_avatar({"gender": gender, **look}, "portrait", 240, morphs={v: 1.0}).crop(crop).resize((204, 108))
            for v in VISEMES] for gender, look in looks.items()]
    parts.append(grid([row[:8] for row in seq], row_labels=list(looks), col_labels=[v[7:] for v in VISEMES[:8]]))
    parts.append(grid([row[8:] for row in seq], row_labels=list(looks), col_labels=[v[7:] for v in VISEMES[8:]]))
    glasses = [[render_avatar({"gender": g, "glasses": kind, "hair": {"style": "short"}, "skinTone": tone}, "portrait",
                              240, yaw_deg=yaw) for g, tone in (("feminine", "#E0AC8A"), ("masculine", "#5C3A21"))
                for kind in ("clear", "sunglasses") for yaw in (35, -35)]]
    parts.append(grid(glasses, row_labels=["glasses"], col_labels=["f clear", "", "f sun", "", "m clear", "", "m sun", ""]))
    out = Image.new("RGBA", (max(p.width for p in parts), sum(p.height for p in parts)), (255, 255, 255, 255))
    y = 0
    for p in parts:
        out.alpha_composite(p, (0, y))
        y += p.height
    return out


@shows_progress("Drawing the grid of eight avatars", _grid_pictures)
def before_after_sheet(before_png: Path) -> Image.Image:
    from PIL import ImageDraw, ImageFont

    before = Image.open(before_png).convert("RGBA")
    after = looks_grid(render_avatar)
    font = ImageFont.load_default(size=22)
    w = max(before.width, after.width)
    out = Image.new("RGBA", (w, before.height + after.height + 80), (255, 255, 255, 255))
    d = ImageDraw.Draw(out)
    d.text((10, 8), "before: the lofted generator (commit 15a6100)", fill=(0, 0, 0, 255), font=font)
    out.alpha_composite(before, (0, 40))
    d.text((10, before.height + 48), "after: MakeHuman bodies with the new looks", fill=(0, 0, 0, 255), font=font)
    out.alpha_composite(after, (0, before.height + 80))
    return out


SHEETS = {
    "looks_bodies.png": bodies_sheet,
    "looks_heights.png": heights_sheet,
    "looks_hair.png": hair_sheet,
    "looks_outfits.png": outfits_sheet,
    "looks_skin.png": skin_sheet,
    "looks_expressions.png": expressions_sheet,
}


def save(image: Image.Image, path: Path) -> None:
    """As a full-colour PNG. (A 256-colour dithered one was half the size, but its dithering drew a dotted
    dark line under every masculine chin on the bodies sheet, and plain quantizing posterizes the skin.)"""
    image.convert("RGB").save(path, optimize=True)
    print(path, image.size)


@shows_progress("Drawing the grid of eight avatars", _grid_pictures)
def show_before_and_after(data_dir) -> None:
    """In a notebook: the saved "before" grid (``data_dir/looks_before.png``) over the grid rendered now."""
    import io

    from IPython.display import Image as Show
    from IPython.display import display

    after = looks_grid(render_avatar).convert("RGB")
    print("before:")
    display(Show(filename=str(Path(data_dir) / "looks_before.png")))
    print("after:")
    buf = io.BytesIO()
    after.save(buf, format="JPEG", quality=90)   # a JPEG keeps the saved notebook small
    display(Show(data=buf.getvalue(), format="jpeg"))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--before"]:
        save(shows_progress("Drawing the grid of eight avatars", _grid_pictures)(looks_grid)(render_avatar_as_before),
             Path(args[1]))
        sys.exit(0)
    out_dir = Path(args[0]) if args else Path("docs")
    only = set(args[1:])
    for name, make in SHEETS.items():
        if not only or name in only:
            save(make(), out_dir / name)
    if not only or "looks_before_after.png" in only:
        save(before_after_sheet(Path(__file__).parent / "looks_before.png"), out_dir / "looks_before_after.png")
