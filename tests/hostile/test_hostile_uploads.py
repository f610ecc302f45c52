"""Hostile uploads of space templates: a refused re-upload keeps the last good file, bodies are
streamed to disk after the template, name and size are checked, and the finish's file checks read
hostile GLBs and PLY headers as problems to report (the template ``failed`` with a 500
``finalization_failed`` that lists them), never as a crash or the decoder's text."""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct

import httpx
import hypothesis.strategies as st
import pytest
from conftest import DATA, ServerProcess
from helpers import assert_error, error_of, finish, make_space, space_state, wait_for
from hypothesis import given, settings

from workbench.service.uploads import check_glb

GLB = (DATA / "sample_space.glb").read_bytes()


def upload(server, sid, filename, data):
    return httpx.put(f"{server.local_url}/spaces/{sid}/upload", params={"filename": filename}, content=data, timeout=60)


@pytest.mark.parametrize("filename, rule", [("scene\0.glb", "control characters"), ("é" * 130 + ".glb", "255 bytes"),
                                            ("line\nbreak.glb", "control characters")],
                         ids=["nul", "too-long-for-the-file-system", "newline"])
def test_a_refused_file_name_is_400_and_the_last_good_upload_stays(server, filename, rule):
    sid = make_space(server, "glb", "scene.glb", GLB)
    err = error_of(upload(server, sid, filename, b"x" * 100), 400, "invalid_upload", "filename")
    assert rule in err["details"][0]["message"]
    record = httpx.get(f"{server.local_url}/spaces/{sid}").json()["data"]
    assert (record["state"], record["filename"], record["bytes"]) == ("uploaded", "scene.glb", len(GLB))
    assert finish(server, sid).status_code == 201


def test_a_re_upload_under_another_name_replaces_the_first_file(server):
    sid = make_space(server, "splat", "first.splat", b"\0" * 64)
    assert upload(server, sid, "second.ply", (DATA / "sample_splat.ply").read_bytes()).status_code == 200
    assert sorted(os.listdir(server.data_dir / "spaces" / sid)) == ["second.ply"]
    assert finish(server, sid).status_code == 201


def test_a_re_upload_refused_for_a_full_disk_keeps_the_last_good_upload(small_disk):
    srv = ServerProcess(small_disk).start()
    try:
        sid = make_space(srv, "glb", "scene.glb", GLB)
        free = shutil.disk_usage(small_disk).free
        r = upload(srv, sid, "scene.glb", b"\0" * (free + (1 << 20)))  # more than the disk has left
        assert error_of(r, 507, "insufficient_storage") and float(r.headers["retry-after"]) > 0
        assert (small_disk / "spaces" / sid / "scene.glb").read_bytes() == GLB
        assert [p.name for p in (small_disk / "spaces" / sid).iterdir()] == ["scene.glb"]  # no part file left
        assert finish(srv, sid).status_code == 201
    finally:
        srv.stop()


