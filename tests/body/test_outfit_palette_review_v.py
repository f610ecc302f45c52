"""Blind review V's clothes colours (defect 8, clothes 4.5): "Neon colour combinations with no thought to harmony:
magenta tee with pink trousers and purple shoes (sheet-01 #4); purple hoodie, olive trousers and neon-green shoes
(#12). Should be: curated palettes (one accent colour plus neutrals)."

Measured on the outfits the review sheets draw (``data/make_review_sheets.py``'s :func:`review_settings`, seeds 0 to
99, 12 avatars each: 1,200 outfits): a garment colour is saturated above CIELAB chroma 30, and an outfit clashes when
two of its saturated colours are more than 30 degrees of hue apart. On main (any #RRGGBB for each garment) 81 % of the
outfits clashed, 2.5 saturated garments an outfit, and 1.8 % had a top within CIELAB distance 20 of the skin (a beige
top running into the neck); now none clashes, at most one garment is saturated (0.55 an outfit), no top is near the
skin, and a top and bottom differ by 15 L* at least (docs/avatars.md, palette32).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from workbench.body.tone import lab
from workbench.options.colour import hex_rgb

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets  # noqa: E402

PARTS = ("top", "bottom", "shoes")
SATURATED = 30.0       # CIELAB chroma above which a garment's colour is an accent, not a neutral
HUE_APART = 30.0       # degrees of hue between two saturated colours that clash


def _outfits() -> list[dict]:
    return [s for seed in range(100) for s in make_review_sheets.review_settings(12, seed)]


def _saturated_hues(outfit: dict) -> list[float]:
    labs = [lab(hex_rgb(outfit[p])) for p in PARTS]
    return [float(np.degrees(np.arctan2(b, a))) for _, a, b in labs if np.hypot(a, b) > SATURATED]


def _clashes(outfit: dict) -> bool:
    hues = _saturated_hues(outfit)
    return any(abs((h - g + 180) % 360 - 180) > HUE_APART for i, h in enumerate(hues) for g in hues[i + 1:])


def test_review_outfits_are_one_accent_and_neutrals():
    outfits = _outfits()
    clashing = np.mean([_clashes(s["outfit"]) for s in outfits])
    accents = [len(_saturated_hues(s["outfit"])) for s in outfits]
    assert clashing == 0, f"{clashing:.1%} of the outfits clash (main 81%)"
    assert max(accents) <= 1, max(accents)
    assert 0.3 < np.mean(accents) < 0.8, np.mean(accents)   # most outfits carry their accent, some are all neutrals


def test_review_tops_stand_off_the_skin_and_the_bottom():
    outfits = _outfits()
    top = np.array([lab(hex_rgb(s["outfit"]["top"])) for s in outfits])
    skin = np.array([lab(hex_rgb(s["skinTone"])) for s in outfits])
    bottom = np.array([lab(hex_rgb(s["outfit"]["bottom"])) for s in outfits])
    assert np.linalg.norm(top - skin, axis=1).min() >= 20        # main: 1.8 % of tops within 20 of the skin
    assert np.abs(top[:, 0] - bottom[:, 0]).min() >= 15


def test_palettes_keep_every_other_field_of_the_draw():
    """The reviews' avatars pinned by seed keep their bodies, faces, hair and garments: only colours change."""
    from helpers import random_settings

    before = random_settings(12, 4632, with_added=True, heads=True, features=True)
    after = make_review_sheets.review_settings(12, 4632)
    for s in (*before, *after):
        for p in PARTS:
            s["outfit"].pop(p)
    assert before == after
