"""Helpers the tests share: reading the contract's error envelope, a Bearer header, making a viewer and a space
template, posting tracking batches in process, finishing an upload, a funnel's depth by exhaustive search, a GLB
with ARKit-named morph targets, waiting for a condition with a bound (a bound, never a measured time), a busy CPU,
notebooks of widget cells, an event table written by hand, one HTTP message read off a raw socket, the clients
the hostile tests point at a server, one avatar's portrait drawn in another's frame (a haired and a bald one lined
up), an avatar's model read back for the face's tests (:func:`face_model`), and avatar settings drawn at random over every allowed value of the service's own settings schema (the random
sheets and the framing test).

>>> auth(type("S", (), {"token": "wb_x"})())
{'Authorization': 'Bearer wb_x'}
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import itertools
import json
import os
import subprocess
import sys
import threading
import time

import httpx
import numpy as np
import pytest

from workbench.gltf.glb import ARRAY_BUFFER, GlbWriter, read_accessor, read_glb
from workbench.render.raster import Lights


def auth(server, token: str | None = None) -> dict:
    """The Authorization header of ``token`` (default: the server's development token)."""
    return {"Authorization": f"Bearer {token or server.token}"}


def error_of(resp: httpx.Response, status: int, code: str, field: str | None = None) -> dict:
    """The ``error`` of an answer in the contract's envelope, after checking its status and code
    (and that ``field`` is named by a detail); a message and X-Request-Id are always there."""
    assert resp.status_code == status, (resp.status_code, resp.text)
    body = resp.json()
    assert body["status"] == "error" and body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert resp.headers.get("x-request-id")
    if field is not None:
        assert field in [d["field"] for d in body["error"]["details"]], body
    return body["error"]


def new_viewer(server, kind: str = "product") -> str:
    """A new viewer's token, made through the control API."""
    r = httpx.post(server.local_url + "/viewers", json={"kind": kind}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["data"]["viewerToken"]


def new_avatar(server, settings: dict | None = None) -> dict:
    """A registered avatar's data (modelId, modelUrl, previewUrl)."""
    r = httpx.post(server.avatar_base_url + "/avatar", json=settings or {"gender": "feminine"}, headers=auth(server),
                   timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def post_batches(app, viewer_token: str, bodies: list) -> list[httpx.Response]:
    """Tracking batch bodies POSTed all at once to the in-process ``app`` (ASGI) for ``viewer_token``; the
    answers in order."""
    import asyncio

    async def send_all():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost") as c:
            return await asyncio.gather(*(c.post(f"/api/viewers/{viewer_token}/tracking-event/batch", content=body,
                                                 headers={"content-type": "application/json"}) for body in bodies))
    return asyncio.run(send_all())


def wait_for(predicate, timeout: float = 60.0, every: float = 0.05):
    """Poll ``predicate`` until it gives a true value or ``timeout`` seconds pass; its last value. The default
    bound is for a loaded CI machine (two workers and four spinning processes on two cores); a predicate that
    holds returns at once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()


class Seen(io.StringIO):
    """A stream (a stand-in ``sys.stderr``) whose ``seen`` event is set once ``text`` has been written to it:
    a test's server can hold its answer until a progress bar has shown, a bound and not a measured time.

    >>> s = Seen("ready"); _ = s.write("get "); _ = s.write("ready"); s.seen.is_set()
    True
    """

    def __init__(self, text: str):
        super().__init__()
        self.text, self.seen = text, threading.Event()

    def write(self, s: str) -> int:
        n = super().write(s)
        if self.text in self.getvalue():
            self.seen.set()
        return n


@contextlib.contextmanager
def busy_cpu():
    """As many processes spinning as the machine has cores, for the length of the block: a shared
    machine while other work runs. Under pytest-xdist the other workers are that other work, each
    counted as one core busy: on 2 cores with ``-n 2`` one process spins beside the other worker's
    tests, rather than two starving them (the browser tests there took twice as long and timed out).
    Gives how many spin.
    """
    others = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) - 1
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(max(1, (os.cpu_count() or 2) - others))]
    try:
        yield len(spinners)
    finally:
        for p in spinners:
            p.kill()
        for p in spinners:
            p.wait()


@contextlib.contextmanager
def stances_fitted_under(*patches: tuple[object, str, object]):
    """Avatars built in the block fit their stances with ``patches`` ((module, name, value): the fit's constants)
    in place. The fitted stances a build keeps (``workbench.gltf.avatar._stance``) are keyed by the settings, not by
    these constants: emptied before the block, so its builds fit under the patch, and after it, so no later build
    gets a stance fitted under it."""
    from workbench.gltf import avatar

    kept = [(module, name, getattr(module, name)) for module, name, _ in patches]
    avatar._stance.cache_clear()
    try:
        for module, name, value in patches:
            setattr(module, name, value)
        yield
    finally:
        for module, name, value in kept:
            setattr(module, name, value)
        avatar._stance.cache_clear()


def cli_in_process(capsys, *args: str) -> subprocess.CompletedProcess:
    """``workbench ARGS`` by the command's own ``main`` in this process, as its console script calls it: what it
    prints and its status, without a new interpreter (a second or more of CPU each) for a command refused before
    any work starts (a usage error, a value out of range, --version). Tests of the command's own process run it."""
    from workbench.cli import main

    capsys.readouterr()
    try:
        status = main(list(args))
    except SystemExit as e:  # argparse's own errors, --version
        status = e.code
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["workbench", *args], status, out, err)


# The widget of notebook 01's ModelExplorer, reduced: an Output cleared and filled while its own cell runs (the
# cell that stalled nbclient, issue 29).
EXPLORER = '''
import ipywidgets as W
from IPython.display import display

class Explorer:
    def __init__(self):
        self.out = W.Output()
        self.widget = W.VBox([W.Checkbox(description="mergeMesh"), self.out])
        self.out.clear_output(wait=True)
        with self.out:
            display("a summary of the model " * 20)

    def _ipython_display_(self):
        display(self.widget)
'''


def explorer_cells(n: int) -> list[str]:
    """:data:`EXPLORER`'s class, then ``n`` cells that each show a new explorer."""
    return [EXPLORER] + [f"e{i} = Explorer()\ne{i}" for i in range(n)]


def notebook_of(cells: list[str]):
    """A python3 notebook of code cells, each under a heading ``## step N`` (a group of its own in the runner's
    reports)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for i, source in enumerate(cells):
        nb.cells += [nbformat.v4.new_markdown_cell(f"## step {i}"), nbformat.v4.new_code_cell(source)]
    return nb


def tagged_notebook(cells):
    """A python3 notebook of (kind, source, tags) cells: ``kind`` "md" a markdown cell, anything else code."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, source, tags in cells:
        cell = nbformat.v4.new_markdown_cell(source) if kind == "md" else nbformat.v4.new_code_cell(source)
        cell.metadata["tags"] = tags
        nb.cells.append(cell)
    return nb


def worst_outside(points: np.ndarray, outer, near: np.ndarray) -> float:
    """The largest offset of ``points`` in front of the garment ``outer`` (a posed Draw), each measured
    against the tangent plane it is most behind among its ``near`` garment vertices (-1 for no points)."""
    out = np.einsum("nkc,nkc->nk", points[:, None] - outer.positions[near], outer.normals[near]).min(1)
    return float(out.max()) if len(out) else -1.0


@functools.cache
def body_of(gender: str = "feminine", shape: str = "average", height: float | None = None, face: tuple = ()):
    """The MakeHuman body for these settings (and ``face`` controls, as (name, value) pairs), made once per test
    process (the body and hair tests share it)."""
    from workbench.body.mesh import body_mesh
    from workbench.options import normalize_avatar_settings

    settings: dict = {"gender": gender, "bodyShape": shape}
    if height:
        settings["height"] = height
    if face:
        settings["face"] = dict(face)
    return body_mesh(normalize_avatar_settings(settings))


def store_events(db, n: int, viewer: str = "vw_bulk", chunk: int = 500_000) -> None:
    """Store ``n`` synthetic events (:func:`workbench.tracking.synth.generate`, ``chunk`` at a time, each seeded by its
    first event's number) straight into the local service's ``events`` table in the SQLite file ``db``: a lake's worth
    of stored events without the cost of ingest over HTTP (the lake tests and bench/lake_memory.py)."""
    import sqlite3

    import pandas as pd

    from workbench.tracking.synth import generate

    with contextlib.closing(sqlite3.connect(db)) as con:
        for lo in range(0, n, chunk):
            df = generate(min(chunk, n - lo), seed=lo, flat=True)
            ms = pd.DatetimeIndex(df["timestamp"]).as_unit("ms").asi8
            payload = df["payload.loadTimeMs"].map(lambda v: '{"loadTimeMs":%r}' % v if v == v else "{}")
            with con:
                con.executemany("INSERT INTO events (viewer_token, session_id, event_id, key, payload, ts, received_at) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                zip([viewer] * len(df), df["sessionId"].astype(str), df["id"].astype(str),
                                    df["key"].astype(str), payload, ms.tolist(), ms.tolist(), strict=True))

def painted_lips(m, gender: str) -> tuple[float, float]:
    """(mm the painted upper lip reaches above the mouth's corners on the face's middle, mm the lower reaches below) of
    body ``m``: the skin texture's ``lips`` mask (:func:`workbench.body.skin.features` of ``gender``) at a half or more,
    carried onto ``m`` by its UVs.

    >>> up, down = painted_lips(body_of("feminine"), "feminine")
    >>> 4 < up < 9 < down < 13
    True
    """
    p, painted, left, mid = painted_lip_texels(m, gender)
    middle = (np.abs(p[:, 0] - mid[0]) < 0.0015) & (p[:, 2] > left[2] - 0.004) & painted
    return float(p[middle, 1].max() - mid[1]) * 1000, float(mid[1] - p[middle, 1].min()) * 1000


def painted_lip_texels(m, gender: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Body ``m``'s skin texels carried onto the face by its UVs: (each texel's place (N, 3), whether the skin
    texture's ``lips`` mask (:func:`workbench.body.skin.features` of ``gender``) is a half or more there, the mouth's
    left corner, the corners' middle)."""
    from workbench.body.skin import SKIN_SIZE, features, lip_corners
    from workbench.body.texels import texel_map

    tris = m.triangles[m.face_groups["body"]]
    p = texel_map(m.triangle_uvs[m.face_groups["body"]], SKIN_SIZE).paint_vertices(tris, m.positions).reshape(-1, 3)
    left, right = lip_corners(m)
    lips = np.zeros(SKIN_SIZE * SKIN_SIZE)
    at, w = features(gender)["lips"]
    lips[at] = w
    return p, lips >= 0.5, left, (left + right) / 2

def assert_error(resp, status, code, field=None):
    """The whole error envelope of an answer, after :func:`error_of`'s checks."""
    return {"status": "error", "error": error_of(resp, status, code, field)}


def assert_refused_value(server, settings: dict, field: str, allowed) -> None:
    """POST /avatar with ``settings`` is a 400 ``invalid_settings`` naming ``field`` with every one of ``allowed`` in
    its message, and registers nothing (the service's count of avatars unchanged)."""
    before = httpx.get(server.local_url + "/health").json()["data"]["counts"]["avatars"]
    body = assert_error(httpx.post(server.avatar_base_url + "/avatar", json=settings, headers=auth(server)), 400,
                        "invalid_settings", field)
    detail = next(d for d in body["error"]["details"] if d["field"] == field)
    assert all(v in detail["message"] for v in allowed), detail
    assert httpx.get(server.local_url + "/health").json()["data"]["counts"]["avatars"] == before


def make_space(server, kind="glb", filename=None, data=None, account="dev"):
    """A new space template through the control API, with ``data`` uploaded as ``filename`` when given."""
    sid = httpx.post(server.local_url + "/spaces", json={"kind": kind, "account": account}).json()["data"]["spaceTemplateId"]
    if filename:
        r = httpx.put(f"{server.local_url}/spaces/{sid}/upload", params={"filename": filename}, content=data)
        assert r.status_code == 200, r.text
    return sid


def finish(server, sid, success="true", message="done", token=None, **kw):
    """POST finish-upload of template ``sid`` as a multipart form (``token=""`` sends none)."""
    files = kw.pop("files", {"success": (None, success), "message": (None, message)})
    return httpx.post(f"{server.base_url}/resources/spaces/{sid}/finish-upload", files=files,
                      headers=auth(server, token) if token != "" else {}, **kw)


def space_state(server, sid):
    """The template's state as the control API tells it."""
    return httpx.get(f"{server.local_url}/spaces/{sid}").json()["data"]["state"]


# ---------------------------------------------------------------- event tables written by hand

def event_table(rows, by: str = "sessionId"):
    """(group, key, ms after 2026-11-01 00:00 UTC[, id[, payload]]) rows as an event table, the analysis tests'
    hand-made input (ids ``e0``, ``e1``... and empty payloads where a row gives none)."""
    import pandas as pd

    t0, ms = pd.Timestamp("2026-11-01", tz="UTC"), pd.Timedelta(milliseconds=1)
    return pd.DataFrame({by: [r[0] for r in rows], "key": [r[1] for r in rows],
                         "timestamp": [t0 + r[2] * ms for r in rows],
                         "id": [r[3] if len(r) > 3 else f"e{i}" for i, r in enumerate(rows)],
                         "payload": [r[4] if len(r) > 4 else {} for r in rows]})


# ---------------------------------------------------------------- raw sockets, and clients of a hostile server

# Lights that draw every surface at its own colour (no key, fill, rim or sheen): the render tests' masks of a part
# (a part drawn white over black) and their flat-colour pictures.
UNLIT = Lights(key=0, fill=0, rim=0, sky=1, ground=1, exposure=1, sheen=0, sheen_grazing=0, skin_wrap=0)


def through(posed, cam, size: int, texture) -> np.ndarray:
    """Where the skin shows white through ``texture`` (a mask on the skin's UVs) in ``posed`` drawn unlit by ``cam``
    at ``size`` px, every other mesh black: a (size, size) bool mask of a part of the skin as the camera sees it."""
    from dataclasses import replace

    from workbench.render.raster import draw
    from workbench.render.scene import Material

    draws = []
    for d in posed.draws:
        mat = Material(color=np.ones(4, np.float32), double_sided=d.material.double_sided)
        if d.mesh_name == "Body":
            draws.append(replace(d, material=replace(mat, texture=texture)))
            continue
        colors = np.zeros((len(d.positions), 4), np.float32)
        colors[:, 3] = 1
        draws.append(replace(d, colors=colors, uv=None, material=mat))
    return draw(replace(posed, draws=draws), cam, size, lights=UNLIT)[..., 0] > 127


def mesh_mask(posed, cam, size: int, shows) -> np.ndarray:
    """Where the meshes whose names ``shows(name)`` accepts show in ``posed`` drawn unlit by ``cam`` at ``size`` px:
    a (size, size) bool mask, those meshes drawn white and every other one black, so what lies in front of them hides
    them."""
    from dataclasses import replace

    from workbench.render.raster import draw
    from workbench.render.scene import Material

    def grey(c: float, d) -> Material:
        return Material(color=np.array([c, c, c, 1], np.float32), double_sided=d.material.double_sided)

    return draw(replace(posed, draws=[replace(d, material=grey(1.0 if shows(d.mesh_name) else 0.0, d))
                                      for d in posed.draws]), cam, size, lights=UNLIT)[..., 0] > 127


def in_frame_of(posed, like, yaw: float):
    """(``posed`` turned by ``yaw`` about ``like``'s pivot, the portrait camera of ``like`` turned so): two posed
    models drawn in one frame (with and without hair, say) differ only where they differ, and a measure in pixels of
    the hair keeps its scale when a bun over the crown grows the haired portrait's square (``framing.portrait_box``)."""
    from workbench.render.framing import frame
    from workbench.render.pictures import _pivot, _turned

    pivot = _pivot(like)
    return _turned(posed, yaw, pivot, 0.0), frame(_turned(like, yaw, pivot, 0.0), "portrait")


def portrait_in(glb: bytes, like: bytes, size: int, yaw: float, background: tuple[int, int, int]) -> np.ndarray:
    """``glb``'s portrait as :func:`workbench.render.render` draws it in its first clip's first frame (``pose=(glb,
    0.0)``) at ``yaw``, but turned and framed as ``like``'s (:func:`in_frame_of`): RGB floats (size, size, 3)."""
    from workbench.render.pictures import SUPERSAMPLE, _max_texture, _model, _posed, _shadow
    from workbench.render.raster import draw

    def posed(g: bytes):
        model = _model(g, _max_texture(size), None)
        return model, _posed(model, (g, 0.0))

    framing = posed(like)
    model, own = framing if glb == like else posed(glb)
    p, cam = in_frame_of(own, framing[1], yaw)
    return draw(p, cam, size, ss=SUPERSAMPLE, background=background, shadow=_shadow(model, p, "auto"))[..., :3].astype(float)


def teeth_mask(glb: bytes, cam, size: int) -> tuple[np.ndarray, float]:
    """(where the Teeth mesh shows, a (size, size) bool mask, and the millimetres a pixel spans at the teeth's front):
    ``glb`` in its first clip's first frame drawn unlit by ``cam`` at ``size`` px, the Teeth mesh white and everything
    else black, so the lips hide what they cover (the review sheets' mouth close-ups, tests/render)."""
    from workbench.render.scene import Model, load_clip

    posed = Model(glb, max_texture=size).posed(load_clip(glb), 0.0)
    mask = mesh_mask(posed, cam, size, lambda name: name == "Teeth")
    teeth = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Teeth"])
    eye = np.linalg.inv(cam.view)[:3, 3]
    return mask, float(2000 * (eye[2] - teeth[:, 2].max()) * np.tan(np.radians(cam.fov_deg) / 2) / size)


# The mouth's close-up (tests/render's mouthOpen and viseme_aa tests): its size (px), and its camera's metres in front
# of the teeth's front (plus 1 cm) and field of view (degrees).
CLOSE_UP_SIZE = 384
CLOSE_UP_DISTANCE, CLOSE_UP_FOV = 0.28, 14.0


def skin_field(gender: str, name: str, over: float = 0.5):
    """White where the skin texture paints feature ``name`` (:func:`workbench.body.skin.features`, its weight over
    ``over``), black elsewhere: a renderer's texture in the skin's layout."""
    from workbench.body.skin import SKIN_SIZE, features
    from workbench.render.scene import Texture

    at, w = features(gender)[name]
    rgba = np.zeros((SKIN_SIZE * SKIN_SIZE, 4), np.uint8)
    rgba[:, 3] = 255
    rgba[at[w > over], :3] = 255
    return Texture(rgba.view(np.uint32).reshape(-1), SKIN_SIZE, SKIN_SIZE, False, 33071, 33071)


def close_up_masks(settings: dict, shapes: dict[str, dict[str, float] | None]) -> dict[str, dict[str, np.ndarray]]:
    """Per label of ``shapes`` (its morph weights, None: rest), the front close-up's masks (CLOSE_UP_SIZE px square)
    of bools: ``lips`` the vermilion, ``upper`` the upper teeth (the Teeth mesh's vertices jawOpen leaves where they
    are), ``tongue`` the tongue (those tongueOut moves), ``open`` the opening (the Teeth mesh and the mouth's
    lining), and the close-up's ``mm`` per pixel at the lips' depth (1 cm in front of the teeth; a 0-d array).
    ``settings`` built without hair or glasses."""
    from dataclasses import replace

    from built import built as build_avatar  # one build per run (tests/built.py)

    from workbench.body.face import SHAPES
    from workbench.gltf.glb import read_accessor, read_glb
    from workbench.options import ModelOptions, normalize_avatar_settings
    from workbench.render.framing import look_at
    from workbench.render.raster import Camera, draw
    from workbench.render.scene import Clip, Material, Model

    s = normalize_avatar_settings({**settings, "hair": {"style": "none"}, "glasses": "none"})
    glb = build_avatar(s, ModelOptions(animations=("idle",)))
    doc, binary = read_glb(glb)
    prim = next(m for m in doc["meshes"] if m["name"] == "Teeth")["primitives"][0]
    moved = {name: np.linalg.norm(read_accessor(doc, binary, prim["targets"][SHAPES.index(name)]["POSITION"]), axis=1) > 0
             for name in ("jawOpen", "tongueOut")}
    parts = {"upper": ~moved["jawOpen"] & ~moved["tongueOut"], "tongue": moved["tongueOut"], "open": slice(None)}
    model = Model(glb)
    teeth = np.concatenate([d.positions for d in model.posed(Clip(model), 0.0).draws if d.mesh_name == "Teeth"])
    c = np.array([teeth[:, 0].mean(), teeth[:, 1].mean(), teeth[:, 2].max() + 0.01])
    cam = Camera(view=look_at(c + [0, 0, CLOSE_UP_DISTANCE], c), fov_deg=CLOSE_UP_FOV, near=0.01)
    fields = {"lips": skin_field(s["gender"], "lips"), "open": skin_field(s["gender"], "mouth", 0.3)}
    out = {}
    for label, morphs in shapes.items():
        posed = model.posed(Clip(model), 0.0, morphs=morphs)
        m = {"mm": np.array(2000 * CLOSE_UP_DISTANCE * np.tan(np.radians(CLOSE_UP_FOV / 2)) / CLOSE_UP_SIZE)}
        for what in ("upper", "tongue", "lips", "open"):
            draws = []
            for d in posed.draws:
                mat = Material(color=np.ones(4, np.float32), double_sided=d.material.double_sided)
                if d.mesh_name == "Body" and what in fields:
                    draws.append(replace(d, material=replace(mat, texture=fields[what])))
                    continue
                colors = np.zeros((len(d.positions), 4), np.float32)
                colors[:, 3] = 1
                if d.mesh_name == "Teeth" and what != "lips":
                    colors[parts[what], :3] = 1
                draws.append(replace(d, colors=colors, uv=None, material=mat))
            m[what] = draw(replace(posed, draws=draws), cam, CLOSE_UP_SIZE, lights=UNLIT)[..., 0] > 127
        out[label] = m
    return out


SECRET_TOKEN = "wb_secret_token_do_not_leak"  # the hostile tests' token: no answer, log or message may show it


def client_at(root: str, **kw):
    """A blocking client of the service at ``root`` (``/api``, ``/avatars``), retries off, :data:`SECRET_TOKEN`."""
    import workbench

    return workbench.Client(f"{root}/api", f"{root}/avatars", SECRET_TOKEN, retries=0, **kw)


def run_async(root: str, call, **kw):
    """``await call(client)`` with an async client made as :func:`client_at` makes its blocking one."""
    import asyncio

    import workbench

    async def main():
        async with workbench.AsyncClient(f"{root}/api", f"{root}/avatars", SECRET_TOKEN, retries=0, **kw) as c:
            return await call(c)
    return asyncio.run(main())


def read_message(sock, timeout: float = 30):
    """One HTTP message off a raw socket: (its first line, its headers with lower-case names, its body as far as
    Content-Length says, or until the peer closes); None when the peer closed before the head ended."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    first, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    while len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return first, headers, body


def answer_of(sock, timeout: float = 30) -> tuple[int, dict, dict]:
    """(status, headers, JSON body) of the one answer on ``sock``."""
    import json

    message = read_message(sock, timeout)
    assert message is not None, "the server closed the connection without answering"
    first, headers, body = message
    return int(first.split()[1]), headers, json.loads(body)


# ---------------------------------------------------------------- funnels, the slow sure way

def _time_orders(events):
    """Every order of the events that keeps time order (events at the same time in any order)."""
    runs = [list(g) for _, g in itertools.groupby(sorted(events, key=lambda e: e[1]), key=lambda e: e[1])]
    for combo in itertools.product(*[list(itertools.permutations(r)) for r in runs]):
        yield [e for run in combo for e in run]


def reference_funnel_depth(events, steps, within, order, exclude):
    """The furthest step reached, by trying every choice of distinct events (definitions in funnel's docstring)."""
    best = 0
    for k in range(1, len(steps) + 1):
        found = False
        for chosen in itertools.permutations(range(len(events)), k):
            keys = [events[i][0] for i in chosen]
            times = [events[i][1] for i in chosen]
            if order == "any":
                if sorted(keys) == sorted(steps[:k]) and max(times) - min(times) <= within:
                    found = True
            elif keys == steps[:k] and all(a <= b for a, b in zip(times, times[1:], strict=False)) and times[-1] - times[0] <= within:
                if order == "ordered":
                    found = not any(a < e[1] < b for a, b in zip(times, times[1:], strict=False) for e in events if e[0] in exclude)
                else:  # strict: consecutive in some order consistent with time
                    ids = [events[i][2] for i in chosen]
                    found = any(any(seq[p:p + k] == ids for p in range(len(seq) - k + 1))
                                for seq in ([e[2] for e in o] for o in _time_orders(events)))
            if found:
                break
        if not found:
            break
        best = k
    return best


# ---------------------------------------------------------------- a GLB with ARKit-named morph targets
# A small GLB with morph targets named as ARKit's face shapes (contract section 5), written with the
# project's GlbWriter, for the viewer's morph sliders and presets until avatars carry the 52 shapes.
# 
# A head (a sphere) on a body (a box); each target moves its own part of the head far enough to
# see at a glance: the jaw drops the lower half, a blink flattens one eye's patch, a smile pulls a
# mouth corner up and out.

MORPH_TARGETS = ("eyeBlinkLeft", "eyeBlinkRight", "jawOpen", "mouthSmileLeft", "mouthSmileRight", "mouthFunnel",
           "mouthPucker", "mouthClose", "mouthStretchLeft", "mouthStretchRight", "mouthRollLower", "tongueOut",
           "cheekSquintLeft", "cheekSquintRight")
HEAD_Y, R = 1.55, 0.12


def _morph_sphere(rings: int = 24, segments: int = 32):
    pos, nrm = [], []
    for i in range(rings + 1):
        v = np.pi * i / rings
        for j in range(segments + 1):
            u = 2 * np.pi * j / segments
            n = [np.sin(v) * np.sin(u), np.cos(v), np.sin(v) * np.cos(u)]
            nrm.append(n)
            pos.append([R * n[0], HEAD_Y + R * n[1], R * n[2]])
    tris = []
    for i in range(rings):
        for j in range(segments):
            a, b = i * (segments + 1) + j, (i + 1) * (segments + 1) + j
            tris += [[a, b, a + 1], [a + 1, b, b + 1]]
    return np.array(pos, np.float32), np.array(nrm, np.float32), np.array(tris, np.uint32)


def _morph_box(lo, hi):
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    faces = [((0, 0, 1), [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]),
             ((0, 0, -1), [(x1, y0, z0), (x0, y0, z0), (x0, y1, z0), (x1, y1, z0)]),
             ((1, 0, 0), [(x1, y0, z1), (x1, y0, z0), (x1, y1, z0), (x1, y1, z1)]),
             ((-1, 0, 0), [(x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0)]),
             ((0, 1, 0), [(x0, y1, z1), (x1, y1, z1), (x1, y1, z0), (x0, y1, z0)]),
             ((0, -1, 0), [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)])]
    pos, nrm, tris = [], [], []
    for n, quad in faces:
        k = len(pos)
        pos += quad
        nrm += [n] * 4
        tris += [[k, k + 1, k + 2], [k, k + 2, k + 3]]
    return np.array(pos, np.float32), np.array(nrm, np.float32), np.array(tris, np.uint32)


def _morph_deltas(pos: np.ndarray) -> dict[str, np.ndarray]:
    rel = (pos - [0, HEAD_Y, 0]) / R  # unit sphere coordinates; +z is the face
    x, y, z = rel[:, 0], rel[:, 1], rel[:, 2]
    front = z > 0.3
    out = {}

    def eye(side):
        near = front & (np.hypot(x - side * 0.38, y - 0.3) < 0.25)
        d = np.zeros_like(pos)
        d[near, 1] = -(y[near] - 0.3) * R * 0.9  # flattened onto the eye's line
        d[near, 2] = -0.25 * R
        return d

    out["eyeBlinkLeft"], out["eyeBlinkRight"] = eye(1), eye(-1)
    d = np.zeros_like(pos)
    d[y < -0.1, 1] = -0.6 * R
    out["jawOpen"] = d
    for name, side in (("mouthSmileLeft", 1), ("mouthSmileRight", -1), ("mouthStretchLeft", 1), ("mouthStretchRight", -1)):
        corner = front & (np.hypot(x - side * 0.35, y + 0.35) < 0.3)
        d = np.zeros_like(pos)
        d[corner, 0] = side * 0.3 * R
        d[corner, 1] = (0.35 if "Smile" in name else -0.1) * R
        out[name] = d
    mouth = front & (np.abs(x) < 0.4) & (np.abs(y + 0.35) < 0.2)
    for name, dz in (("mouthFunnel", 0.35), ("mouthPucker", 0.5), ("mouthClose", -0.2), ("mouthRollLower", -0.3),
                     ("tongueOut", 0.6)):
        d = np.zeros_like(pos)
        d[mouth, 2] = dz * R
        out[name] = d
    for name, side in (("cheekSquintLeft", 1), ("cheekSquintRight", -1)):
        cheek = front & (np.hypot(x - side * 0.5, y) < 0.25)
        d = np.zeros_like(pos)
        d[cheek, 1] = 0.15 * R
        out[name] = d
    return out


def arkit_glb() -> bytes:
    """The GLB: mesh ``Head`` with the morph targets of ``MORPH_TARGETS`` (``extras.targetNames``), mesh ``Body``."""
    w = GlbWriter("tests.morph_glb", sort_keys=True)
    skin = w.material("skin", (0.85, 0.66, 0.55, 1.0))
    cloth = w.material("cloth", (0.2, 0.35, 0.6, 1.0))
    pos, nrm, tris = _morph_sphere()
    head = w.primitive(positions=pos, normals=nrm, indices=tris, material=skin)
    deltas = _morph_deltas(pos)
    head["targets"] = [{"POSITION": w.accessor(deltas[n], "VEC3", ARRAY_BUFFER, minmax=True)} for n in MORPH_TARGETS]
    head_mesh = w.mesh("Head", [head])
    w.doc["meshes"][head_mesh].update(weights=[0.0] * len(MORPH_TARGETS), extras={"targetNames": list(MORPH_TARGETS)})
    bpos, bnrm, btris = _morph_box((-0.2, 0.0, -0.1), (0.2, HEAD_Y - R - 0.03, 0.1))
    body_mesh = w.mesh("Body", [w.primitive(positions=bpos, normals=bnrm, indices=btris, material=cloth)])
    w.scene([w.node("Body", mesh=body_mesh), w.node("Head", mesh=head_mesh)])
    return w.to_bytes()


def _draw_value(schema: dict, rng):
    """One value of a schema that is not an enumeration or an object: a number uniform in its range (to 0.1),
    a colour any #RRGGBB; None for anything else (left to its default)."""
    if schema.get("type") == "number":
        return round(float(rng.uniform(schema["minimum"], schema["maximum"])), 1)
    if "pattern" in schema and "#" in schema["pattern"]:
        return "#" + "".join(f"{v:02X}" for v in rng.integers(0, 256, 3))
    return None


def _lab_hex(L: float, chroma: float, hue_deg: float) -> str:
    """'#RRGGBB' of the CIELAB (D65) colour of lightness ``L``, ``chroma`` and hue angle ``hue_deg`` (clipped to
    sRGB).

    >>> _lab_hex(50, 0, 0)
    '#777777'
    """
    from workbench.options.colour import linear_to_srgb, to_hex

    a, b = chroma * np.cos(np.radians(hue_deg)), chroma * np.sin(np.radians(hue_deg))
    f = np.array([(L + 16) / 116 + a / 500, (L + 16) / 116, (L + 16) / 116 - b / 200])
    xyz = np.where(f > 6 / 29, f ** 3, 3 * (6 / 29) ** 2 * (f - 4 / 29)) * np.array([0.9505, 1.0, 1.089])
    rgb = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]) @ xyz
    return to_hex(linear_to_srgb(rgb))


def _skin_tone(rng) -> str:
    """A human skin tone, lightest to deepest alike (CIELAB lightness 88 to 18): golden mid tones are the most
    saturated, the lightest and deepest less so and a little redder; each with its own undertone (hue jitter)."""
    t = rng.uniform()
    hue = 50 + 16 * np.sin(np.pi * t) + rng.normal(0, 4)
    return _lab_hex(88 - 70 * t, 13 + 17 * np.sin(np.pi * t ** 0.8) + rng.normal(0, 2), hue)


# Natural hair colours (L, C, hue) and how often each is drawn: black and browns most, then blondes, reds, greys.
HAIR_NATURAL = ((12, 2, 40, 0.18), (18, 6, 50, 0.17), (25, 10, 55, 0.16), (35, 14, 60, 0.12), (50, 18, 70, 0.09),
                (62, 22, 78, 0.07), (76, 22, 85, 0.05), (32, 30, 45, 0.05), (48, 40, 55, 0.04), (60, 2, 80, 0.04),
                (80, 3, 85, 0.03))
# Natural eye colours (L, C, hue): dark brown, brown, hazel, amber, green, blue, grey.
EYES_NATURAL = ((20, 14, 55), (28, 22, 60), (42, 24, 80), (45, 35, 65), (48, 22, 125), (50, 22, 250), (58, 8, 230))


def _hair_colour(rng) -> str:
    """Mostly a natural hair colour (a little jitter round one of :data:`HAIR_NATURAL`), one in eight dyed any hue."""
    if rng.uniform() < 0.125:
        return _lab_hex(rng.uniform(30, 70), rng.uniform(30, 60), rng.uniform(0, 360))
    w = np.array([c[3] for c in HAIR_NATURAL])
    L, C, h, _ = HAIR_NATURAL[rng.choice(len(w), p=w / w.sum())]
    return _lab_hex(L + rng.normal(0, 2), max(C + rng.normal(0, 2), 0), h + rng.normal(0, 4))


def _eye_colour(rng) -> str:
    L, C, h = EYES_NATURAL[rng.integers(len(EYES_NATURAL))]
    return _lab_hex(L + rng.normal(0, 3), max(C + rng.normal(0, 3), 0), h + rng.normal(0, 6))


# Fields drawn as people are rather than from any #RRGGBB: a green skin says nothing about how skin looks.
REALISTIC = {"skinTone": _skin_tone, "hair.color": _hair_colour, "eyeColor": _eye_colour}


# Face controls added after seeds were chosen for tests and review sheets (issue 46, review E), drawn from a stream
# of their own: each seed's avatars keep every other value they had. The same for the stance (``pose``, review H),
# whose cycle is shuffled by a stream of its own, so the face controls keep theirs too.
OWN_STREAM = ("face.noseLength", "face.chinLength", "face.browRidge")
# ... and the head's shape (review S, "one base head"), from a third stream, so the first three keep their draws too,
# and only ``heads`` (left out, so at their default 0, otherwise): not ``with_added``, which reviews P to R's pinned
# avatars were drawn with (their heads would change: review R's #3's short crop under a narrower head); the review
# sheets from review S on opt in.
HEAD_STREAM = ("face.headWidth", "face.foreheadHeight")
# ... and the eyes' placement and the nose's bridge (review V, "the same person in 12 wigs": "eye spacing and tilt",
# "nose bridge"), each from a stream of its own (a field added here later leaves the others' draws), and only
# ``features``, for the same reason: the tests pinned to review S to U's draws (``heads``) keep their faces; the review
# sheets from review V on opt in.
FEATURE_STREAM = ("face.eyeSpacing", "face.eyeTilt", "face.noseBridge")
OWN_CYCLE = ("pose", "glasses")
# Enumerations that grew after seeds were reviewed, two ways. GREW (by how many values they had): the shared stream is
# drawn as that many values' cycle drew it (so every other field keeps its value), their own cycle from a stream of its
# own (OWN_CYCLE), every value drawn: glasses went from 3 values to 5 (review O, defect 8: more styles, fewer
# sunglasses). ADDED: values added to an enumeration whose draws tests are pinned to (a review's avatars by seed and
# number: 18 files picked other avatars when the hair's cycle held ``buzz``): the cycle is shuffled from the values
# before them, so every field keeps its draw; with ``added``, each takes, by a stream of its own, the place of a value
# drawn more than once among the first ``count`` (none where ``count`` is under the values' number): the review
# sheets' draw (data/make_review_sheets.py), so a blind review sees them.
GREW = {"glasses": 3}
ADDED = {"hair.style": ("buzz",)}
# LATER: values added after tests were pinned to ``with_added`` draws too (the stance ``wave``, review AM): left out of
# every draw but one that asks for them (``recent``: the review sheets from review AM on), which puts each, by a stream
# of its own (:data:`LATER_TAG`), in the place of a repeat as ``with_added`` does. The stance ``hands_behind_back``
# (review AR) last: each value takes its repeat's place in turn from the same stream, so ``wave`` keeps its avatar.
LATER = {"pose": ("wave", "hands_behind_back")}
LATER_TAG = 52


def _with_added(values: list, added: tuple, count: int, rng: np.random.Generator) -> list:
    """``values`` (a shuffled cycle) with each of ``added`` in the place of a repeat among the first ``count``
    (:data:`ADDED`), drawn by ``rng``; as they are when ``count`` is under the number of all the values.

    >>> _with_added(["a", "b", "a", "c"], ("z",), 4, np.random.default_rng(0))
    ['a', 'b', 'z', 'c']
    """
    if not added or count < len(set(values)) + len(added):
        return values
    out = list(values)
    for value in added:
        repeats = [k for k in range(count) if out[:count].index(out[k]) != k]
        out[repeats[int(rng.integers(len(repeats)))]] = value
    return out


# Outfit colours as a person picks them (review V, defect 8: "magenta tee with pink trousers and purple shoes", wanted
# "curated palettes (one accent colour plus neutrals)"), CIELAB (L, C, hue). Neutral tops: black, charcoal, mid grey,
# light grey, off-white, navy, camel, olive; bottoms: black, charcoal, navy, denim (twice: the commonest trousers),
# mid grey, stone, khaki, olive, chocolate, off-white; shoes: black, white, grey, navy, brown, tan (chroma under 30: a
# navy or a camel is worn as a neutral). Accents, deep or muted enough to sit beside any skin: burgundy, brick red,
# rust, mustard, forest, teal, petrol, cobalt, plum, dusty rose.
NEUTRAL_TOPS = ((14, 1, 270), (27, 2, 260), (48, 2, 250), (72, 2, 90), (91, 5, 88), (24, 20, 268), (55, 26, 68),
                (42, 18, 112))
NEUTRAL_BOTTOMS = ((14, 1, 270), (27, 2, 260), (24, 20, 268), (42, 22, 255), (42, 22, 255), (48, 2, 250),
                   (80, 8, 80), (66, 18, 85), (42, 18, 112), (28, 14, 55), (91, 5, 88))
ACCENTS = ((32, 40, 20), (42, 52, 32), (48, 48, 50), (68, 52, 85), (35, 30, 150), (45, 30, 195), (35, 26, 225),
           (38, 50, 285), (32, 32, 325), (62, 24, 10))
SHOE_NEUTRALS = ((14, 1, 270), (93, 2, 90), (50, 2, 250), (24, 20, 268), (28, 14, 55), (55, 26, 68))
NEUTRALS = {"top": NEUTRAL_TOPS, "bottom": NEUTRAL_BOTTOMS, "shoes": SHOE_NEUTRALS}
# Where the one accent goes (top, bottom, shoes, none: an outfit all neutrals); the least lightness step between the
# top and the bottom (so they read as two garments) and the least CIELAB distance from the skin to the top (so a
# beige top does not run into a beige neck).
ACCENT_PLACES = (("top", 0.55), ("bottom", 0.15), ("shoes", 0.15), (None, 0.15))
TOP_BOTTOM_STEP = 15.0
TOP_FROM_SKIN = 20.0
# The palettes' streams: ``default_rng([seed, PALETTE_TAG, k])`` for avatar k, a tag no other stream takes (the
# eyes' and nose's are ``[seed, 49, n]``: under 49 avatars 0 to 2 drew their outfits from the face's streams).
PALETTE_TAG = 50
# The face controls spread over their range (review X, defect 4: "#1, #3, #7 and #12 are the same man"; its draw, seed
# 4634, gave eleven of twelve noses a negative noseWidth and ten of twelve lips a negative lipFullness, a uniform draw's
# luck): with ``spread``, each control's values over the ``count`` avatars are one from each of ``count`` equal slices
# of its range (a Latin hypercube), dealt out by a stream of its own per control (``[seed, SPREAD_TAG, n]``), so any
# draw reaches both ends of every control and the other fields keep their values.
SPREAD_TAG = 51


def spread_values(count: int, low: float, high: float, rng: np.random.Generator) -> list[float]:
    """``count`` values, one uniform in each of ``count`` equal slices of ``low`` to ``high`` (to 0.1), shuffled by
    ``rng``.

    >>> v = spread_values(12, -1.0, 1.0, np.random.default_rng(0))
    >>> sorted(v)
    [-0.9, -0.8, -0.7, -0.4, -0.3, -0.0, 0.0, 0.3, 0.3, 0.6, 0.7, 0.9]
    """
    slices = (rng.permutation(count) + rng.uniform(size=count)) / count
    return [round(float(low + (high - low) * s), 1) for s in slices]


def _jittered(lch: tuple, rng) -> str:
    """``lch`` a little off (at most 3 L*, 3 chroma, 6 degrees of hue), so no two outfits share a colour exactly
    and a neutral stays one (chroma under 30)."""
    dL, dC, dh = np.clip(rng.normal(0, 1, 3), -1.5, 1.5) * (2, 2, 4)
    return _lab_hex(lch[0] + dL, max(lch[1] + dC, 0), lch[2] + dh)


def outfit_palette(skin: str, rng) -> dict[str, str]:
    """The ``top``, ``bottom`` and ``shoes`` colours of one outfit that go together and with ``skin`` (#RRGGBB), drawn
    by ``rng``: at most one accent (:data:`ACCENTS`, on the top most often), the rest neutrals (:data:`NEUTRALS`),
    each a little jittered; the top and bottom :data:`TOP_BOTTOM_STEP` apart in lightness and
    the top :data:`TOP_FROM_SKIN` from the skin (drawn again until they are).

    >>> from workbench.body.tone import lab
    >>> from workbench.options.colour import hex_rgb
    >>> o = outfit_palette("#C68642", np.random.default_rng(0))
    >>> sorted(o), sum(float(np.hypot(*lab(hex_rgb(c))[1:])) > 30 for c in o.values()) <= 1
    (['bottom', 'shoes', 'top'], True)
    """
    from workbench.body.tone import lab
    from workbench.options.colour import hex_rgb

    skin_lab = lab(hex_rgb(skin))
    p = np.array([w for _, w in ACCENT_PLACES])
    accent = ACCENT_PLACES[rng.choice(len(p), p=p / p.sum())][0]
    while True:
        pools = {part: ACCENTS if part == accent else pool for part, pool in NEUTRALS.items()}
        out = {part: _jittered(pool[rng.integers(len(pool))], rng) for part, pool in pools.items()}
        top, bottom = lab(hex_rgb(out["top"])), lab(hex_rgb(out["bottom"]))
        if abs(top[0] - bottom[0]) >= TOP_BOTTOM_STEP and np.linalg.norm(top - skin_lab) >= TOP_FROM_SKIN:
            return out


def random_settings(count: int = 12, seed: int = 36, with_added: bool = False, heads: bool = False,
                    features: bool = False, palettes: bool = False, spread: bool = False,
                    recent: bool = False) -> list[dict]:
    """``count`` avatar settings, every field drawn from the service's own OpenAPI schema (so fields added later
    are drawn too, and values added later but those of :data:`ADDED`, drawn only ``with_added``): enumerations in shuffled cycles (each allowed value at least once when ``count``
    reaches their number), numbers uniform in their range, colours any #RRGGBB except the skin, hair and eye
    colours, which are drawn as people have them (:data:`REALISTIC`: skin light to deep, mostly natural hair,
    natural eyes). Same seed, same settings. Values added to an enumeration later (:data:`ADDED`) only ``with_added``; the head's
    shape (:data:`HEAD_STREAM`) only ``heads`` (the review sheets from review S on), the eyes' placement
    and the nose's bridge (:data:`FEATURE_STREAM`) only ``features`` (from review V on), so every draw made before keeps
    its avatars. ``palettes`` (the review sheets from review W on): the clothes' colours are an outfit a person would
    pick instead (:func:`outfit_palette`: one accent colour and neutrals, a top that stands off the skin), drawn by a
    stream of their own, so every other field keeps its draw. ``spread`` (the review sheets from review Z on, seed 4636): the face
    controls' values are spread over their range (:data:`SPREAD_TAG`, :func:`spread_values`), every other field as drawn.
    ``recent`` (the review sheets from review AM on): the values of :data:`LATER` drawn too, each in a repeat's place
    (so none when ``count`` is under the number of values, as with ``with_added``).

    >>> a = random_settings(4, seed=1)
    >>> a == random_settings(4, seed=1), sorted({s["gender"] for s in a})
    (True, ['feminine', 'masculine'])
    >>> from workbench.options.limits import HAIR_STYLES
    >>> sorted({s["hair"]["style"] for s in random_settings(12, seed=1, with_added=True)}) == sorted(HAIR_STYLES)
    True
    >>> sorted(set(random_settings(1, seed=1, heads=True)[0]["face"]) - set(random_settings(1, seed=1)[0]["face"]))
    ['foreheadHeight', 'headWidth']
    >>> b = random_settings(2, seed=1, heads=True, features=True)
    >>> sorted(set(b[0]["face"]) - set(random_settings(1, seed=1, heads=True)[0]["face"]))
    ['eyeSpacing', 'eyeTilt', 'noseBridge']
    >>> [{k: v for k, v in s["face"].items() if k not in ("eyeSpacing", "eyeTilt", "noseBridge")} for s in b] == [
    ...     s["face"] for s in random_settings(2, seed=1, heads=True)]
    True
    >>> c = random_settings(12, seed=4634, with_added=True, heads=True, features=True, spread=True)
    >>> all(min(s["face"][k] for s in c) <= -0.8 < 0.8 <= max(s["face"][k] for s in c) for k in c[0]["face"])
    True
    >>> [{**s, "face": 0} for s in c] == [{**s, "face": 0} for s in
    ...     random_settings(12, seed=4634, with_added=True, heads=True, features=True)]
    True
    >>> d = random_settings(12, seed=4657, with_added=True, recent=True)
    >>> [s["pose"] for s in d].count("wave"), sum(x != y for x, y in zip(d, random_settings(12, 4657, with_added=True)))
    (1, 2)
    >>> a, b = random_settings(2, seed=1), random_settings(2, seed=1, palettes=True)
    >>> [{**s, "outfit": s["outfit"]["topStyle"]} for s in a] == [{**s, "outfit": s["outfit"]["topStyle"]} for s in b]
    True
    """
    return copy.deepcopy(_random_settings(count, seed, with_added, heads, features, palettes, spread, recent))


@functools.cache
def _random_settings(count: int, seed: int, with_added: bool, heads: bool, features: bool, palettes: bool,
                     spread: bool, recent: bool) -> list[dict]:
    """:func:`random_settings`' draw, made once per process for each set of arguments: some 270 test modules draw
    at import (their parameters), 72 distinct draws of 272, about 1 s of every worker's collection drawn again and again
    (pass 54). The caller gets a copy (a test may change the settings it is given)."""
    from workbench.service.openapi import build_openapi

    schema = build_openapi("http://127.0.0.1")["components"]["schemas"]["AvatarSettings"]
    rng = np.random.default_rng(seed)
    later = np.random.default_rng([seed, 46])   # the fields of :data:`OWN_STREAM`
    head = np.random.default_rng([seed, 48])    # the fields of :data:`HEAD_STREAM`
    features_ = {k: np.random.default_rng([seed, 49, n]) for n, k in enumerate(FEATURE_STREAM)}   # one stream each
    cycles: dict[str, list] = {}

    def walk(props: dict, path: str, k: int) -> dict:
        out = {}
        for name, sub in props.items():
            key = f"{path}{name}"
            if "enum" in sub:
                if key not in cycles:
                    added, late = ADDED.get(key, ()), LATER.get(key, ())
                    first = [v for v in sub["enum"] if v not in added and v not in late]
                    values = first * (count // len(first) + 1)
                    if key in GREW:
                        rng.shuffle(list(sub["enum"][:GREW[key]]) * (count // GREW[key] + 1))
                    (np.random.default_rng([seed, 46, OWN_CYCLE.index(key)]) if key in OWN_CYCLE else rng).shuffle(values)
                    cycles[key] = (_with_added(values, added, count, np.random.default_rng([seed, 47, len(cycles)]))
                                   if with_added else values)
                    if recent:
                        cycles[key] = _with_added(cycles[key], late, count,
                                                  np.random.default_rng([seed, LATER_TAG, len(cycles)]))
                out[name] = cycles[key][k]
            elif (key in HEAD_STREAM and not heads) or (key in FEATURE_STREAM and not features):
                continue
            elif key in REALISTIC:
                out[name] = REALISTIC[key](rng)
            elif sub.get("type") == "object":
                out[name] = walk(sub["properties"], key + ".", k)
            else:
                stream = later if key in OWN_STREAM else head if key in HEAD_STREAM else features_[key] if key in FEATURE_STREAM else rng
                value = _draw_value(sub, stream)
                if value is not None:
                    out[name] = value
        return out

    drawn = [walk(schema["properties"], "", k) for k in range(count)]
    if palettes:
        for k, s in enumerate(drawn):
            s["outfit"].update(outfit_palette(s["skinTone"], np.random.default_rng([seed, PALETTE_TAG, k])))
    if spread:
        face = schema["properties"]["face"]["properties"]
        for n, name in enumerate(sorted({k for s in drawn for k in s["face"]})):
            values = spread_values(count, face[name]["minimum"], face[name]["maximum"],
                                   np.random.default_rng([seed, SPREAD_TAG, n]))
            for s, v in zip(drawn, values, strict=True):
                s["face"][name] = v
    return drawn


def rim_loops(p, skip: np.ndarray | None = None) -> list[np.ndarray]:
    """The piece's open edges (its vertices welded by position first) chained into closed loops of
    positions; loops mostly of ``skip`` vertices are left out."""
    _, first, weld = np.unique(np.round(p.positions, 6), axis=0, return_index=True, return_inverse=True)
    tri = first[weld.reshape(-1)][p.indices]
    edges = np.sort(np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]]), axis=1)
    pairs, count = np.unique(edges, axis=0, return_counts=True)
    rim = pairs[count == 1]
    nxt: dict[int, list[int]] = {}
    for a, b in rim:
        nxt.setdefault(a, []).append(b)
        nxt.setdefault(b, []).append(a)
    loops, seen = [], set()
    for start in nxt:
        if start in seen or len(nxt[start]) != 2:
            continue
        loop, prev, cur = [start], None, start
        seen.add(start)
        while True:
            step = [v for v in nxt[cur] if v != prev and len(nxt[v]) == 2]
            if not step or step[0] == start:
                break
            prev, cur = cur, step[0]
            if cur in seen:
                break
            seen.add(cur)
            loop.append(cur)
        if len(loop) >= 8 and (skip is None or skip[loop].mean() < 0.5):
            loops.append(p.positions[loop].astype(np.float64))
    return loops


def smile_deltas(settings: dict):
    """(body mesh, mouthSmile's summed deltas per vertex in float64) of ``settings`` (not normalised): the
    shape as a viewer shows it at weight 1, the units of workbench.body.face.COMBINED added."""
    from workbench.body.face import combination
    from workbench.body.mesh import body_mesh, morph_deltas
    from workbench.options import normalize_avatar_settings

    s = normalize_avatar_settings(settings)
    m, shapes = body_mesh(s), morph_deltas(s)
    full = np.zeros((len(m.positions), 3))
    for name, w in combination("mouthSmile").items():
        idx, d = shapes[name]
        full[idx] += w * d
    return m, full


def smile_edge_bends(m, full: np.ndarray) -> dict:
    """Per edge of the body's skin shared by two triangles (the mouth's lining left out), a shape's bend: ``bend``
    (degrees: how much more the shape ``full`` (deltas per vertex) bends it than the rest face does), ``rest_z`` (how
    far forward the less forward-facing of its two triangles faces at rest), ``mid`` (its middle, metres), and the
    face's landmarks to select a region with: ``eyes`` (the two eyes' centres), ``middle`` (the face's middle line's
    x) and ``from_lips`` (each edge's distance from the lips' inner edge). The measure of the smile's creases
    (tests/body/test_smile_creases_review_j.py) and of its seam on the cheek's turn (test_cheek_seam_review_o.py)."""
    from workbench.body.lining import island

    def facing(pos: np.ndarray, f: np.ndarray) -> np.ndarray:
        n = np.cross(pos[tris[f, 1]] - pos[tris[f, 0]], pos[tris[f, 2]] - pos[tris[f, 0]])
        return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-20)

    p = m.positions.astype(np.float64)
    tris = m.triangles[m.face_groups["body"]]
    lining = np.zeros(len(tris), bool)
    lining[island()[0]] = True
    lips = np.intersect1d(tris[lining].ravel(), tris[~lining].ravel())
    e = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    face = np.tile(np.arange(len(tris)), 3)
    key = e[:, 0].astype(np.int64) * len(p) + e[:, 1]
    order = np.argsort(key, kind="stable")
    key, face, e = key[order], face[order], e[order]
    pair = np.flatnonzero(key[1:] == key[:-1])
    a, b, e = face[pair], face[pair + 1], e[pair]
    ra, rb = facing(p, a), facing(p, b)
    sa, sb = facing(p + full, a), facing(p + full, b)
    bend = np.degrees(np.arccos(np.clip((sa * sb).sum(1), -1, 1)) - np.arccos(np.clip((ra * rb).sum(1), -1, 1)))
    mid = p[e].mean(1)
    eyes = np.array([p[m.groups[f"helper-{s}-eye"]].mean(0) for s in "lr"])
    return {"bend": bend, "rest_z": np.minimum(ra[:, 2], rb[:, 2]), "mid": mid, "eyes": eyes,
            "middle": eyes[:, 0].mean(),
            "from_lips": np.min(np.linalg.norm(mid[:, None, :] - p[lips][None], axis=2), axis=1)}



