# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 06 · Tracking batches
#
# **What this shows:** `POST {base_url}/viewers/{viewerToken}/tracking-event/batch`, the public
# endpoint a viewer uses to send its visitors' events, up to 100 at a time. We send valid, mixed and
# invalid batches, read the 200, 207 and 400 answers, reconcile each per-event error with the event
# that caused it, resend safely, and then send a large DataFrame with the batch sender.
#
# **What it needs:** a viewer token. On the local service the control API makes a viewer; against a
# deployment, set `WORKBENCH_VIEWER_TOKEN` to one of yours (otherwise those cells skip).
#
# **Where to edit:** `notebooks/06_tracking_batches.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 06`
# to run it and save its outputs.

# %% tags=["parameters"]
viewer_token = None      # a viewer of the deployment; None: $WORKBENCH_VIEWER_TOKEN, or a new local one
synthetic_events = 20_000  # events the batch sender sends

# %%
import os

import httpx
import pandas as pd
import workbench
from workbench.tracking import catalog_frame, synth

client = workbench.connect()
LOCAL = client.local.available
SKIP = "[skipped: needs the local control API]"
if viewer_token:
    viewer = viewer_token
elif LOCAL:
    viewer = client.local.create_viewer("product")["viewerToken"]
else:
    viewer = os.environ.get("WORKBENCH_VIEWER_TOKEN")
HAVE_VIEWER = viewer is not None

# %% [markdown]
# ## The event catalog
#
# An event is an object with a `key`, an optional `payload`, an optional `timestamp` (ISO 8601 with a
# zone, or epoch milliseconds; default: when the service received it) and an optional `id` (1 to 64
# characters; an id seen before is a duplicate, stored once). The service validates with one catalog,
# and the client pre-checks with the same one:

# %% tags=["nbval-check-output"]
display(catalog_frame())

# %% [markdown]
# ## A valid batch: 200

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
valid = [
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 840, "device": "desktop"}, "timestamp": "2026-11-20T09:00:00Z", "id": "v-1"},
    {"key": "model_loaded", "payload": {"loadTimeMs": 1210}, "timestamp": "2026-11-20T09:00:01Z", "id": "v-2"},
    {"key": "interaction_start", "payload": {"kind": "rotate"}, "timestamp": "2026-11-20T09:00:04Z", "id": "v-3"},
    {"key": "hotspot_opened", "payload": {"hotspotId": "sole"}, "timestamp": "2026-11-20T09:00:09Z", "id": "v-4"},
    {"key": "custom.size_chart_opened", "payload": {"region": "EU"}, "timestamp": "2026-11-20T09:00:12Z", "id": "v-5"},
]
if HAVE_VIEWER:
    ok = client.tracking.send_batch(viewer, "visit-100", valid)
    print(ok)
else:
    print(SKIP)

# %% [markdown]
# ## A mixed batch: 207
#
# Events that break a rule are rejected one by one; the others are stored. The answer lists each
# rejection with the event's `index` in the batch, a `code`, a `message` and the `field` at fault.
# `events_with_errors` joins them back to what was sent:

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
mixed = [
    {"key": "ar_requested", "payload": {"platform": "ios"}, "id": "m-1"},
    {"key": "ar_requested", "payload": {"platform": "symbian"}, "id": "m-2"},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": -3}, "id": "m-3"},
    {"key": "teleported", "id": "m-4"},
    {"key": "heartbeat", "payload": {"visible": True}, "colour": "red", "id": "m-5"},
    {"key": "heartbeat", "payload": {"visible": True}, "timestamp": "yesterday", "id": "m-6"},
    {"key": "fullscreen_toggled", "payload": {"enabled": False}, "id": "m-7"},
]
if HAVE_VIEWER:
    partial = client.tracking.send_batch(viewer, "visit-101", mixed)
    print(partial)
    joined = partial.events_with_errors(mixed)
    joined["key"] = joined["event"].map(lambda e: e.get("key"))
    display(joined[["index", "key", "code", "field"]].fillna(""))
else:
    print(SKIP)

# %% [markdown]
# ## Every event invalid: 400 with the same per-event list in `details`

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
if HAVE_VIEWER:
    try:
        client.tracking.send_batch(viewer, "visit-102", [{"key": "nope"}, {"payload": {}}, "heartbeat"])
    except workbench.BadRequestError as e:
        print(e.status, e.code)
        display(e.details_frame())
else:
    print(SKIP)

