"""The skin's colour in three.js under PBR Neutral and ACES (blind review P's #8: pale skin ghost-white and deep skin
ashy on a typical three.js page), and what the skin's reflection does to it.

``python data/skin_threejs.py OUT [TONE ...]``: for review P's #12, #2, #4, #9 (``/work/wt/briefs/key4626.json``'s
settings when it is there, else the same tones on the default avatar) and a mid tone, or the avatar with each TONE,
the portrait and the front view on the review sheet's page (``data/threejs_look/look.html``) with the contract's
studio (``studio``: PBR Neutral, section 5) and a typical page (``typical``: ACES filmic, the same room), each also
with the skin's reflection traded for albedo (:func:`traded`: the skin's ``baseColorFactor`` holding the Neutral mean
of :func:`workbench.options.colour.shown_in_studio`). Prints per picture the CIELAB L*, C* and hue of the skin's
mean colour (the Body's pixels, found with our renderer; the front view's lower half: the legs) and writes the
pictures to OUT. Needs Chromium as ``make_review_sheets.py`` does; a few minutes.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]
import make_review_sheets as sheets  # noqa: E402

from workbench.gltf.glb import pack_glb, read_glb  # noqa: E402
from workbench.options import colour  # noqa: E402
from workbench.render.raster import Lights, draw  # noqa: E402
from workbench.render.scene import Material, Model, load_clip  # noqa: E402

KEY = Path("/work/wt/briefs/key4626.json")
REVIEW_P = {12: "#EFD0C3", 2: "#60402F", 4: "#5A4031", 9: "#3E2A1D"}
MID = "#C09263"
SIZE = 384
UNLIT = Lights(key=0, fill=0, rim=0, sky=1, ground=1, exposure=1, sheen=0, sheen_grazing=0, skin_wrap=0)
# (name, share of the skin's reflection kept, share of the specular colour in the tone's hue, albedo re-solved):
# "no reflection" is the same frame with the specular at 0 (the reflection's share of what is shown).
VARIANTS = (("now", 1.0, 0.0, True), ("no reflection", 0.0, 0.0, False), ("reflection x0.4", 0.4, 0.0, True),
            ("warm specular", 1.0, 0.7, True))


def lab(linear: np.ndarray) -> tuple[float, float, float]:
    """CIELAB L*, C* and hue (degrees) of a linear sRGB colour (3,) (D65; skin is far above CIELAB's linear toe).

    >>> [round(v) for v in lab(colour.srgb_to_linear(colour.hex_rgb("#808080")))[:2]]
    [54, 0]
    """
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    f = np.cbrt(m @ np.asarray(linear, float) / np.array([0.9505, 1.0, 1.089]))
    a, b = 500 * (f[0] - f[1]), 200 * (f[1] - f[2])
    return float(116 * f[1] - 16), float(np.hypot(a, b)), float(np.degrees(np.arctan2(b, a)) % 360)


def _albedo(tone: str, reflect: float, tint: np.ndarray) -> np.ndarray:
    """The linear albedo whose Neutral mean in the studio model (:data:`colour.STUDIO`) is ``tone``, with the room's
    reflection at ``reflect`` of the studio's and coloured ``tint`` (3,)."""
    k, s = np.asarray(colour.STUDIO).T
    want = colour.srgb_to_linear(colour.hex_rgb(tone))
    albedo = np.clip(want / 1.4, 1e-4, colour.MAX_ALBEDO)
    for _ in range(80):
        lit = k[:, None] * albedo[None, :] + reflect * s[:, None] * tint[None, :]
        got = colour.srgb_to_linear(colour.linear_to_srgb(colour.neutral(lit)).mean(axis=0))
        albedo = np.clip(albedo * (np.maximum(want, 1e-4) / np.maximum(got, 1e-4)) ** 0.8, 0, colour.MAX_ALBEDO)
    return albedo


def traded(glb: bytes, tone: str, keep: float, warm: float, resolve: bool = True) -> bytes:
    """``glb`` with the skin's reflection at ``keep`` of its own and its specular colour ``warm`` of the way to the
    tone's hue (luminance 1), the skin's ``baseColorFactor`` scaling its albedo to hold the Neutral mean (unless not
    ``resolve``)."""
    t = colour.srgb_to_linear(colour.hex_rgb(tone))
    tint = (1 - warm) + warm * t / float(t @ colour.LUMA)
    reflect = colour.skin_reflect(tone)
    scale = _albedo(tone, reflect * keep, tint) / _albedo(tone, reflect, np.ones(3)) if resolve else np.ones(3)
    doc, binary = read_glb(glb)
    for m in doc["materials"]:
        if m.get("name") == "Skin":
            m["pbrMetallicRoughness"]["baseColorFactor"] = [*map(float, scale), 1.0]
            spec = m.setdefault("extensions", {}).setdefault("KHR_materials_specular", {})
            spec["specularFactor"] = spec.get("specularFactor", 1.0) * keep
            if warm:
                spec["specularColorFactor"] = [float(v) for v in tint]
    return pack_glb(doc, binary)


def body_masks(avatar: sheets.Avatar) -> list[np.ndarray]:
    """Per view, the Body mesh's pixels (our renderer, the view's camera); the front view's lower half only."""
    posed = Model(avatar.glb).posed(load_clip(avatar.glb), 0.0)
    masks = []
    for _, cam, _ in avatar.cameras:
        draws = [replace(d, uv=None, material=Material(
            color=np.array([1, 1, 1, 1] if d.mesh_name == "Body" else [0, 0, 0, 1], np.float32), specular=0.0,
            double_sided=d.material.double_sided)) for d in posed.draws]
        masks.append(draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT)[..., 0] > 200)
    masks[0][: SIZE // 2] = False
    return masks


def cases(tones: list[str]) -> dict[str, dict]:
    """Name -> settings: the tones asked for on the default avatar, or review P's avatars and a mid tone."""
    if tones:
        return {t: {"skinTone": t} for t in tones}
    found = {a["index"]: a["settings"] for a in json.loads(KEY.read_text())["avatars"]} if KEY.exists() else {}
    out = {f"#{i}": found.get(i, {"skinTone": tone}) for i, tone in REVIEW_P.items()}
    out["mid"] = {**out["#12"], "skinTone": MID}
    return out


def main(out: Path, tones: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sheets.VIEWS = (("front", "full", 0.0, None), ("portrait", "portrait", 0.0, None))  # type: ignore[assignment]
    with sheets.threejs_look_page() as page:
        for name, settings in cases(tones).items():
            avatar = sheets.Avatar(settings)
            tone = settings["skinTone"]
            masks, glb = body_masks(avatar), avatar.glb
            for variant, keep, warm, resolve in VARIANTS:
                avatar.files = [traded(glb, tone, keep, warm, resolve)] * len(sheets.VIEWS)
                for look in ("studio", "typical"):
                    for (view, *_), im, mask in zip(sheets.VIEWS, sheets.shoot_threejs([avatar], SIZE, look, page)[0],
                                                    masks, strict=True):
                        im.save(out / f"{name.strip('#')}-{view}-{look}-{variant.replace(' ', '_')}.png")
                        rgb = np.asarray(im.convert("RGB")).astype(float)[mask] / 255
                        lum, chroma, hue = lab(colour.srgb_to_linear(rgb).mean(axis=0))
                        print(f"{name:4s} {tone} {view:8s} {look:7s} {variant:15s} L* {lum:5.1f} C* {chroma:5.1f} "
                              f"hue {hue:3.0f}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