def smile_mouth(settings: dict):
    """(body mesh, its positions at rest and smiling (float64, :func:`smile_deltas` added), the body's triangles, the
    lips' inner edge (workbench.body.soften.lip_edge), its ends: the mouth's corners, the one at the least x first)."""
    from workbench.body.soften import lip_edge

    m, full = smile_deltas(settings)
    p = m.positions.astype(np.float64)
    tris = m.triangles[m.face_groups["body"]]
    edge = lip_edge(tris)
    return m, p, p + full, tris, edge, edge[[np.argmin(p[edge, 0]), np.argmax(p[edge, 0])]]

def sweep(cases) -> list:
    """``cases`` (tuples of a parametrized test's values) as ``pytest.param``s, all of them run by the whole suite,
    the quick loop (``-m "not slow"``) keeping the few that hold every value of every place at least once: each
    style, body, height or level of detail is proven there, their every pairing in the whole suite (docs/testing.md,
    "prove a property once at the size that proves it"). The few are chosen greedily, each the first case holding
    the most values not yet held, so the same on every pytest-xdist worker.

    >>> [(p.values, [m.name for m in p.marks]) for p in sweep([("a", 1), ("a", 2), ("b", 1), ("b", 2)])]
    [(('a', 1), []), (('a', 2), ['slow']), (('b', 1), ['slow']), (('b', 2), [])]
    >>> [p.values for p in sweep(itertools.product("xyz", (0, 1))) if not p.marks]
    [('x', 0), ('y', 1), ('z', 0)]
    """
    cases = [tuple(c) for c in cases]
    quick: set[int] = set()
    held: list[set] = [set() for _ in cases[0]]
    while True:
        gains = [sum(v not in h for v, h in zip(c, held, strict=True)) for c in cases]
        best = max(range(len(cases)), key=lambda i: (gains[i], -i))
        if gains[best] == 0:
            break
        quick.add(best)
        for v, h in zip(cases[best], held, strict=True):
            h.add(v)
    return [pytest.param(*c, marks=() if i in quick else pytest.mark.slow) for i, c in enumerate(cases)]

