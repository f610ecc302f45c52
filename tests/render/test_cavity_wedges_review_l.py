"""No black wedges inside an open mouth in our renderer (blind review L, defect 4: "black angular wedges over a flat
maroon plane inside the cavity", seed 4622's #7 in viseme_aa and mouthOpen, also #9 and #10). Recoloured piece by
piece, the wedges were the Teeth mesh's back: the back teeth's side walls running into the mouth and the tongue's
back, all painted workbench.body.mouth.DEEP ((0.13, 0.06, 0.06), display 18 of 255 in red and 1 in green when lit)
against the lining's throat ((0.30, 0.155, 0.145), lit about (50, 19, 15)): hard-edged near-black shapes over the
dark red. DEEP is now the lining's throat colour in its own shade, so they read as one dark-red space.

Inside the opening (the Teeth mesh and the lining, through the renderer's own drawing), the share of pixels that are
near black (the brightest channel under 24 of 255), against the dark red of the lining."""

from __future__ import annotations

import pytest
from test_mouth_renders import avatar, closeup

#: The most of the opening near black.
BLACK_SHARE = 0.05


def black_share(gender: str, tone: str, shape: str) -> float:
    """The share of near-black pixels in the opening of a ``shape`` close-up (see the module)."""
    lit, masks = closeup(avatar(gender, tone=tone), gender, {shape: 1.0})
    px = lit[masks["teeth"] | masks["lining"]]
    return float((px.max(1) < 24).mean())


@pytest.mark.parametrize("gender,tone,shape", [("feminine", "#735332", "viseme_aa"), ("masculine", "#B68563", "mouthOpen"),
                                               ("feminine", "#FFD0BF", "viseme_aa")])
def test_no_black_wedges_inside_an_open_mouth(gender, tone, shape):
    """Under BLACK_SHARE of the opening near black (main: 0.24, 0.13 and 0.24, the back teeth's walls and the tongue's
    back; now 0.002 to 0.004)."""
    share = black_share(gender, tone, shape)
    assert share < BLACK_SHARE, share
