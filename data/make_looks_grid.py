"""Render the avatar looks grid: eight avatars (both genders, every body shape, every hair
style and glasses kind), portrait and full, at 128 px, and two of them at 512 px.

It uses only the renderer's long-standing public calls (``build_avatar``, ``render``,
``grid``), so the same script renders the code as it is and the code as it was. The
committed ``data/looks_before.png`` was made from commit 7db5421 of main:

    git archive 7db5421 workbench | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before python data/make_looks_grid.py data/looks_before.png

Notebooks ``01_avatars`` and ``03_previews`` draw the same grid live, beside this image.
The file is stored as a dithered 256-colour PNG to stay small.
"""

from __future__ import annotations

import sys

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


def looks_grid(render_avatar) -> Image.Image:
    """The grid, from ``render_avatar(settings, camera, size) -> PIL image``."""
    from workbench.render import grid

    small = [[render_avatar(s, cam, 128) for _, s in AVATARS] for cam in ("portrait", "full")]
    top = grid(small, row_labels=["portrait", "full"], col_labels=[label for label, _ in AVATARS])
    large = [[render_avatar(AVATARS[i][1], cam, 512) for cam in ("portrait", "full")] for i in LARGE]
    bottom = grid(large, col_labels=["portrait 512 px", "full 512 px"])
    out = Image.new("RGBA", (max(top.width, bottom.width), top.height + bottom.height), (255, 255, 255, 255))
    out.alpha_composite(top, (0, 0))
    out.alpha_composite(bottom, ((out.width - bottom.width) // 2, top.height))
    return out


def render_avatar(settings: dict, camera: str, size: int) -> Image.Image:
    """One avatar as a preview shows it: LOD 0, standing in the idle clip's first frame."""
    from workbench.gltf import build_animation, build_avatar
    from workbench.options import ModelOptions, normalize_avatar_settings
    from workbench.render import render

    s = normalize_avatar_settings(settings)
    glb = build_avatar(s, ModelOptions())
    return render(glb, size=size, camera=camera, background=BACKGROUND,
                  pose=(build_animation(s["gender"], "idle"), 0.0))


def show_before_and_after(data_dir) -> None:
    """In a notebook: the committed "before" grid (``data_dir/looks_before.png``) over the grid rendered now."""
    import io
    from pathlib import Path

    from IPython.display import Image as Show, display

    after = looks_grid(render_avatar).convert("RGB")
    print("before:")
    display(Show(filename=str(Path(data_dir) / "looks_before.png")))
    print("after:")
    buf = io.BytesIO()
    after.save(buf, format="JPEG", quality=90)   # a JPEG keeps the saved notebook small
    display(Show(data=buf.getvalue(), format="jpeg"))


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else "looks.png"
    image = looks_grid(render_avatar).convert("RGB")
    # 256 colours, dithered (plain quantizing posterizes the skin's shading): 255 KB, not 665 KB.
    palette = image.quantize(256, method=Image.Quantize.MEDIANCUT)
    image.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG).save(target, optimize=True)
    print(target, image.size)
