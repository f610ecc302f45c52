"""A model's build: its face shapes made on a helper thread beside its meshes (workbench.gltf.avatar, bench/RESULTS.md
pass 74), the same bytes as made one after the other, and an error there reaching the caller."""

from __future__ import annotations

import threading

import pytest

from workbench import threads
from workbench.gltf import avatar, build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings


def _settings(height: float) -> dict:
    # (a body no other test builds: its shapes are made by this build, not found in a cache)
    return normalize_avatar_settings({"gender": "feminine", "height": height, "hair": {"style": "none"}})


def test_the_face_shapes_are_made_on_a_helper_beside_the_meshes(monkeypatch):
    if threads.cores() < 2:
        pytest.skip("one core: the halves run one after the other")
    seen = {}
    prepare, parts = avatar.prepare, avatar.parts

    def prepare_here(settings):
        seen["shapes"] = threading.current_thread().name
        return prepare(settings)

    def parts_here(*args, **kwargs):
        seen["meshes"] = threading.current_thread().name
        return parts(*args, **kwargs)

    monkeypatch.setattr(avatar, "prepare", prepare_here)
    monkeypatch.setattr(avatar, "parts", parts_here)
    glb = build_avatar(_settings(163.7), ModelOptions(lod=0))
    assert seen["shapes"].startswith("wb-helper") and seen["meshes"] == threading.current_thread().name, seen
    # ...the same bytes as the build on a helper thread, where its halves run one after the other
    assert threads.start(lambda: build_avatar(_settings(163.7), ModelOptions(lod=0))).result() == glb


def test_a_model_without_face_shapes_does_not_make_them(monkeypatch):
    made = []
    monkeypatch.setattr(avatar, "prepare", lambda settings: made.append(settings))
    build_avatar(_settings(164.9), ModelOptions(lod=2))
    build_avatar(_settings(164.9), ModelOptions(lod=0), morphs=False)
    assert made == []


def test_an_error_making_the_face_shapes_reaches_the_caller_after_the_meshes(monkeypatch):
    ended = []
    parts = avatar.parts

    def parts_here(*args, **kwargs):
        out = parts(*args, **kwargs)
        ended.append("meshes")
        return out

    def broken(settings):
        raise RuntimeError("shapes")

    monkeypatch.setattr(avatar, "prepare", broken)
    monkeypatch.setattr(avatar, "parts", parts_here)
    with pytest.raises(RuntimeError, match="shapes"):
        build_avatar(_settings(166.1), ModelOptions(lod=0))
    assert ended == ["meshes"]
