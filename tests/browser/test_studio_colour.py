"""Skin colour in a tone-mapped studio: three.js (RoomEnvironment, Khronos PBR Neutral) and the workbench's own
previews show the skin tone that was asked for."""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from PIL import Image

from .conftest import data_url_image, open_page, run_async, save_artifact

SIZE = 384
TONES = ("#FFE0C4", "#F1C27D", "#E0AC8A", "#C68642", "#8D5524", "#5C3A21", "#3B2416")


@pytest.fixture(scope="module")
def page(browser, pages):
    open_page(browser, pages + "/studio.html")
    return browser


def fetch(url: str) -> bytes:
    r = httpx.get(url, timeout=300)
    assert r.status_code == 200, (url, r.text[:300])
    return r.content


def avatar(server, settings: dict) -> dict:
    r = httpx.post(server.avatar_base_url + "/avatar", json=settings, headers={"Authorization": f"Bearer {server.token}"})
    assert r.status_code == 201, r.text
    return r.json()["data"]


def camera_args(glb: bytes, camera: str = "portrait") -> dict:
    from workbench.render.framing import frame
    from workbench.render.scene import Clip, Model

    model = Model(glb, max_texture=1)
    cam = frame(model.posed(Clip(model), 0.0), camera)
    return {"view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near}


def test_skin_tone_in_three_js_and_in_the_preview(page, server, tmp_path):
    from workbench.render import render

    rows = []
    for tone in TONES:
        data = avatar(server, {"gender": "feminine", "skinTone": tone, "hair": {"style": "short"}})
        url = data["modelUrl"] + "?animations=idle"
        glb = fetch(url)
        args = {"model": url, "size": SIZE, "animation": "idle", "time": 0.0, **camera_args(glb)}
        lit = data_url_image(run_async(page, "window.studio.render", args))
        mask = data_url_image(run_async(page, "window.studio.render", {**args, "mask": "Body"}))[..., 0] > 127
        ours = np.asarray(render(glb, size=SIZE, camera="portrait", pose=(glb, 0.0)))
        want = np.array([int(tone[i:i + 2], 16) for i in (1, 3, 5)])
        a = lit[mask][:, :3].mean(0)
        b = ours[mask][:, :3].mean(0)
        rows.append((tone, want, a.round(1), b.round(1)))
        sheet = np.concatenate([lit, ours], 1)
        buf = io.BytesIO()
        Image.fromarray(sheet, "RGBA").save(buf, format="PNG")
        save_artifact(tmp_path, f"studio_{tone[1:]}.png", buf.getvalue())
    for r in rows:
        print(*r)


def test_probe(page, server, tmp_path):
    data = avatar(server, {"gender": "feminine", "skinTone": "#C68642", "hair": {"style": "short"}})
    url = data["modelUrl"] + "?animations=idle"
    glb = fetch(url)
    args = {"model": url, "size": SIZE, "animation": "idle", "time": 0.0, **camera_args(glb)}
    mask = data_url_image(run_async(page, "window.studio.render", {**args, "mask": "Body"}))[..., 0] > 127
    got = {}
    for a in (0.0, 0.3):
        img = data_url_image(run_async(page, "window.studio.render", {**args, "probe": {"mesh": "Body", "albedo": a}}))
        got[a] = img[mask][:, :3].astype(float) / 255
    s = got[0.0]
    k = (got[0.3] - s) / 0.3
    np.save("/tmp/face/probe_k.npy", k)
    np.save("/tmp/face/probe_s.npy", s)
    q = np.linspace(0.03, 0.97, 16)
    print("k quantiles", np.quantile(k.mean(1), q).round(3).tolist())
    print("s quantiles", np.quantile(s.mean(1), q).round(4).tolist())
    print("k mean", k.mean(0), "s mean", s.mean(0))
