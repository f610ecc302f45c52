"""What the service relies on in its dependencies beyond their public options, checked so that an
upgrade that breaks it fails here, with a message naming the assumption, not in production.

uvicorn has no public read timeout or connection cap, so ``GuardedH11Protocol`` extends its
HTTP/1.1 protocol class (``workbench/service/protocol.py``); pyproject.toml pins uvicorn's range.
"""

from __future__ import annotations

import inspect
import re
from importlib.metadata import version
from pathlib import Path

import h11
import pytest

ROOT = Path(__file__).resolve().parents[2]


def pinned(name: str) -> str:
    text = (ROOT / "pyproject.toml").read_text()
    m = re.search(rf'"{name}([^"]*)"', text)
    assert m, f"{name} is not pinned in pyproject.toml"
    return m.group(1)


def test_uvicorn_is_within_the_pinned_range():
    from packaging.specifiers import SpecifierSet

    spec = SpecifierSet(pinned("uvicorn"))
    assert version("uvicorn") in spec, (
        f"uvicorn {version('uvicorn')} is outside {spec}: GuardedH11Protocol extends uvicorn's private HTTP/1.1 "
        "protocol; check the assumptions in tests/service/test_dependency_guards.py against the new version, then widen the pin")


def test_the_h11_protocol_has_what_the_guard_uses():
    from uvicorn.protocols.http.h11_impl import H11Protocol

    source = inspect.getsource(H11Protocol)
    needed = {
        "callback connection_made": callable(getattr(H11Protocol, "connection_made", None)),
        "callback data_received": callable(getattr(H11Protocol, "data_received", None)),
        "callback connection_lost": callable(getattr(H11Protocol, "connection_lost", None)),
        "callback on_response_complete": callable(getattr(H11Protocol, "on_response_complete", None)),
        "self.connections (the server's open connections)": "self.connections" in source,
        "self.conn (the h11 connection, their_state)": "self.conn = h11.Connection" in source,
        "self.flow (read_paused)": "self.flow" in source and "read_paused" in inspect.getsource(
            __import__("uvicorn.protocols.http.flow_control", fromlist=["FlowControl"]).FlowControl),
        "self.transport": "self.transport" in source,
        "self.loop": "self.loop" in source,
        "self.logger": "self.logger" in source,
        "h11 states IDLE, SEND_BODY and ERROR": all(hasattr(h11, n) for n in ("IDLE", "SEND_BODY", "ERROR")),
        "send_400_response, called inside except h11.RemoteProtocolError": (
            "except h11.RemoteProtocolError" in source and "self.send_400_response(" in source),
        "h11's error_status_hint": "error_status_hint" in inspect.signature(h11.RemoteProtocolError.__init__).parameters,
        "self.config (h11_max_incomplete_event_size), read when the guard replaces self.conn": "self.config = config" in source,
        "h11.Connection.next_event and its _receive_buffer._data (StrictConnection reads a head before h11 "
        "unfolds it)": callable(getattr(h11.Connection, "next_event", None))
        and isinstance(getattr(h11.Connection(h11.SERVER), "_receive_buffer", None).__dict__.get("_data"), bytearray),
        "self.cycle and self.headers": "self.cycle = RequestResponseCycle(" in source and "self.headers = " in source,
        "the cycle's response_started, disconnected and message_event": all(
            f"self.{n}" in inspect.getsource(__import__("uvicorn.protocols.http.h11_impl", fromlist=["x"]).RequestResponseCycle)
            for n in ("response_started", "disconnected", "message_event")),
    }
    missing = [what for what, ok in needed.items() if not ok]
    assert not missing, ("uvicorn's H11Protocol changed; GuardedH11Protocol (workbench/service/protocol.py) relies on: "
                         + ", ".join(missing))


@pytest.mark.parametrize("module,name", [("starlette.routing", "Route.matches"), ("python_multipart", "MultipartParser")])
def test_the_public_interfaces_used_instead_of_private_parts_exist(module, name):
    mod = __import__(module, fromlist=["x"])
    obj = mod
    for part in name.split("."):
        obj = getattr(obj, part)
    assert callable(obj)
