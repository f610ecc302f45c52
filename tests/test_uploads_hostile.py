"""The finish-upload file checks read hostile GLBs as problems to report, never as a crash.

A GLB's JSON chunk can hold any JSON value where glTF expects an integer or an object; the
check must name the problem (the template becomes ``failed`` with a 500 ``finalization_failed``
that lists it), not fail with an exception or show the decoder's text.
"""

from __future__ import annotations

import json
import struct

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

from conftest import DATA
from test_service_http import assert_error, finish, make_space, space_state
from workbench.service.uploads import check_glb


def glb(doc_json: bytes, bin_chunk: bytes = b"\0" * 16) -> bytes:
    doc_json += b" " * (-len(doc_json) % 4)
    body = struct.pack("<II", len(doc_json), 0x4E4F534A) + doc_json + struct.pack("<II", len(bin_chunk), 0x004E4942) + bin_chunk
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


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
                         "mesh", "uri"]), inner, max_size=6),
    max_leaves=30)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(json_values)
def test_any_json_in_the_glb_gives_a_list_of_problems(doc):
    problems = check_glb(glb(json.dumps(doc).encode()))
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)


@pytest.mark.parametrize("doc", HOSTILE)
def test_hostile_glb_json_is_a_finalization_failure_over_http(server, doc):
    sid = make_space(server, "glb", "hostile.glb", glb(json.dumps(doc).encode()))
    body = assert_error(finish(server, sid), 500, "finalization_failed")
    assert body["error"]["details"] and all("Error" not in d["message"] for d in body["error"]["details"])
    assert space_state(server, sid) == "failed"


def test_a_json_chunk_that_does_not_parse_is_named_without_the_decoders_text(server):
    sid = make_space(server, "glb", "bad-json.glb", glb(b'{"asset": '))
    body = assert_error(finish(server, sid), 500, "finalization_failed")
    messages = [d["message"] for d in body["error"]["details"]]
    assert len(messages) == 1 and messages[0].startswith("the JSON chunk is not valid JSON at line 1"), messages


def test_the_sample_space_still_passes():
    assert check_glb((DATA / "sample_space.glb").read_bytes()) == []
