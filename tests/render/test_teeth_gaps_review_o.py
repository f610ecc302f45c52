"""The upper teeth of an open mouth are teeth, not one white block (blind review O, defect 9: "the teeth are one
white block with only faint divisions", viseme_aa and mouthOpen on seed 4625's #7, #1 and #9; here #7 and #9, their
faces and tones, in tests/render/test_mouth_renders.py's 512 px close-up).

The teeth's texture (workbench.body.mouth.mouth_texture) draws each gap between two teeth where the arch's place (u,
workbench.body.teeth_arch.along) parts them, and the teeth's UVs put that place at ARCH_UV's share of the texture. Drawn
on the texture's u itself, the gap between the two front incisors (u 0) lay two and a half texels left of where the
middle line samples it: the middle line drew no gap, and the four front teeth read as one white block between the
lateral incisors' gaps. Measured across the upper row at its middle height: the luminance dip (0..255) at the middle
line under the darker of the brightest incisors' faces on either side of it (within 12 px)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import sweep
from test_mouth_renders import closeup

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.options.colour import LUMA

#: Review O's avatars (seed 4625, its key's settings): gender, body shape, skin tone and face.
FACES = {
    "o7": ("masculine", "average", "#CBA283", {"jawWidth": 0.8, "cheekbones": -0.1, "noseWidth": 0.2, "eyeSize": -0.7,
                                                "lipFullness": 0.3, "noseLength": 0.9, "chinLength": -0.6,
                                                "browRidge": -0.1}),
    "o9": ("masculine", "slim", "#725137", {"jawWidth": -0.2, "cheekbones": 0.5, "noseWidth": -0.7, "eyeSize": -0.1,
                                             "lipFullness": 0.4, "noseLength": -0.7, "chinLength": 0.7,
                                             "browRidge": -0.3}),
}
#: The least dip at the middle line (the lateral incisors' gaps dip 80 to 100 here).
DIP = 45.0


@cache
def glb(name: str) -> bytes:
    gender, shape, tone, face = FACES[name]
    s = {"gender": gender, "bodyShape": shape, "skinTone": tone, "face": face, "hair": {"style": "none"}}
    return build_avatar(normalize_avatar_settings(s), ModelOptions(animations=("idle",)))


def middle_dip(name: str, shape: str) -> float:
    """The luminance dip at the middle line across the upper teeth at their middle height in ``shape``'s close-up."""
    lit, masks = closeup(glb(name), FACES[name][0], {shape: 1.0})
    lum = lit @ np.asarray(LUMA)
    white = masks["teeth"] & (lum > 110) & (lit[..., 0] - lit[..., 2] < 60)
    cols = white[:, 180:332]
    top = int(np.argmax(cols.any(1)))
    # The upper row: the white rows from its top down to the first row with none (the opening's dark under it).
    bottom = top + int(np.argmin(cols[top:].any(1)))
    y = (top + bottom) // 2
    prof = lum[y - 2:y + 3].mean(0)
    # The middle line: the darkest within 20 px of the row's middle (half way between its ends at that height).
    xs = np.flatnonzero(white[y])
    centre = (int(xs.min()) + int(xs.max())) // 2
    mid = int(np.argmin(prof[centre - 20:centre + 21])) + centre - 20
    return float(min(prof[mid - 12:mid].max(), prof[mid + 1:mid + 13].max()) - prof[mid])


@pytest.mark.parametrize("name,shape", sweep([(n, s) for n in FACES for s in ("viseme_aa", "mouthOpen")]))
def test_the_front_incisors_are_two_teeth(name, shape):
    """The middle line's dip over DIP. On main 10.9 (#7, mouthOpen) to 14.8 (#9, mouthOpen), a faint line; now (the
    middle's gap drawn where the UVs put the middle line, workbench.body.teeth_arch.from_middle) 88.3 to 100.5, as
    deep as the lateral incisors' gaps."""
    dip = middle_dip(name, shape)
    assert dip > DIP, dip
