"""Previews frame the whole avatar, hair included, with a margin, at any setting (issue 36): a seeded draw
over every allowed value of every field of the avatar settings (read from the service's own OpenAPI
schema, so fields and values added later are drawn too), each avatar's first preview made as the service
makes it, portrait and full."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.gltf.avatar import build_avatar_unencoded
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import Model, render
from workbench.render.framing import frame
from workbench.service.openapi import build_openapi

SEED = 36
COUNT = 12
SIZE = 160
MARGIN = 0.02   # of the picture, at least, between the figure and the edges it must not touch


def _draw_value(schema: dict, rng, cycle):
    if "enum" in schema:
        return cycle()
    if schema.get("type") == "object":
        return {k: _draw_value(v, rng, cycle) for k, v in schema.get("properties", {}).items()}
    if schema.get("type") == "number":
        return round(float(rng.uniform(schema["minimum"], schema["maximum"])), 1)
    if "pattern" in schema and "#" in schema["pattern"]:
        return "#" + "".join(f"{v:02X}" for v in rng.integers(0, 256, 3))
    return None


def random_settings(count: int = COUNT, seed: int = SEED) -> list[dict]:
    """``count`` avatar settings, every field drawn: enumerations in shuffled cycles (each allowed value at
    least once when ``count`` reaches their number), colours any #RRGGBB, numbers uniform in their range."""
    schema = build_openapi("http://127.0.0.1")["components"]["schemas"]["AvatarSettings"]
    rng = np.random.default_rng(seed)
    cycles: dict[str, list] = {}

    def walk(props: dict, path: str, k: int) -> dict:
        out = {}
        for name, sub in props.items():
            key = f"{path}{name}"
            if "enum" in sub:
                if key not in cycles:
                    values = list(sub["enum"]) * (count // len(sub["enum"]) + 1)
                    rng.shuffle(values)
                    cycles[key] = values
                out[name] = cycles[key][k]
            elif sub.get("type") == "object":
                out[name] = walk(sub["properties"], key + ".", k)
            else:
                value = _draw_value(sub, rng, None)
                if value is not None:
                    out[name] = value
        return out

    return [walk(schema["properties"], "", k) for k in range(count)]


SHEET = random_settings()


def test_the_draw_covers_every_allowed_value():
    schema = build_openapi("http://127.0.0.1")["components"]["schemas"]["AvatarSettings"]
    for name in ("gender", "bodyShape", "glasses"):
        assert {s[name] for s in SHEET} == set(schema["properties"][name]["enum"])
    assert {s["hair"]["style"] for s in SHEET} == set(schema["properties"]["hair"]["properties"]["style"]["enum"])
    assert len({s["skinTone"] for s in SHEET}) == COUNT


def _figure(glb, images, camera):
    """The preview's pixels (no contact shadow: it is not the avatar) and its camera."""
    im = np.asarray(render(glb, size=SIZE, camera=camera, images=images, shadow=False))
    model = Model(glb, max_texture=1)
    from workbench.render.pictures import preview_pose, _posed

    cam = frame(_posed(model, preview_pose(model)), camera)
    return im[..., 3] > 0, cam, model


@pytest.mark.parametrize("k", range(COUNT))
def test_previews_frame_the_whole_avatar_with_a_margin(k):
    settings = normalize_avatar_settings(SHEET[k])
    glb, images = build_avatar_unencoded(settings, ModelOptions())
    band = max(1, int(round(MARGIN * SIZE)))
    full, _, _ = _figure(glb, images, "full")
    assert full.any()
    for name, edge in (("top", full[:band]), ("bottom", full[-band:]), ("left", full[:, :band]),
                       ("right", full[:, -band:])):
        assert not edge.any(), (SHEET[k], "full", name)
    portrait, cam, model = _figure(glb, images, "portrait")
    # The head and its hair: the rows above the neck joint (the shoulders go on past the sides below it).
    from workbench.render.pictures import preview_pose, _posed

    neck = _posed(model, preview_pose(model)).joints["Neck"]
    v = cam.view[:3, :3] @ neck + cam.view[:3, 3]
    row = int((0.5 - 0.5 * v[1] / -v[2] / np.tan(np.radians(cam.fov_deg) / 2)) * SIZE)
    head = portrait[:row]
    assert head.any()
    for name, edge in (("top", head[:band]), ("left", head[:, :band]), ("right", head[:, -band:])):
        assert not edge.any(), (SHEET[k], "portrait", name)
