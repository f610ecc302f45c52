"""The client against a hostile or broken server on loopback ports."""

from __future__ import annotations

import gzip
import json

import pytest
from helpers import SECRET_TOKEN, client_at, run_async
from hostile_server import HostileServer, response

import workbench
from workbench.client.errors import AnswerTooLargeError, RequestTimeoutError, UnexpectedAnswerError

# ---------------------------------------------------------------- 10. credentials stay with the configured origin

@pytest.mark.parametrize("form", ["beacon", "header"])
@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_cross_origin_redirect_never_gets_the_credential(form, flavour):
    with HostileServer(lambda *a: response(200, b'{"status": "ok", "data": {"jobId": "j", "state": "queued"}}')) as other:
        # another origin: "localhost" is not "127.0.0.1" to a browser or to us
        target = f"http://localhost:{other.port}/steal"
        with HostileServer(lambda *a: response(307, location=target)) as first:
            call = (lambda c: c.viewers.regenerate("vt_1", "POST", beacon=True)) if form == "beacon" else \
                   (lambda c: c.viewers.regenerate("vt_1", "PUT"))
            with pytest.raises(UnexpectedAnswerError, match="another origin"):
                if flavour == "sync":
                    with client_at(first.root) as c:
                        call(c)
                else:
                    run_async(first.root, call)
            assert len(first.requests) == 1
        assert other.requests == []  # nothing at all reached the other origin, so neither the header nor the body


@pytest.mark.parametrize("location", ["data:text/plain,hello", "javascript:alert(1)", "mailto:a@b.c",
                                      "http://127.0.0.1:99999/x"], ids=["data", "javascript", "mailto", "port-99999"])
@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_redirect_to_a_url_no_request_can_go_to_is_one_of_the_clients_errors(location, flavour):
    """It escaped as httpx.InvalidURL (a data: URL), or as an ExceptionGroup (port 99999, async) (issue 45, item 5)."""
    with HostileServer(lambda *a: response(302, location=location)) as srv:
        with pytest.raises(UnexpectedAnswerError, match="redirect") as caught:
            if flavour == "sync":
                with client_at(srv.root) as c:
                    c.animations.list()
            else:
                run_async(srv.root, lambda c: c.animations.list())
        assert "animations.list" in str(caught.value) and len(srv.requests) == 1


def test_a_same_origin_redirect_is_still_followed():
    ok = b'{"status": "ok", "data": {"jobId": "j1", "state": "queued"}}'
    with HostileServer(lambda m, path, h, b: response(200, ok) if path.startswith("/moved")
                       else response(307, location="/moved/regenerate")) as srv:
        with client_at(srv.root) as c:
            job = c.viewers.regenerate("vt_1", "POST", beacon=True)
        assert job.job_id == "j1"
        assert [r[1] for r in srv.requests] == ["/api/viewers/vt_1/regenerate/all", "/moved/regenerate"]
        assert f"access_token={SECRET_TOKEN}".encode() in srv.requests[1][3]


# ---------------------------------------------------------------- 11. bounded downloads

def test_a_gzip_bomb_stops_at_the_bound_counted_after_decompression():
    bomb = gzip.compress(b"\0" * (64 << 20), compresslevel=9)  # 64 KiB that inflate to 64 MiB
    with HostileServer(lambda *a: response(200, bomb, "model/gltf-binary", content_encoding="gzip")) as srv:
        with client_at(srv.root, max_bytes={"model": 4 << 20}) as c:
            with pytest.raises(AnswerTooLargeError, match="decompressed") as e:
                c.avatars.model("m1")
    assert e.value.status == 200 and "4,194,304" in str(e.value)


def test_a_declared_length_past_the_bound_is_refused_before_reading():
    head = response(200, b"", "model/gltf-binary", content_length="53687091200")  # 50 GB, then nothing
    with HostileServer(lambda *a: [(head, 0), (b"glTF", 30)]) as srv:
        with client_at(srv.root) as c:
            with pytest.raises(AnswerTooLargeError, match="53,687,091,200"):
                c.avatars.model("m1")


