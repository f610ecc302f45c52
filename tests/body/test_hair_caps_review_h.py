"""Review H's slicked-back styles and bald head (issue 46, defect 4 and the hair sub-scores bun 4.5, ponytail 4,
bald 5), each measured where it comes from, on seeded random bodies:

- *Saw-toothed crown*: a sleek style's cards (``Hair_Sleek``), flat ribbons 2 cm wide lying on a curved head, were
  tilted by the envelope's floor under one edge and stood 8 to 10 mm off it at the other over the temples: seen
  edge-on round the outline, each card a tooth. Bent across to lie on the head (``cards.hugged``), their vertices
  over the temples are within :data:`MOST_TEMPLE_HEIGHT` of its envelope (95th percentile; on main 7 to 9 mm).
- *Blocky brush strokes*: each sleek card rose off the head along its first centimetres, crossing the cards it
  passed over (the two cut through each other in triangles of either one's shade), and cards rooted all over the
  cap ended short of the gathered part in points of their own shades. Each card now lies at one height all along
  (two cards at their own heights never meet: spread along a card at most :data:`MOST_CARD_RISE`, on main 1.5 mm),
  and none roots near the crown (inside :data:`CROWN` of the rootline, where the cards root to; on main a third of
  them; of the rootline, not the hairline: temples37 brought the hairline down over the temples, not the roots).
- *The ponytail one flat strip*: shaded as hair hanging round the body, the tail was all "under" its own farthest
  side, in its darkest shade (vertex light 0.45): a dark flat strip. Shaded in its own round, its median light is at
  least :data:`LEAST_TAIL_LIGHT` (on main 0.45); crossed cards through its middle give it hair across its width
  from every side.
- *The bun a small ball*: at least :data:`LEAST_BUN` of the head's radius across (on main 0.73).
- *Bald is an egg*: a shaved scalp's stubble inside the hairline, in the hair's colour: with dark hair the scalp's
  texels at least :data:`LEAST_SCALP_SHADOW` darker than the same skin without it, broken into dots (on main a bald
  avatar's skin is the haired one's).
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.hair import canon, hair_pieces, shaved
from workbench.body.hair.bake import hair_head
from workbench.body.hair.bald import front_mask, scalp_mask
from workbench.body.hair.head import rootline
from workbench.body.mesh import body_mesh
from workbench.body.skin import skin_texture
from workbench.options import normalize_avatar_settings

MOST_TEMPLE_HEIGHT = 0.0062
# (0.0006 until pass 66's higher bun, coils.BUN_AT: the back's cards now run some 3 cm further, up over the crown, and
# wander about their height along their length a little more (each card's height's spread, median 0.22 mm at the back
# against 0.14 before), the median rise 0.00064 (0.00044 before). None rises off the head from its root, the defect
# this test was written against (1.5 mm along a card's first centimetres): the back's cards' median height against their
# root's within 0.1 mm at every row, none with its root its lowest vertex. Review R's strands, which cards cutting
# through one another would break into dashes, hold: tests/render/test_sleek_dashes_review_r.py.)
MOST_CARD_RISE = 0.0007
CROWN = 0.5
LEAST_TAIL_LIGHT = 0.58
LEAST_BUN = 0.8
LEAST_SCALP_SHADOW = 0.12
# The stubble's shadow's spread texel to texel, against its mean: a flat cap's is 0. (0.25 until pass 59, main's 0.27;
# its dots over a shadow between them since (bald.BETWEEN 0.7, blind review AQ's "patchy stipple, close to scabs"),
# 0.17.)
LEAST_STUBBLE_SPREAD = 0.12


def _raw(k: int, style: str, color: str | None = None) -> dict:
    s = random_settings(2, seed=4613)[k]
    return dict(s, hair=dict(s["hair"], style=style, **({"color": color} if color else {})))


@cache
def _settings(k: int, style: str) -> dict:
    return normalize_avatar_settings(_raw(k, style))


@cache
def _sleek(k: int, style: str):
    """Settings ``k`` with ``style``: (their hair's pieces at LOD 0 as the GLB has them, the head it was grown on)."""
    s = _settings(k, style)
    mesh = body_mesh(s)
    top, bottom = s["outfit"]["topStyle"], s["outfit"]["bottomStyle"]
    return hair_pieces(mesh, style, 0, top, bottom, sleek=True), hair_head(mesh, top, bottom)


def _angles_heights(positions, head):
    rel = positions.astype(np.float64) - head.centre
    r = np.linalg.norm(rel, axis=1)
    d = rel / r[:, None]
    az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
    pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
    return az, pol, r - head.envelope(d)


@pytest.mark.parametrize("style", ["bun", "ponytail"])
@pytest.mark.parametrize("k", [0, 1])
def test_sleek_cards_lie_on_the_head_round_its_outline(k, style):
    pieces, head = _sleek(k, style)
    az, pol, h = _angles_heights(pieces["Hair_Sleek"].positions, head)
    temples = (np.abs(az) > 60) & (np.abs(az) < 140) & (pol > 30) & (pol < 80)
    assert temples.sum() > 500
    assert np.percentile(h[temples], 95) <= MOST_TEMPLE_HEIGHT, float(np.percentile(h[temples], 95))


@pytest.mark.parametrize("style", ["bun", "ponytail"])
def test_sleek_cards_lie_each_at_its_own_height_and_root_off_the_crown(style):
    mesh = body_mesh(_settings(0, style))
    head = hair_head(mesh, None)
    cards = canon.fitted(mesh, style, 0, head).cards
    S, K, _ = cards.pts.shape
    az, pol, h = (a.reshape(S, K) for a in _angles_heights(cards.pts.reshape(-1, 3), head))
    rise = np.ptp(h, axis=1)
    assert np.median(rise) <= MOST_CARD_RISE, float(np.median(rise))
    near_crown = pol[:, 0] < CROWN * rootline(style, az[:, 0])
    assert near_crown.sum() == 0, int(near_crown.sum())


@pytest.mark.parametrize("k", [0, 1])
def test_the_ponytails_tail_is_lit_in_its_own_round_and_full(k):
    pieces, head = _sleek(k, "ponytail")
    hair = pieces["Hair"]
    card = hair.uv[:, 0] < 0.5
    tail = card & (hair.positions[:, 1] < head.centre[1] - 0.05)
    light = hair.colors[tail, 0]
    assert np.median(light) >= LEAST_TAIL_LIGHT, float(np.median(light))
    # Full from the back and from the side: its width across (x) and its depth (z), 5 to 15 cm below the tie. (Across
    # 0.06 until pony32: the tail swayed 2.5 cm aside from a fifth of the way down, and that lean was part of its width;
    # down the middle, as review V asks, 5.5 and 5.3 cm, as full to the eye. Across 0.052 until sleek39: the tail
    # tapering from a fifth of its length, not from 0.3 of it, review AC's "paddle", tests/render/
    # test_ponytail_taper_review_ac.py: the second 4.96 cm across, its depth 5.11.)
    p = hair.positions[tail]
    tie = p[:, 1].max()
    band = p[(p[:, 1] < tie - 0.05) & (p[:, 1] > tie - 0.15)]
    assert np.ptp(band[:, 0]) > 0.048 and np.ptp(band[:, 2]) > 0.05, (np.ptp(band[:, 0]), np.ptp(band[:, 2]))


def test_the_bun_is_more_than_a_small_ball():
    from workbench.body.hair.coils import bun_axis

    mesh = body_mesh(_settings(0, "bun"))
    head = hair_head(mesh, None)
    wraps = canon.fitted(mesh, "bun", 0, head).extra[0].pts.reshape(-1, 3) - head.centre
    axis = bun_axis(head)
    across = wraps - (wraps @ axis)[:, None] * axis
    width = 2 * np.linalg.norm(across, axis=1).max()
    assert width >= LEAST_BUN * head.radius, width / head.radius


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_a_bald_scalp_shows_a_shaved_heads_stubble(gender):
    tone, hair = "#C79575", "#2B1B10"
    skin = skin_texture(tone, gender).reshape(-1, 3).astype(float)
    bald = shaved(tone, gender, hair).reshape(-1, 3).astype(float)
    at, w = scalp_mask(gender, 1024)
    scalp = at[w > 128]
    lum = np.array([0.2126, 0.7152, 0.0722])
    darker = 1 - (bald[scalp] @ lum).mean() / (skin[scalp] @ lum).mean()
    assert darker >= LEAST_SCALP_SHADOW, darker
    # Broken into stubble dots, not a flat cap: the shadow varies texel to texel.
    shadow = (skin[scalp] - bald[scalp]) @ lum
    assert shadow.std() > LEAST_STUBBLE_SPREAD * shadow.mean(), (shadow.std(), shadow.mean())
    # Nothing but the scalp changes: the face, hands and body are the skin's own.
    rest = np.setdiff1d(np.arange(len(skin)), at)
    assert (bald[rest] == skin[rest]).all()
    # Light hair's stubble hardly shows.
    blond = shaved(tone, gender, "#E6CFA0").reshape(-1, 3).astype(float)
    assert (skin[scalp] - blond[scalp]).mean() < 0.5 * (skin[scalp] - bald[scalp]).mean()


def test_a_bald_avatars_skin_is_the_shaved_one_and_other_styles_keep_theirs():
    from workbench.gltf.avatar import _materials

    haired = _materials(normalize_avatar_settings(_raw(0, "short", "#2B1B10")))["Body"]["image"]
    bald = _materials(normalize_avatar_settings(_raw(0, "none", "#2B1B10")))["Body"]["image"]
    assert bald.shape == haired.shape and (bald != haired).any()
    # (Short hair's skin has fine hairs drawn where its forehead's hairline fades, blind review R, bald.front_hairs:
    # there a bald head's stubble, which stops higher, may be the lighter; everywhere else a haired skin is the skin's
    # own, and the shaved one is never lighter than it.)
    hairs, _ = front_mask(_raw(0, "short")["gender"], haired.shape[0], "short")
    rest = np.ones(haired.shape[0] * haired.shape[1], bool)
    rest[hairs] = False
    assert (bald.reshape(-1, 3)[rest] <= haired.reshape(-1, 3)[rest]).all()