def face_hollows(mesh, radius: float = 0.006) -> dict[str, np.ndarray]:
    """Body vertex indices of ``mesh`` (a T-pose :class:`~workbench.body.mesh.BodyMesh`) at a face's open skin and
    its hollows, both sides: ``cheek`` (3.5 cm under the eye), ``socket`` (between the eye and the nose's bridge),
    ``alar`` (beside the nostril's wing); each the front layer of the body within ``radius`` of the point seen
    from the front, found from the eyeballs' centres and the nose's tip."""
    pos = mesh.positions.astype(np.float64)
    body = np.asarray(mesh.groups["body"])
    p = pos[body]
    eyes = [pos[mesh.groups[g]].mean(0) for g in ("helper-l-eye", "helper-r-eye")]
    mid = (eyes[0] + eyes[1]) / 2
    front = p[:, 2] > mid[2] - 0.04
    ridge = front & (np.abs(p[:, 0] - mid[0]) < 0.012) & (p[:, 1] < mid[1] - 0.01) & (p[:, 1] > mid[1] - 0.07)
    tip = p[ridge][np.argmax(p[ridge][:, 2])]

    def at(x: float, y: float) -> np.ndarray:
        disc = front & (np.hypot(p[:, 0] - x, p[:, 1] - y) < radius)
        return body[disc & (p[:, 2] > p[disc, 2].max() - 0.005)]

    where = {"cheek": lambda e, side: (e[0] + 0.006 * side, e[1] - 0.035),
             "socket": lambda e, side: (e[0] + (mid[0] - e[0]) * 0.55, e[1] + 0.002),
             "alar": lambda e, side: (mid[0] + 0.021 * side, tip[1] - 0.006)}
    return {name: np.concatenate([at(*f(e, np.sign(e[0] - mid[0]))) for e in eyes]) for name, f in where.items()}


