"""How a face's colours follow its skin tone: CIELAB steps from the skin, the lips' colour, the teeth's lightness.

The lips and the face's colours are the skin's moved by steps a person sees alike on every tone (a lightness and a
redness, :func:`shifted`), not multiplied per channel (which drew a pale tone's lips a saturated salmon twice as
chromatic as its skin, and a deep tone's barely apart from it).

- :func:`lip_colour`: the lips' albedo for a skin's albedo. On a pale tone a rose, darker and redder than the skin; on
  a deep tone darker and a redder brown of the skin (its hue turned 15 to 22 degrees towards red as shown, more
  chroma). Lips moved only by lightness there all but vanished: a deep tone's shown colour is
  the skin's reflection of the room as much as its albedo, and a step of 4 L* in albedo was 4 L* shown, the lips
  "the same value as the skin" in blind review J (CIELAB distance 4 to 6.6 shown on #2A1A14 to #3B2219 against 17.5
  on a pale tone; tests/body/test_deep_skin_review_j.py); made apart by taking yellow out instead (b* near 0, a hue
  33 to 46 degrees from the skin's), they were "a uniform dark plum/purple that looks bruised" in blind review N
  (tests/body/test_lips_review_n.py); with 8 a* over a mid-brown's, "saturated lipstick-red" in blind review Q
  (now 5: :data:`DEEP_RED`);
- :func:`teeth_exposure`: the teeth and gums' colour, in linear light, as a share of the mouth texture's
  (:func:`workbench.body.mouth.mouth_texture`): 1 beside a light or mid skin, less beside a deep one, so the enamel
  is the off-white of real teeth (shade guides measure L* 70 to 85), not the 92 L* a pale face's teeth are drawn at,
  which glared as a white strip in a deep face (blind review J). (At L* 75 an open mouth's upper teeth under the lip
  read grey in our renderer, tests/render/test_mouth_renders.py.)

>>> [round(float(v), 1) for v in lab(from_lab(np.array([60.0, 12.0, 18.0])))]
[60.0, 12.0, 18.0]
>>> teeth_exposure("#C68642"), teeth_exposure("#2A1A14")
(1.0, 0.7)
"""

from __future__ import annotations

import numpy as np

from ..options.colour import hex_rgb, linear_to_srgb, srgb_to_linear

__all__ = ["lab", "from_lab", "shifted", "paleness", "lip_colour", "teeth_exposure", "LIP_PARTS", "TEETH_L"]

_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_WHITE = np.array([0.9505, 1.0, 1.089])
# The enamel's lightness (CIELAB L*, the mouth texture's front teeth) beside a skin shown at L* TEETH_L[1] and
# lighter (the texture as drawn), and beside one at TEETH_L[3] and deeper (TEETH_L[2]), in between by the skin's L*.
TEETH_L = (92.0, 55.0, 80.0, 15.0)


def lab(c) -> np.ndarray:
    """sRGB (3,) in 0..1 -> CIELAB (D65) (3,)."""
    xyz = _XYZ @ srgb_to_linear(np.asarray(c, np.float64)) / _WHITE
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def from_lab(c) -> np.ndarray:
    """CIELAB (3,) -> sRGB (3,) in 0..1 (clipped)."""
    L, a, b = c
    fy = (L + 16) / 116
    f = np.array([fy + a / 500, fy, fy - b / 200])
    xyz = np.where(f > 6 / 29, f ** 3, 3 * (6 / 29) ** 2 * (f - 4 / 29)) * _WHITE
    return np.asarray(linear_to_srgb(np.linalg.solve(_XYZ, xyz)), np.float64)


def shifted(base, dL: float = 0.0, da: float = 0.0, db: float = 0.0) -> np.ndarray:
    """sRGB ``base`` (3,) moved by (dL, da, db) in CIELAB.

    >>> shifted(np.array([0.8, 0.6, 0.5]), dL=-10).round(2).tolist()
    [0.69, 0.5, 0.4]
    """
    return from_lab(lab(base) + np.array([dL, da, db]))


def paleness(base) -> float:
    """0 on the deepest skin albedo of the range (sRGB ``base``, L* 12 or less) to 1 on the palest (L* 84 and over)."""
    return float(np.clip((lab(base)[0] - 12) / 72, 0, 1))


