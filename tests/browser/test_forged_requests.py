"""A page on another origin tries to change a local service it should not reach (contract section 14).

The page (on the test pages' loopback port, another origin than the service) sends what any web
page can send without a preflight: a ``text/plain`` fetch in ``no-cors`` mode and an HTML form
post, to ``POST /_local/reset``, ``/_local/tokens`` and ``/_local/viewers``; and a JSON fetch,
which needs a preflight that ``/_local`` never grants. Afterwards the avatar, the viewer and its
events made before are all still there, and no token or viewer was added.

On a service without the rule, the text/plain fetch answered 200 and wiped every avatar, viewer and
event (the browser sends it; only the page cannot read the answer).
"""

from __future__ import annotations

import httpx

from .conftest import open_page, run_async

FORGE = """
async (local) => {
  const out = {};
  for (const path of ["/reset", "/tokens", "/viewers"]) {
    try {
      await fetch(local + path, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
                                 body: JSON.stringify({kind: "product", scopes: ["avatar:write"]})});
      out["text " + path] = "sent";
    } catch (e) { out["text " + path] = "failed: " + e; }
    try {
      const r = await fetch(local + path, {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: JSON.stringify({kind: "product", scopes: ["avatar:write"]})});
      out["json " + path] = "answered " + r.status;
    } catch (e) { out["json " + path] = "blocked"; }
  }
  // An HTML form post, the oldest forgery: a hidden frame takes the answer.
  const frame = document.createElement("iframe");
  frame.name = "sink"; frame.style.display = "none"; document.body.appendChild(frame);
  const loaded = new Promise(resolve => frame.addEventListener("load", resolve, {once: true}));
  const form = document.createElement("form");
  form.method = "POST"; form.action = local + "/reset"; form.target = "sink";
  form.enctype = "text/plain";
  const field = document.createElement("input");
  field.name = '{"a":"'; field.value = '"}'; form.appendChild(field);
  document.body.appendChild(form); form.submit();
  // The frame's load (the service's answer, whatever it is) ends the wait; the bound is one a loaded CI
  // machine never reaches, so the state below is read after the post arrived.
  await Promise.race([loaded, new Promise(resolve => setTimeout(resolve, 60000))]);
  out.form = "submitted";
  return out;
}
"""


def state(server) -> dict:
    return httpx.get(server.local_url + "/health", timeout=30).json()["data"]["counts"]


def test_a_page_on_another_origin_cannot_reset_or_add_to_the_local_service(browser, pages, server):
    with server.client() as client:
        reg = client.avatars.register({"gender": "feminine"})
        vt = client.local.create_viewer()["viewerToken"]
        assert client.tracking.send_batch(vt, "s-forge", [{"key": "heartbeat", "payload": {"visible": True}}]).accepted == 1
    before = state(server)
    assert before["avatars"] >= 1 and before["viewers"] >= 1 and before["events"] >= 1, before

    open_page(browser, pages + "/tracking.html")
    sent = run_async(browser, f"({FORGE})", server.local_url)
    # The no-cors fetches and the form went out (a browser sends them); the JSON ones died in their preflight.
    assert sent["text /reset"] == "sent" and sent["form"] == "submitted", sent
    assert all(sent[f"json {p}"] == "blocked" for p in ("/reset", "/tokens", "/viewers")), sent

    assert state(server) == before
    with server.client() as client:
        assert client.avatars.preview(reg.model_id, size=128)._repr_png_().startswith(b"\x89PNG")
        assert client.local.viewer(vt)["viewerToken"] == vt
        assert any(e["sessionId"] == "s-forge" for e in client.local.events(viewer_token=vt))
