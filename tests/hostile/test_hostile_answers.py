"""The client against answers that take too long in the head, stack their content codings, or nest their JSON
without end (issue 40, items 2, 3 and 9)."""

from __future__ import annotations

import gzip
import tracemalloc
import zlib

import pytest
from helpers import client_at, run_async
from hostile_server import HostileServer, response

from workbench.client.errors import (
    AnswerTooLargeError,
    APIError,
    RequestTimeoutError,
    UnexpectedAnswerError,
    WorkbenchError,
)

OK_LIST = b'{"status": "ok", "data": {"masculine": ["idle"], "feminine": ["idle"]}}'


def ask(flavour: str, root: str, call, **kw):
    if flavour == "sync":
        with client_at(root, **kw) as c:
            return call(c)
    return run_async(root, call, **kw)


# ---------------------------------------------------------------- 2. the deadline covers the head

@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_trickling_status_line_and_headers_end_at_the_answer_deadline(flavour):
    # A header line every 0.25 s for 10 s, each well inside the 5 s read timeout; then an empty body,
    # which is no answer of the operation: a client that waited for all of it says so instead.
    pieces = [(b"HTTP/1.1 200 OK\r\n", 0.25)] + [(b"X-Pad: a\r\n", 0.25)] * 40 + \
             [(b"Content-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0)]
    with HostileServer(lambda *a: pieces) as srv:
        with pytest.raises(RequestTimeoutError, match="answer_timeout"):
            ask(flavour, srv.root, lambda c: c.animations.list(), timeout=5, answer_timeout=1)


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_prompt_answer_still_arrives_within_the_deadline(flavour):
    with HostileServer(lambda *a: response(200, OK_LIST)) as srv:
        got = ask(flavour, srv.root, lambda c: c.animations.list(), answer_timeout=5)
    assert got.feminine == ("idle",)


def test_every_connection_pool_of_the_client_reads_within_the_deadline():
    # The deadline reaches into httpx's pools (workbench.client._deadline.install): if a new httpx moved
    # them, this says so before a trickling server does.
    from workbench.client._deadline import install

    with client_at("http://127.0.0.1:1") as c:
        assert install(c._http) >= 1


# ---------------------------------------------------------------- 3. stacked content codings

@pytest.fixture(scope="module")
def stacked_bomb() -> bytes:
    """256 MiB of zeros, gzipped, gzipped again: under a kilobyte on the wire."""
    z, block = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(1 << 20)
    inner = b"".join([z.compress(block) for _ in range(256)] + [z.flush()])
    return gzip.compress(inner, 9)


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_stacked_gzip_is_decoded_in_bounded_steps_and_stops_at_the_bound(flavour, stacked_bomb):
    assert len(stacked_bomb) < 2048
    with HostileServer(lambda *a: response(200, stacked_bomb, content_encoding="gzip, gzip")) as srv:
        tracemalloc.start()
        try:
            with pytest.raises(AnswerTooLargeError, match="decompressed"):
                ask(flavour, srv.root, lambda c: c.animations.list())  # JSON answers: 16 MiB at most
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    # The bound's 16 MiB kept, and steps of 256 KiB: never the 256 MiB the inner layer holds.
    assert peak < 48 << 20, f"peak {peak:,} bytes"


def test_stacked_codings_that_fit_are_decoded_and_more_than_two_are_refused():
    deflated = zlib.compress(gzip.compress(OK_LIST))
    with HostileServer(lambda *a: response(200, deflated, content_encoding="gzip, deflate")) as srv:
        with client_at(srv.root) as c:
            assert c.animations.list().masculine == ("idle",)
    three = gzip.compress(gzip.compress(gzip.compress(OK_LIST)))
    with HostileServer(lambda *a: response(200, three, content_encoding="gzip, gzip, gzip")) as srv:
        with client_at(srv.root) as c:
            with pytest.raises(UnexpectedAnswerError, match="3 content codings stacked"):
                c.animations.list()
    with HostileServer(lambda *a: response(200, b"\x1f\x8b junk", content_encoding="gzip")) as srv:
        with client_at(srv.root) as c:
            with pytest.raises(UnexpectedAnswerError, match="does not decode"):
                c.animations.list()


# ---------------------------------------------------------------- 9. JSON nested without end

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize("status", [200, 400, 503])
def test_json_nested_100000_deep_is_one_of_the_clients_errors(flavour, status):
    with HostileServer(lambda *a: response(status, DEEP)) as srv:
        with pytest.raises(WorkbenchError) as e:
            ask(flavour, srv.root, lambda c: c.animations.list())
    assert isinstance(e.value, UnexpectedAnswerError if status == 200 else APIError)
    if status == 200:
        assert "nests" in str(e.value)