def review(seed: int, index: int) -> dict:
    """A blind review's #``index`` (its sheets' draw, ``make_review_sheets.py --seed SEED``, reviews before
    ``LATER_FROM``'s flag): what the review regression files of every test folder measure.

    >>> review(4681, 12)["hair"]
    {'style': 'ponytail', 'color': '#272727'}
    """
    return random_settings(12, seed, with_added=True, heads=True, features=True, palettes=True, spread=True)[index - 1]


class FaceModel:
    """An avatar's model (LOD 0, the service's default options) read back for the face's tests: its meshes'
    attributes and morph targets as float64 arrays, and its eyes: ``eyes`` every vertex of the ``Eyes`` mesh, ``mid``
    their mean, ``centres`` each eye's mean (the side of lesser x first, split at ``mid``) and ``unit`` the face's size
    (the centres' distance over the reference face's, workbench.body.expressions.EYES_APART)."""

    def __init__(self, glb: bytes):
        from workbench.body.expressions import EYES_APART

        self.doc, self.binary = read_glb(glb)
        self.eyes = self.attribute("Eyes", "POSITION")
        self.mid = self.eyes.mean(0)
        self.centres = [self.eyes[side * (self.eyes[:, 0] - self.mid[0]) > 0].mean(0) for side in (-1, 1)]
        self.unit = float(np.linalg.norm(self.centres[1] - self.centres[0])) / EYES_APART

    def _mesh(self, name: str) -> dict:
        return next(m for m in self.doc["meshes"] if m["name"] == name)

    def attribute(self, mesh: str, key: str) -> np.ndarray:
        """Mesh ``mesh``'s first primitive's attribute ``key`` (POSITION, NORMAL, ...)."""
        return read_accessor(self.doc, self.binary, self._mesh(mesh)["primitives"][0]["attributes"][key]).astype(
            np.float64)

    def target(self, mesh: str, shape: str, key: str) -> np.ndarray:
        """Mesh ``mesh``'s morph target ``shape`` (by ``extras.targetNames``): its ``key`` deltas, every vertex."""
        m = self._mesh(mesh)
        index = m["primitives"][0]["targets"][m["extras"]["targetNames"].index(shape)][key]
        return read_accessor(self.doc, self.binary, index).astype(np.float64)


@functools.lru_cache(maxsize=8)
def _face_model(settings: str) -> FaceModel:
    from workbench.gltf import build_avatar
    from workbench.options import ModelOptions, normalize_avatar_settings

    return FaceModel(build_avatar(normalize_avatar_settings(json.loads(settings)), ModelOptions()))


def face_model(settings: dict) -> FaceModel:
    """The :class:`FaceModel` of the avatar ``settings`` make, built once for the last few settings asked for.

    >>> f = face_model({"gender": "feminine"})
    >>> f.attribute("Body", "POSITION").shape[1], f.target("Body", "mouthSmile", "NORMAL").shape[1], 0.9 < f.unit < 1.1
    (3, 3, True)
    """
    return _face_model(json.dumps(settings, sort_keys=True))

