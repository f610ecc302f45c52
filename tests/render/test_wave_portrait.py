"""A portrait of a raised hand frames the head, not the hand (``workbench.render.framing``: the ``wave`` stance, contract
section 4). Its square (``portrait_box``'s half span) grew to hold the hand beside the head, the head small in a corner:
on blind review AL's #5 (seed 4656 as data/make_review_sheets.py draws it: a short, heavy feminine body, whose raised
hand comes within the head's reach) 0.335 m without the rule against the relaxed stance's 0.185; with it 0.185 (within
SAME). Every other stance's box is the same with the rule and without it (the rule takes a forearm and hand out only when
the wrist is over the neck's joint)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)

from workbench.options import POSES, ModelOptions, normalize_avatar_settings
from workbench.render import framing
from workbench.render.pictures import preview_pose
from workbench.render.scene import Model

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

pytestmark = pytest.mark.usefixtures("sheets_built_once")
#: The wave's half span over the relaxed stance's at most this (the neck and shoulders move a little with the arm).
SAME = 1.05


@cache
def posed(pose: str):
    settings = normalize_avatar_settings({**sheets.review_settings(12, 4656)[4], "pose": pose})
    m = Model(built(settings, ModelOptions()), max_texture=1)
    return m.posed(*preview_pose(m))


def without_rule(monkeypatch, pose: str):
    monkeypatch.setattr(framing, "_forearms_and_hands", lambda joints, pts, bone: np.zeros(len(pts), bool))
    return framing.portrait_box(posed(pose))


def test_a_waving_portrait_is_as_wide_as_a_relaxed_one(monkeypatch):
    wave, relaxed = framing.portrait_box(posed("wave"))[3], framing.portrait_box(posed("relaxed"))[3]
    assert wave <= SAME * relaxed, (wave, relaxed)
    grown = without_rule(monkeypatch, "wave")[3]
    assert grown > 1.5 * relaxed, (grown, relaxed)      # (what the rule is for: the hand in the square)


@pytest.mark.parametrize("pose", [p for p in POSES if p != "wave"])
def test_the_other_stances_frame_as_before(monkeypatch, pose):
    assert framing.portrait_box(posed(pose)) == without_rule(monkeypatch, pose)