def test_an_upload_to_an_unknown_template_is_refused_before_its_body(server):
    """The 404 comes back while the 250 MB body is still unsent: nothing of it was read or kept."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=8) as s:
        s.sendall(b"PUT /_local/spaces/sp_0000000000000000dead/upload?filename=a.glb HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/octet-stream\r\nContent-Length: 262144000\r\n\r\n" + b"\0" * 65536)
        head = s.recv(65536)
        while b"space_template_not_found" not in head:   # head and body may come in separate segments
            more = s.recv(65536)
            if not more:
                break
            head += more
    assert head.startswith(b"HTTP/1.1 404 "), head[:200]
    assert b"space_template_not_found" in head


def test_a_declared_size_past_the_limit_is_413_before_the_body(server):
    sid = make_space(server, "glb")
    with socket.create_connection(("127.0.0.1", server.port), timeout=8) as s:
        s.sendall(f"PUT /_local/spaces/{sid}/upload?filename=a.glb HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Content-Type: application/octet-stream\r\nContent-Length: 50000000000\r\n\r\n".encode())
        head = s.recv(65536)
    assert head.startswith(b"HTTP/1.1 413 "), head[:200]


def peak_rss_kib(pid: int) -> int:
    return int(next(line.split()[1] for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM:")))


def test_a_large_upload_is_streamed_to_disk_in_flat_memory(tmp_path):
    srv = ServerProcess(tmp_path / "data").start()
    try:
        # the animation library and what every avatar shares (the generator's warm-up) are made in the background at
        # the first start: their memory is not the upload's (waiting for the library alone, the warm-up, which since
        # pass 46 imports after the library's thread, workbench.service.lazy, grew the peak 56 MB under load)
        def settled() -> bool:
            health = httpx.get(srv.local_url + "/health").json()["data"]
            return health["animationLibrary"] == "ready" and health["generator"] == "ready"

        assert wait_for(settled, timeout=120)
        sid = make_space(srv, "splat")
        assert upload(srv, sid, "warm.splat", b"\0" * (4 << 20)).status_code == 200  # the thread pool's threads, once
        before = peak_rss_kib(srv.proc.pid)
        size = 160 << 20
        chunk = b"\0" * (1 << 20)
        r = httpx.put(f"{srv.local_url}/spaces/{sid}/upload", params={"filename": "big.splat"},
                      content=(chunk for _ in range(size >> 20)), timeout=120)
        assert r.status_code == 200 and r.json()["data"]["bytes"] == size, r.text
        grown = peak_rss_kib(srv.proc.pid) - before
        assert grown < 40 * 1024, f"the service's peak memory grew by {grown} KiB for a {size >> 20} MiB upload"
        assert (tmp_path / "data" / "spaces" / sid / "big.splat").stat().st_size == size
    finally:
        srv.stop()


# ---------------------------------------------------------------- the finish's file checks

def glb(doc_json: bytes, bin_chunk: bytes | None = None) -> bytes:
    """A GLB of this JSON chunk (padded), and a binary chunk when given."""
    doc_json += b" " * (-len(doc_json) % 4)
    body = struct.pack("<II", len(doc_json), 0x4E4F534A) + doc_json
    if bin_chunk is not None:
        body += struct.pack("<II", len(bin_chunk), 0x004E4942) + bin_chunk
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


BIN = b"\0" * 16


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e999"])
def test_the_glb_check_refuses_nan_and_infinity_in_the_json_chunk(server, number):
    sid = make_space(server, "glb", "n.glb", glb(b'{"asset": {"version": "2.0"}, "nodes": [{"translation": [0, ' + number + b', 0]}]}'))
    err = error_of(finish(server, sid), 500, "finalization_failed")
    assert any("NaN or Infinity" in d["message"] for d in err["details"]), err
    assert space_state(server, sid) == "failed"


@pytest.mark.parametrize("count", [b"9" * 5000, b"99999999999999999999"], ids=["5000-digits", "20-digits"])
def test_a_ply_count_too_large_for_int_is_a_finalization_failure(server, count):
    ply = b"ply\nformat binary_little_endian 1.0\nelement vertex " + count + b"\nproperty float x\nend_header\n"
    sid = make_space(server, "splat", "big.ply", ply)
    err = error_of(finish(server, sid), 500, "finalization_failed")
    assert "count" in err["details"][0]["message"], err


# ---------------------------------------------------------------- the finish's GLB checks on hostile JSON

HOSTILE = [
    {"asset": {"version": "2.0"}, "accessors": [{"bufferView": 0, "componentType": [5126], "type": "VEC3", "count": 1}],
     "bufferViews": [{"buffer": 0, "byteLength": 12}], "buffers": [{"byteLength": 16}]},
    {"asset": {"version": "2.0"}, "accessors": [{"bufferView": 0, "componentType": 5126, "type": {"a": 1}, "count": "3"}],
     "bufferViews": [{"buffer": 0, "byteLength": 12}], "buffers": [{"byteLength": 16}]},
    {"asset": "2.0", "buffers": [7], "bufferViews": {"0": 1}, "nodes": [{"mesh": "x"}]},
    {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 16}], "bufferViews": [{"buffer": [0], "byteLength": None}]},
    {"asset": {"version": "2.0"}, "accessors": [{"bufferView": 1.5}], "bufferViews": [True]},
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["asset", "version", "buffers", "bufferViews", "accessors", "nodes", "meshes", "buffer",
                         "byteLength", "byteOffset", "byteStride", "bufferView", "componentType", "type", "count",
                         "mesh", "uri", "children", "scenes", "scene", "sparse", "indices", "values", "skins",
                         "joints", "primitives", "attributes", "materials", "textures", "animations", "channels",
                         "samplers", "target", "node", "input", "output", "sampler"]), inner, max_size=6),
    max_leaves=30)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(json_values)
def test_any_json_in_the_glb_gives_a_list_of_problems(doc):
    problems = check_glb(glb(json.dumps(doc).encode(), BIN))
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)


@pytest.mark.parametrize("doc", HOSTILE)
def test_hostile_glb_json_is_a_finalization_failure_over_http(server, doc):
    sid = make_space(server, "glb", "hostile.glb", glb(json.dumps(doc).encode(), BIN))
    body = assert_error(finish(server, sid), 500, "finalization_failed")
    assert body["error"]["details"] and all("Error" not in d["message"] for d in body["error"]["details"])
    assert space_state(server, sid) == "failed"


def test_a_json_chunk_that_does_not_parse_is_named_without_the_decoders_text(server):
    sid = make_space(server, "glb", "bad-json.glb", glb(b'{"asset": ', BIN))
    body = assert_error(finish(server, sid), 500, "finalization_failed")
    messages = [d["message"] for d in body["error"]["details"]]
    assert len(messages) == 1 and messages[0].startswith("the JSON chunk is not valid JSON at line 1"), messages


def test_the_sample_space_still_passes():
    assert check_glb((DATA / "sample_space.glb").read_bytes()) == []
