"""A build on three threads (workbench.gltf.avatar._made_beside, bench/RESULTS.md pass 74): its meshes here, its materials
on a helper, its face shapes on a second helper, the hair's pieces on whichever has time (a first preview's, with no
face shapes, on the materials' helper); the same bytes as made one after the other, and an error of a helper reaching
the caller after the meshes here have ended."""

from __future__ import annotations

import threading

import pytest

from workbench import threads
from workbench.gltf import avatar, build_avatar
from workbench.gltf.avatar import build_avatar_unencoded
from workbench.options import ModelOptions, normalize_avatar_settings


def _settings(height: float, hair: str = "none") -> dict:
    # (a body no other test builds: its shapes are made by this build, not found in a cache)
    return normalize_avatar_settings({"gender": "feminine", "height": height, "hair": {"style": hair}})


def test_the_face_shapes_and_the_hair_are_made_on_helpers_beside_the_meshes(monkeypatch):
    if threads.cores() < 2:
        pytest.skip("one core: the halves run one after the other")
    seen = {}

    def recorded(name, fn):
        def call(*args, **kwargs):
            seen[name] = threading.current_thread().name
            return fn(*args, **kwargs)
        return call

    for name in ("prepare", "prepare_rest", "prepare_hair"):
        monkeypatch.setattr(avatar, name, recorded(name, getattr(avatar, name)))
    here = threading.current_thread().name
    # A model: the face shapes on a helper; the hair here after the rest (the other helper has the materials).
    glb = build_avatar(_settings(163.7, "bob"), ModelOptions(lod=0))
    assert seen["prepare"].startswith("wb-helper") and seen["prepare_rest"] == seen["prepare_hair"] == here, seen
    # ...the same bytes as the build on a helper thread, where its parts run one after the other
    assert threads.start(lambda: build_avatar(_settings(163.7, "bob"), ModelOptions(lod=0))).result() == glb
    # A first preview's (no face shapes): the hair on the materials' helper after them.
    seen.clear()
    build_avatar_unencoded(_settings(164.3, "bob"), ModelOptions(lod=0))
    assert "prepare" not in seen and seen["prepare_rest"] == here and seen["prepare_hair"].startswith("wb-helper"), seen


def test_a_model_without_face_shapes_does_not_make_them(monkeypatch):
    made = []
    monkeypatch.setattr(avatar, "prepare", lambda settings: made.append(settings))
    build_avatar(_settings(164.9), ModelOptions(lod=2))
    build_avatar(_settings(164.9), ModelOptions(lod=0), morphs=False)
    assert made == []


def test_an_error_making_the_face_shapes_reaches_the_caller_after_the_meshes(monkeypatch):
    ended = []
    rest = avatar.prepare_rest

    def rest_here(*args, **kwargs):
        rest(*args, **kwargs)
        ended.append("meshes")

    def broken(settings):
        raise RuntimeError("shapes")

    monkeypatch.setattr(avatar, "prepare", broken)
    monkeypatch.setattr(avatar, "prepare_rest", rest_here)
    with pytest.raises(RuntimeError, match="shapes"):
        build_avatar(_settings(166.1), ModelOptions(lod=0))
    assert ended == ["meshes"]
