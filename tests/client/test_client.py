"""The client through its public interface: every test runs over real HTTP (sync) and in-process (async, ASGI)."""

from __future__ import annotations

import httpx
import pytest
from conftest import DATA

import workbench
from workbench.client.retry import RetryPolicy


def test_register_and_typed_result(client):
    reg = client.avatars.register({"gender": "feminine", "glasses": "clear", "name": "Ada"})
    assert len(reg.model_id) == 24
    assert reg.model_url.endswith(f"/avatars/model/{reg.model_id}.glb")
    assert reg.preview_url.endswith(f"/avatars/preview/{reg.model_id}.png")


@pytest.mark.parametrize("call,field", [
    (lambda c: c.avatars.register({"gender": "other"}), "gender"),
    (lambda c: c.avatars.model("abc", lod=3), "lod"),
    (lambda c: c.avatars.model("abc", texture_atlas_size=100), "textureAtlasSize"),
    (lambda c: c.avatars.model("abc", texture_atlas_size=4096), "textureAtlasSize"),
    (lambda c: c.avatars.model("abc", merge_mesh=2), "mergeMesh"),
    (lambda c: c.avatars.model("abc", texture_format="jpeg"), "textureFormat"),
    (lambda c: c.avatars.model("abc", animations="walk,moonwalk"), "animations"),
    (lambda c: c.avatars.preview("abc", size=16), "size"),
    (lambda c: c.avatars.preview("abc", size=1024), "size"),
    (lambda c: c.avatars.preview("abc", camera="side"), "camera"),
    (lambda c: c.avatars.preview("abc", background=(300, 0, 0)), "background"),
    (lambda c: c.avatars.preview("abc", background="red"), "background"),
    (lambda c: c.animations.download("robot", "walk"), "gender"),
    (lambda c: c.animations.download("feminine", "moonwalk"), "name"),
    (lambda c: c.viewers.regenerate("vw", method="GET"), "method"),
    (lambda c: c.tracking.send_batch("vw", "", [{"key": "heartbeat"}]), "sessionId"),
    (lambda c: c.tracking.send_batch("vw", "s", []), "events"),
    (lambda c: c.tracking.send_batch("vw", "s", [{"key": "heartbeat"}] * 101), "events"),
    (lambda c: c.spaces.finish_upload("sp", success="yes", message="m"), "success"),
    (lambda c: c.spaces.finish_upload("sp", success=True, message=""), "message"),
    (lambda c: c.avatars.model("a/b"), "model_id"),
])
def test_options_are_checked_before_sending(client, call, field):
    with pytest.raises(workbench.OptionError) as e:
        call(client)
    assert field in [p.field for p in e.value.problems]
    assert field in str(e.value)


def test_api_errors_carry_status_code_details_and_response(client):
    with pytest.raises(workbench.UnauthorizedError) as e:
        client.with_options(token="wb_wrong").avatars.register({"gender": "masculine"})
    err = e.value
    assert err.status == 401 and err.code == "unauthorized" and err.response.status_code == 401
    assert err.request_id
    with pytest.raises(workbench.NotFoundError) as e:
        client.viewers.regenerate("vw_does_not_exist")
    assert e.value.code == "viewer_not_found"


def test_space_finish_through_the_client(client):
    sid = client.local.create_space("glb")["spaceTemplateId"]
    client.local.upload_space(sid, "sample_space.glb", (DATA / "sample_space.glb").read_bytes())
    done = client.spaces.finish_upload(sid, success=True, message="uploaded by test")
    assert (done.status_code, done.state) == (201, "finalized")
    again = client.spaces.finish_upload(sid, success=True, message="retry")
    assert (again.status_code, again.state) == (201, "finalized")
    with pytest.raises(workbench.ConflictError):
        client.spaces.finish_upload(sid, success=False, message="too late")
    sid2 = client.local.create_space("splat")["spaceTemplateId"]
    cancelled = client.spaces.finish_upload(sid2, success=False, message="changed my mind")
    assert (cancelled.status_code, cancelled.state) == (200, "cancelled")
    sid3 = client.local.create_space("splat")["spaceTemplateId"]
    with pytest.raises(workbench.ServerError) as e:
        client.spaces.finish_upload(sid3, success=True, message="no file")
    assert e.value.code == "finalization_failed"


def test_regenerate_post_put_and_beacon(client):
    vt = client.local.create_viewer("product")["viewerToken"]
    for kw in ({"method": "POST"}, {"method": "PUT"}, {"method": "POST", "beacon": True}):
        job = client.viewers.regenerate(vt, **kw)
        assert job.viewer_token == vt and job.kind == "product" and job.state in ("started", "running")
        assert job.outputs == ("glb", "usdz", "preview")


def test_retries_503_then_succeeds(client):
    client.local.fault("animations.list", count=2, status=503)
    assert "walk" in client.animations.list().masculine


def test_gives_up_after_retries(client):
    client.local.fault("animations.list", count=10, status=503)
    with pytest.raises(workbench.ServerError) as e:
        client.with_options(retries=2).animations.list()
    assert e.value.status == 503 and e.value.code == "injected_fault"
    client.local.fault("animations.list", count=0)


