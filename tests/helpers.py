"""Helpers the tests share: reading the contract's error envelope, a Bearer header, making a viewer and a space
template, finishing an upload, a funnel's depth by exhaustive search, a GLB with ARKit-named morph targets,
waiting for a condition with a bound (a bound, never a measured time), and a busy CPU.

>>> auth(type("S", (), {"token": "wb_x"})())
{'Authorization': 'Bearer wb_x'}
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import subprocess
import sys
import threading
import time

import httpx
import numpy as np

from workbench.gltf.glb import ARRAY_BUFFER, GlbWriter


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


def wait_for(predicate, timeout: float = 20.0, every: float = 0.05):
    """Poll ``predicate`` until it gives a true value or ``timeout`` seconds pass; its last value."""
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
    """
    others = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) - 1
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(max(1, (os.cpu_count() or 2) - others))]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
        for p in spinners:
            p.wait()


@functools.lru_cache(maxsize=None)
def body_of(gender: str = "feminine", shape: str = "average", height: float | None = None):
    """The MakeHuman body for these settings, made once per test process (the body and hair tests share it)."""
    from workbench.body.mesh import body_mesh
    from workbench.options import normalize_avatar_settings

    settings = {"gender": gender, "bodyShape": shape}
    if height:
        settings["height"] = height
    return body_mesh(normalize_avatar_settings(settings))


def assert_error(resp, status, code, field=None):
    """The whole error envelope of an answer, after :func:`error_of`'s checks."""
    return {"status": "error", "error": error_of(resp, status, code, field)}


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
            elif keys == steps[:k] and all(a <= b for a, b in zip(times, times[1:])) and times[-1] - times[0] <= within:
                if order == "ordered":
                    found = not any(a < e[1] < b for a, b in zip(times, times[1:]) for e in events if e[0] in exclude)
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
