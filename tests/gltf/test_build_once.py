"""Work an avatar's preview and its model share, done once (suite31, issue 49: the CPU of a build), and never shared
with another avatar's meshes.

A new avatar's first preview builds its model without what only a file needs (``build_avatar_unencoded``), and
its model file is built again when asked for (``build_avatar``): a stance of its own (the ``pose`` setting) was fitted
to its body and clothes in both, 0.3 to 1.3 s of CPU each (the hands' rest on the hips,
``workbench.gltf.reach.rest_hand``, most). It is kept now, keyed by everything the fit reads: the stance and the
meshes' key (``workbench.gltf.meshes.parts_key``: the body, the hair's style, the glasses, the garments' styles) at
the level of detail, at LOD 0 without the hair's style and the glasses, which the fit does not read
(``workbench.gltf.avatar.fit_key``, suite33). A cache keyed too narrowly once drew previews with another avatar's parts
(/work/shared/notes/preview-race.md): the second test builds an avatar after one whose meshes differ only by the
cut of its top (so its hand rests elsewhere) and checks its model is the bytes it is with nothing kept.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from workbench.gltf import avatar, meshes, stances
from workbench.options import ModelOptions, normalize_avatar_settings


def _settings(height: float, top: str = "tee", colour: str = "#3B5B8C") -> dict:
    # (Heights no other test builds: a body no cache holds.)
    return normalize_avatar_settings({"gender": "feminine", "bodyShape": "slim", "height": height,
                                      "pose": "hand_on_hip", "outfit": {"topStyle": top, "top": colour}})


@pytest.fixture
def rest_hand_calls(monkeypatch) -> list:
    """The sides (``"Right"``, ``"Left"``) ``stances.rest_hand`` is asked to solve while the test runs, in order."""
    calls: list = []
    solve = stances.rest_hand

    def counted(*a, **k):
        calls.append(a[1])
        return solve(*a, **k)

    monkeypatch.setattr(stances, "rest_hand", counted)
    return calls


def test_the_preview_and_the_model_fit_the_stance_once(rest_hand_calls):
    """On main the hand's rest was solved for each build (3 calls of rest_hand for one hand on the hip); here once."""
    calls = rest_hand_calls
    s = _settings(157.7)
    avatar.build_avatar_unencoded(s, ModelOptions())
    avatar.build_avatar(s, ModelOptions())
    # Another avatar with the same meshes (only the top's colour differs) shares the fit too.
    avatar.build_avatar(_settings(157.7, colour="#8C3B3B"), ModelOptions())
    assert calls == ["Right"]


@pytest.mark.parametrize("other", [dict(top="longsleeve"), dict(height=158.9)])
def test_a_stance_is_not_shared_with_other_meshes(other):
    s = _settings(159.3)
    t = _settings(**{"height": 159.3, **other})
    first = avatar.build_avatar(s, ModelOptions())
    after = avatar.build_avatar(t, ModelOptions())        # built after s: s's stance kept
    avatar._stance.cache_clear()
    alone = avatar.build_avatar(t, ModelOptions())        # built with nothing kept
    assert after == alone
    assert avatar.build_avatar(s, ModelOptions()) == first
    # The two fits differ (the models' bytes would differ by their meshes alone): a key without the top's style or
    # the height would have handed t the stance fitted for s.
    fits = [avatar._stance("hand_on_hip", avatar.fit_key(a, 0), 0).rotations["RightForeArm"] for a in (s, t)]
    assert not np.array_equal(*fits)


def test_unnormalized_settings_with_an_unhashable_pose_say_so():
    """The stance's cache hashes the pose: a list there is unnormalized settings (review of pass 31: it raised
    ``TypeError: unhashable type`` past the build's check)."""
    s = {**_settings(157.7), "pose": ["hand_on_hip"]}
    with pytest.raises(ValueError, match="build_avatar: settings are not normalized"):
        avatar.build_avatar(s, ModelOptions(lod=2))


def _hair(style: str, height: float, glasses: str = "clear") -> dict:
    return normalize_avatar_settings({"gender": "masculine", "bodyShape": "athletic", "height": height,
                                      "hair": {"style": style}, "glasses": glasses})