def test_register_is_not_retried_on_5xx(client):
    client.local.fault("avatars.register", count=1, status=503)
    with pytest.raises(workbench.ServerError):
        client.avatars.register({"gender": "masculine"})
    assert client.avatars.register({"gender": "masculine"}).model_id


def test_429_retry_after_is_honoured(client, monkeypatch):
    # The clock is the senders' sleep, recorded instead of measured: what the client waited, exactly.
    from workbench.client import _async, _sync

    waited = []

    async def async_sleep(seconds):
        waited.append(seconds)

    monkeypatch.setattr(_sync.time, "sleep", waited.append)
    monkeypatch.setattr(_async.asyncio, "sleep", async_sleep)
    client.local.fault("animations.list", count=1, status=429, retry_after=1)
    client.animations.list()
    assert waited and waited[0] >= 1.0, waited


def test_environment_configuration(monkeypatch):
    monkeypatch.setenv("WORKBENCH_BASE_URL", "http://env/api")
    monkeypatch.setenv("WORKBENCH_AVATAR_BASE_URL", "http://env/avatars")
    monkeypatch.setenv("WORKBENCH_TOKEN", "envtok")
    c = workbench.Client()
    assert (c.config.base_url, c.config.avatar_base_url, c.config.token) == ("http://env/api", "http://env/avatars", "envtok")
    c2 = workbench.Client("http://arg/api", token="argtok")
    assert (c2.config.base_url, c2.config.avatar_base_url, c2.config.token) == ("http://arg/api", "http://env/avatars", "argtok")
    monkeypatch.delenv("WORKBENCH_AVATAR_BASE_URL")
    with pytest.raises(workbench.ConfigurationError, match="avatar_base_url"):
        workbench.Client()


def test_foreign_error_bodies_are_read(monkeypatch):
    answers = iter([
        httpx.Response(400, json={"message": "height too big", "code": "bad_height"}),
        httpx.Response(502, text="<html>bad gateway</html>"),
        httpx.Response(404, json={"error": "not_found", "error_description": "no such thing"}),
    ])
    c = workbench.Client("http://h/api", "http://h/avatars", transport=httpx.MockTransport(lambda r: next(answers)), retries=0)
    with pytest.raises(workbench.BadRequestError) as e:
        c.animations.list()
    assert (e.value.code, e.value.message) == ("bad_height", "height too big")
    with pytest.raises(workbench.ServerError) as e:
        c.animations.list()
    assert "bad gateway" in e.value.message
    with pytest.raises(workbench.NotFoundError) as e:
        c.animations.list()
    assert e.value.message == "no such thing"


def test_connection_errors_retry_then_raise_transport_error():
    calls = []

    def refuse(request):
        calls.append(request)
        raise httpx.ConnectError("refused", request=request)

    c = workbench.Client("http://h/api", "http://h/avatars", transport=httpx.MockTransport(refuse), retries=2, backoff=0.001)
    with pytest.raises(workbench.TransportError):
        c.animations.list()
    assert len(calls) == 3


def test_backoff_is_bounded_and_jittered():
    p = RetryPolicy(retries=5, backoff=0.5, max_backoff=2.0)
    waits = [p.delay(a) for a in range(5) for _ in range(50)]
    assert 0 <= min(waits) and max(waits) <= 2.0 and len(set(waits)) > 10
    assert p.delay(0, retry_after="3") == 3.0
    assert RetryPolicy(max_retry_after=1).delay(0, retry_after="30") is None


def test_connect_starts_a_local_service(monkeypatch):
    for k in ("WORKBENCH_BASE_URL", "WORKBENCH_AVATAR_BASE_URL", "WORKBENCH_TOKEN", "WORKBENCH_LOCAL_URL"):
        monkeypatch.delenv(k, raising=False)
    c = workbench.connect(quiet=True)
    try:
        assert c.local.available and c.service is not None
        assert c.avatars.register({"gender": "masculine"}).model_id
    finally:
        c.service.stop()


def test_connect_to_named_deployment_detects_local(server, monkeypatch, capsys):
    monkeypatch.setenv("WORKBENCH_BASE_URL", server.base_url)
    monkeypatch.setenv("WORKBENCH_AVATAR_BASE_URL", server.avatar_base_url)
    monkeypatch.setenv("WORKBENCH_TOKEN", server.token)
    monkeypatch.delenv("WORKBENCH_LOCAL_URL", raising=False)
    c = workbench.connect()
    assert c.service is None and c.config.local_url == server.local_url
    assert "named by the environment" in capsys.readouterr().out


def test_the_package_names_every_error_class_of_the_client():
    """``workbench.__all__`` is written out (the package loads the client on first use), so it must
    name exactly the client's error classes: each resolves to the class itself."""
    import workbench
    from workbench.client import errors

    classes = [n for n in errors.__all__ if isinstance(getattr(errors, n), type)]
    assert [n for n in workbench.__all__ if n not in ("connect", "Client", "AsyncClient")] == classes
    assert all(getattr(workbench, n) is getattr(errors, n) for n in classes)