# Each part of the lips' colour as a share of the lips' (per channel): the upper lip (it faces down) and the line along
# the vermilion's border; on the deepest tone DEEP_PARTS less (its pigment), blue the most: a share taken off every
# channel alike turned the darker parts violet on a deep lip (blind review N). The line 0.28 less there: the
# border's texels mix the lip with the lighter skin round it, and the line has to stay darker than the upper lip.
LIP_PARTS = {"lips": (1.0, 1.0, 1.0), "upper": (0.91, 0.88, 0.89), "line": (0.80, 0.72, 0.73)}
DEEP_PARTS = {"lips": (0.0, 0.0, 0.0), "upper": (0.08, 0.08, 0.12), "line": (0.28, 0.28, 0.34)}
# The a* and b* a deep tone's lips add over a mid-brown's (times ``deep``, 0 to 1). Blind review Q saw 8 and 6 (with 1 L*
# lighter) as "saturated lipstick-red" on #7, #8 and #10 (tones #442B23, #4F3828, #3E281F): their lips 8.0 to 9.4 C*
# over the face as the studio shows them, a pale tone's 4.5; now 4.9 to 6.3, the hue as before, the lips still redder
# and darker than the face (tests/render/test_lip_colour_review_q.py). Less red (4) took the deepest tones' lips nearer
# the skin than blind review J's (tests/body/test_deep_skin_review_j.py); darker lips would stand them apart instead,
# but a deep tone's are at their floor (half the skin) already.
DEEP_RED, DEEP_YELLOW = 5.0, 4.0
# What the palest tones' lips (paleness PALE_FROM to 1, more by the way) lose of L* and gain of a* over the rose: under a
# typical three.js page (ACES filmic) a pale face sits on the curve's shoulder, which presses the lips' few L* and a*
# against the skin's to "almost colourless" (blind review T #8, #ECCFC2: 5.2 C* over the face, 10.6 in our previews),
# and lip colour is not held to the tone (contract section 5) as the skin is. From PALE_FROM (a skin albedo of L* 66)
# the shift grows to full at paleness 1 (L* 84): only the light tones take it (#E0AC8A, L* 74, 46 % of it; the palest,
# #ECCFC2 and #F2CEC1, all of it), so the mid and deep tones' lips, held by reviews N and Q, are as they were.
PALE_FROM, PALE_LIP = 0.75, (2.5, 2.5)


def lip_colour(base, part: str = "lips") -> np.ndarray:
    """The lips' albedo (sRGB (3,)) on a skin of albedo ``base``: a little darker and redder than the skin and a little
    less yellow, close to it as bare lips are (a rose, not a salmon); from mid-brown tones down a redder brown of the
    skin: a little darker, a little more red (never the pale tone's rose) and most of the yellow kept
    (the albedo's b* steps up with the red, so the hue turns red-brown, not violet); on the palest tones (paleness
    :data:`PALE_FROM` and over) up to :data:`PALE_LIP` darker and redder still, so ACES's shoulder does not wash them
    out. Never below 55% of the skin (50% on the deepest). ``part``: of :data:`LIP_PARTS` (the line never below half the skin, 45% on the deepest)."""
    pale = paleness(base)
    deep = float(np.clip((0.5 - pale) / 0.45, 0, 1))     # 0 from mid-brown tones up, 1 on the deepest
    palest = float(np.clip((pale - PALE_FROM) / (1 - PALE_FROM), 0, 1))
    base = np.asarray(base)
    lip = np.maximum(shifted(base, -(4.0 + 6.5 * pale + PALE_LIP[0] * palest),
                             2.5 + 13.0 * pale + DEEP_RED * deep + PALE_LIP[1] * palest,
                             -(3.0 + 0.5 * (1 - pale)) + DEEP_YELLOW * deep), base * (0.55 - 0.05 * deep))
    if part == "lips":
        return lip
    out = lip * (np.array(LIP_PARTS[part]) - deep * np.array(DEEP_PARTS[part]))
    return np.maximum(out, base * (0.5 - 0.05 * deep)) if part == "line" else out


def teeth_exposure(tone: str) -> float:
    """The teeth and gums' colour as a share (linear light) of the mouth texture's beside a skin shown as ``tone``
    ('#RRGGBB'): 1 from skins at L* ``TEETH_L[1]`` up, the enamel at L* ``TEETH_L[2]`` beside the deepest."""
    hi, from_l, lo, deepest = TEETH_L
    skin_l = float(lab(hex_rgb(tone))[0])
    t = float(np.clip((from_l - skin_l) / (from_l - deepest), 0, 1))
    want = hi + (lo - hi) * t * t * (3 - 2 * t)
    return round(float(((want + 16) / 116) ** 3 / ((hi + 16) / 116) ** 3), 2)