def test_the_glasses_and_the_dressed_body_are_made_once_for_every_hair_style(monkeypatch):
    """The glasses read the body and the frame, the body's other pieces (skin, face, brows, clothes) the body and the
    garments: neither the hair. Main made both again for each hair style of one body (the triangle budget's sweep of
    every combination made the glasses 384 times for 24 bodies and frames: 60 % of its time; suite32): on main 4 calls
    of the glasses here (three styles and the model's LOD 1) and 3 of the clothes, 1 each now. Through
    ``triangle_count`` and the model's LOD 1 (its glasses are LOD 0's)."""
    calls: dict[str, int] = {"glasses": 0, "outfit": 0, "lower": 0}

    def counted(name, make):
        def call(*a, **k):
            calls[name] += 1
            return make(*a, **k)
        return call

    monkeypatch.setattr(meshes, "glasses_piece", counted("glasses", meshes.glasses_piece))
    monkeypatch.setattr(meshes, "outfit_pieces", counted("outfit", meshes.outfit_pieces))
    monkeypatch.setattr(meshes, "lower_pieces", counted("lower", meshes.lower_pieces))   # (the bottom and shoes)
    for style in ("short", "long", "curly"):
        meshes.triangle_count(_hair(style, 161.9), 0)
    avatar.build_avatar(_hair("short", 161.9), ModelOptions(lod=1))
    assert calls == {"glasses": 1, "outfit": 1, "lower": 1}


def _clear_meshes() -> None:
    for kept in (meshes._parts, getattr(meshes, "_dressed", None), getattr(meshes, "_upper", None),
                 getattr(meshes, "_upper_parts", None), getattr(meshes, "_hair", None), getattr(meshes, "_glasses", None),
                 avatar._stance):
        if kept is not None:
            kept.cache_clear()


def _arrays(kept: dict) -> dict:
    return {(name, f.name): getattr(p, f.name) for name, p in kept.items() for f in dataclasses.fields(p)}


@pytest.mark.parametrize("other", [dict(style="bun"), dict(glasses="round"), dict(height=163.1)])
def test_kept_pieces_are_not_shared_with_other_meshes(other):
    """Meshes made after ones that share the body (another hair style) or not (another frame, another body) are the
    arrays they are with nothing kept (LOD 1: its pieces are LOD 0's decimated, its glasses LOD 0's)."""
    s = _hair("long", 162.7)
    t = _hair(**{"style": "long", "height": 162.7, **other})
    meshes.parts(s, 1)
    after = _arrays(meshes.parts(t, 1))
    _clear_meshes()
    alone = _arrays(meshes.parts(t, 1))
    assert after.keys() == alone.keys()
    assert all(np.array_equal(after[k], alone[k]) for k in after)


def _on_hip(style: str, glasses: str = "none") -> dict:
    # (A height no other test builds: a body no cache holds. One hand on the hip: the cheapest fit, 0.3 to 1.3 s.)
    return normalize_avatar_settings({"gender": "feminine", "bodyShape": "slim", "height": 164.9, "pose": "hand_on_hip",
                                      "hair": {"style": style}, "glasses": glasses})


def test_a_stance_is_fitted_once_whatever_the_hair_and_glasses(rest_hand_calls):
    """The fit reads the body and its clothes, neither the hair nor the glasses (workbench.gltf.avatar.fit_key): an
    avatar built bald beside its haired self with glasses (as tests/body/test_hairline_band_review_r.py measures review
    R's #3, whose two clasped hands' rests cost 3 to 5 s of CPU a build) fits its stance once at LOD 0, whichever the
    stance (the key is the meshes', not the stance's; one hand on the hip is the cheapest to fit). On main, 2 calls of
    rest_hand here (once a build); now 1. The bald model is the bytes it is with nothing kept (a key too narrow would
    have handed it another body's or garment's fit: test_a_stance_is_not_shared_with_other_meshes)."""
    calls = rest_hand_calls
    avatar.build_avatar(_on_hip("curly", "round"), ModelOptions(animations=("idle",)))
    after = avatar.build_avatar(_on_hip("none"), ModelOptions(animations=("idle",)))
    assert calls == ["Right"]
    avatar._stance.cache_clear()
    assert after == avatar.build_avatar(_on_hip("none"), ModelOptions(animations=("idle",)))