def test_the_default_bounds_are_documented_and_configurable():
    from workbench.client._base import DEFAULT_MAX_BYTES

    c = workbench.Client("http://h/api", "http://h/avatars", max_bytes={"image": 1234})
    assert c.config.max_bytes["image"] == 1234 and c.config.max_bytes["model"] == DEFAULT_MAX_BYTES["model"]
    with pytest.raises(workbench.ConfigurationError, match="knows the kinds"):
        workbench.Client("http://h/api", "http://h/avatars", max_bytes={"videos": 1})


# ---------------------------------------------------------------- 12. a whole-answer deadline

@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_trickling_body_ends_at_the_answer_deadline(flavour):
    head = response(200, b"", "application/json", content_length="1000")
    with HostileServer(lambda *a: [(head, 0)] + [(b" ", 0.2)] * 200) as srv:
        call = lambda c: c.animations.list()  # noqa: E731
        with pytest.raises(RequestTimeoutError, match="answer_timeout"):
            if flavour == "sync":
                with client_at(srv.root, timeout=5, answer_timeout=1) as c:
                    call(c)
            else:
                run_async(srv.root, call, timeout=5, answer_timeout=1)
        assert isinstance(RequestTimeoutError("x"), TimeoutError)


# ---------------------------------------------------------------- 13. a 200 that is not the expected JSON

PORTAL = b"<html><body>Sign in to continue to the hotel Wi-Fi</body></html>"


@pytest.mark.parametrize("operation", ["register", "animations", "send_batch", "finish_upload", "regenerate", "model",
                                       "preview"])
def test_a_portal_page_with_200_is_an_unexpected_answer_naming_what_came(operation):
    calls = {
        "register": lambda c: c.avatars.register({"gender": "feminine"}),
        "animations": lambda c: c.animations.list(),
        "send_batch": lambda c: c.tracking.send_batch("vt_1", "s", [{"key": "heartbeat", "payload": {"visible": True}}]),
        "finish_upload": lambda c: c.spaces.finish_upload("sp_1", success=True, message="m"),
        "regenerate": lambda c: c.viewers.regenerate("vt_1"),
        "model": lambda c: c.avatars.model("m1"),
        "preview": lambda c: c.avatars.preview("m1"),
    }
    with HostileServer(lambda *a: response(200, PORTAL, "text/html; charset=utf-8")) as srv:
        with client_at(srv.root) as c:
            with pytest.raises(UnexpectedAnswerError) as e:
                calls[operation](c)
    err = e.value
    assert err.status == 200 and err.content_type == "text/html; charset=utf-8" and err.first_bytes.startswith(b"<html>")
    assert srv.root in err.url and "Sign in" in str(err)


def test_json_of_another_shape_is_an_unexpected_answer_too():
    with HostileServer(lambda *a: response(200, json.dumps({"status": "ok", "data": {"id": 1}}).encode())) as srv:
        with client_at(srv.root) as c:
            with pytest.raises(UnexpectedAnswerError, match="no modelId"):
                c.avatars.register({"gender": "feminine"})
            with pytest.raises(UnexpectedAnswerError, match="no accepted"):
                c.tracking.send_batch("vt_1", "s", [{"key": "heartbeat", "payload": {"visible": True}}])


def test_a_download_to_a_file_streams_and_keeps_no_part_when_refused(tmp_path):
    glb = b"glTF" + b"\0" * (3 << 20)
    with HostileServer(lambda *a: response(200, glb, "model/gltf-binary")) as srv:
        with client_at(srv.root, max_bytes={"model": 4 << 20}) as c:
            saved = c.avatars.model("m1", to_file=tmp_path / "m.glb")
            assert saved == tmp_path / "m.glb" and saved.read_bytes() == glb
            with pytest.raises(AnswerTooLargeError):
                c.with_options(max_bytes={"model": 1 << 20}).avatars.model("m1", to_file=tmp_path / "small.glb")
    with HostileServer(lambda *a: response(200, PORTAL, "text/html")) as srv:
        with client_at(srv.root) as c:
            with pytest.raises(UnexpectedAnswerError):
                c.animations.download("feminine", "wave", to_file=tmp_path / "w.glb")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.glb"]  # no part file, nothing half written


def test_a_model_streamed_to_a_file_from_the_service_is_the_same_glb(server, model_id, tmp_path):
    with server.client() as c:
        saved = c.avatars.model(model_id, lod=2, to_file=tmp_path / "avatar.glb")
        assert saved.read_bytes() == c.avatars.model(model_id, lod=2).content