# %% [markdown]
# ## Request-level errors: 400, and 404 for an unknown viewer
#
# The client refuses a batch that breaks the request rules before sending it. With `check=False` it
# sends it anyway, to show the service's answer:

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
hb = {"key": "heartbeat", "payload": {"visible": True}}
cases = {"empty events": ("s", []), "101 events": ("s", [hb] * 101), "empty sessionId": ("", [hb])}
for name, (sid, events) in cases.items():
    try:
        client.tracking.send_batch(viewer or "any-viewer", sid, events)
    except workbench.OptionError as e:
        print(f"client: {name:16} {e.problems[0].field}: {e.problems[0].code}")
    if HAVE_VIEWER:
        try:
            client.tracking.send_batch(viewer, sid, events, check=False)
        except workbench.BadRequestError as e:
            print(f"service: {name:15} {e.status} {e.code}")
try:
    client.tracking.send_batch("vw_nobody_has_this", "s", [hb])
except workbench.NotFoundError as e:
    print("unknown viewer:", e.status, e.code)

# %% [markdown]
# ## From a browser: `navigator.sendBeacon`
#
# A page that is closing sends its last events with `sendBeacon`, which posts the JSON as
# `text/plain`. The service takes that too:

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
if HAVE_VIEWER:
    import json
    r = httpx.post(f"{client.config.base_url}/viewers/{viewer}/tracking-event/batch",
                   content=json.dumps({"sessionId": "visit-100", "events": [
                       {"key": "viewer_closed", "payload": {"durationMs": 14000}, "id": "v-6"}]}),
                   headers={"Content-Type": "text/plain;charset=UTF-8"})
    print(r.status_code, r.json()["data"])
else:
    print(SKIP)

# %% [markdown]
# ## Resending safely
#
# A batch whose answer was lost can be sent again: events carry ids, and an id the service has seen is
# counted as a duplicate and stored once.

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
if HAVE_VIEWER:
    resent = client.tracking.send_batch(viewer, "visit-100", valid)
    print(resent)
else:
    print(SKIP)

# %% [markdown]
# ## The batch sender: any number of events
#
# `client.tracking.send(viewer, events)` takes a list or a DataFrame of any size. It pre-checks every
# event with the catalog, gives each event without an id a stable one (a hash of its place and
# content, so sending the same data again stores nothing twice), splits each session's events into
# batches of at most 100 under the body limit, sends them concurrently with retries, and returns a
# report with one row per event. Here, 20,000 synthetic events (`workbench.tracking.synth`):

# %%
traffic = synth.generate(synthetic_events, seed=7, viewers=1)
traffic = traffic.drop(columns=["viewerToken", "id"])
traffic.head()

# %% tags=["op:tracking.send_batch"]
if HAVE_VIEWER:
    report = client.tracking.send(viewer, traffic, concurrency=8)

# %% tags=["nbval-check-output"]
if HAVE_VIEWER:
    display(report.summary())
else:
    print(SKIP)

# %% [markdown]
# Sending the same DataFrame again: every event is a duplicate, nothing is stored twice.

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
if HAVE_VIEWER:
    again = client.tracking.send(viewer, traffic, concurrency=8, progress=False)
    display(again.summary())
else:
    print(SKIP)

# %% [markdown]
# Events the pre-check refuses are reported, with the stage that refused them, and never sent:

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
if HAVE_VIEWER:
    sloppy = traffic.head(300).astype({"key": str})
    sloppy.loc[sloppy.index[[3, 50]], "key"] = "viewer_exploded"
    rep = client.tracking.send(viewer, sloppy, progress=False)
    print(rep)
    display(rep.errors[["position", "key", "code", "field", "stage"]])
else:
    print(SKIP)

# %% [markdown]
# ## What the service stored (local control API export)

# %% tags=["nbval-check-output"]
if LOCAL:
    stored = client.local.events(viewer)
    print(len(stored), "events stored for this viewer")
    display(pd.Series([e["key"] for e in stored], name="key").value_counts().head(8).to_frame())
else:
    print(SKIP)

# %% [markdown]
# ## Checks

# %%
if HAVE_VIEWER:
    assert (ok.status_code, ok.accepted) == (200, 5)
    assert (partial.status_code, partial.accepted, partial.rejected) == (207, 2, 5)
    assert (resent.accepted, resent.duplicates) == (5, 5)
    assert report.accepted == len(traffic) and report.failed == 0
    assert again.duplicates == len(traffic)
    assert rep.rejected == 2 and set(rep.errors["stage"]) == {"client"}
if LOCAL:
    assert len(stored) == 5 + 2 + 1 + len(traffic)
print("tracking batch checks passed")
