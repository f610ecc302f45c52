"""``workbench.connect(base, avatar_base)`` asks both halves before it says "Connected": where nothing
answers, or something else does, it says so and how to fix it; a wait over two seconds shows a bar,
for a deployment that answers slowly and for the first local start alike."""

from __future__ import annotations

import http.server
import io
import json
import threading

import pytest
from conftest import free_port
from helpers import Seen

import workbench

ANIMATIONS = {"status": "ok", "data": {"masculine": ["idle", "walk"], "feminine": ["idle", "walk"]}}


@pytest.fixture()
def deployment():
    """A stand-in deployment on loopback whose ``GET /avatars/animations`` waits for ``hold`` to be set
    (when given) before it answers with the animation list; everything else is a 404."""
    state = {"hold": None, "asked": []}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            state["asked"].append(self.path)
            if self.path == "/avatars/animations":
                if state["hold"] is not None:
                    state["hold"].wait(120)
                body, status = json.dumps(ANIMATIONS).encode(), 200
            else:
                body, status = b'{"status": "error", "error": {"code": "route_not_found", "message": "no"}}', 404
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    state["root"] = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield state
    httpd.shutdown()
    httpd.server_close()


def test_nothing_listening_is_said_with_its_fix_and_no_connection_is_claimed(capsys):
    root = f"http://127.0.0.1:{free_port()}"  # a port just released: nothing listens there
    with pytest.raises(workbench.TransportError) as e:
        workbench.connect(root + "/api", root + "/avatars")
    message = str(e.value)
    assert message.startswith(f"nothing answers at {root}/avatars/animations (ConnectError")
    assert "check avatar_base_url and that the deployment is up" in message and "workbench serve" in message
    assert "Traceback" not in message and "Connected" not in capsys.readouterr().out


def test_one_url_on_a_dead_port_says_nothing_answers_there_not_that_the_other_is_missing():
    root = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(workbench.TransportError) as e:
        workbench.connect(root + "/api")
    assert str(e.value).startswith(f"nothing answers at {root}/api (ConnectError"), str(e.value)
    assert "check base_url" in str(e.value)


def test_one_url_that_answers_says_the_other_is_missing(deployment):
    with pytest.raises(workbench.ConfigurationError, match="missing avatar_base_url"):
        workbench.connect(deployment["root"] + "/api")


def test_the_environment_is_named_when_it_named_the_urls(monkeypatch):
    root = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("WORKBENCH_BASE_URL", root + "/api")
    monkeypatch.setenv("WORKBENCH_AVATAR_BASE_URL", root + "/avatars")
    with pytest.raises(workbench.TransportError, match=r"check avatar_base_url \(WORKBENCH_AVATAR_BASE_URL\)"):
        workbench.connect()


def test_swapped_urls_and_another_server_are_told_apart_from_the_service(server, deployment, capsys):
    with pytest.raises(workbench.ConfigurationError) as e:
        workbench.connect(server.avatar_base_url, server.base_url, server.token)
    assert str(e.value).startswith(f"{server.base_url}/animations answered 404 application/json, not the interface's "
                                   "animation list: avatar_base_url should be the avatar half of the service")
    assert f"a local service's are {server.root}/avatars and {server.root}/api" in str(e.value)
    with pytest.raises(workbench.ConfigurationError, match="answered 404"):
        workbench.connect(deployment["root"] + "/avatars", deployment["root"] + "/api")  # a server, not this interface
    assert "Connected" not in capsys.readouterr().out

    client = workbench.connect(server.base_url, server.avatar_base_url, server.token)
    out = capsys.readouterr().out
    assert out == (f"Connected to a local workbench service named by the arguments: {server.base_url} and "
                   f"{server.avatar_base_url}; both answer (the avatar half lists 18 animations).\n")
    assert client.animations.list()


def test_a_slow_answer_shows_a_bar_naming_what_it_waits_for(deployment, monkeypatch, capsys):
    root = deployment["root"]
    stderr = Seen(f"Asking {root}/avatars")
    deployment["hold"] = stderr.seen  # the deployment answers only once the bar has shown
    monkeypatch.setattr("sys.stderr", stderr)
    client = workbench.connect(root + "/api", root + "/avatars", local_url="none")
    assert stderr.seen.is_set() and "/avatars/animations" in deployment["asked"] and "/api" in deployment["asked"]
    assert "Connected to a deployment named by the arguments" in capsys.readouterr().out
    assert client.config.local_url is None


def test_a_quick_answer_shows_nothing(deployment, monkeypatch, capsys):
    root = deployment["root"]
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr("workbench.progress.AFTER", 3600.0)  # no wait here lasts an hour: none shows a bar
    workbench.connect(root + "/api", root + "/avatars", local_url="none")
    assert stderr.getvalue() == ""


def test_the_first_local_start_shows_its_steps(monkeypatch, capsys):
    monkeypatch.delenv("WORKBENCH_BASE_URL", raising=False)
    monkeypatch.delenv("WORKBENCH_AVATAR_BASE_URL", raising=False)
    stderr = Seen("Starting a local workbench service")
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr("workbench.progress.AFTER", 0.0)  # every wait shows its bar, however short
    client = workbench.connect()
    try:
        assert stderr.seen.is_set()
        assert "Starting a local workbench service (" in stderr.getvalue()
        assert capsys.readouterr().out.startswith("No deployment named")
    finally:
        client.service.stop()
