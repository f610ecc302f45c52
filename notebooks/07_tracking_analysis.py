# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 07 · Tracking analysis with pandas
#
# **What this shows:** how to turn visitors' tracking events into answers: visits, a funnel, load
# times by device, dwell time, AR conversion by platform, hotspot and variant rankings, events over
# time and per-viewer KPIs, with charts. Every function in `workbench.tracking` takes a DataFrame and
# returns a new one; the formulas are in their docstrings.
#
# **What it needs:** the sample in `data/sample_events.jsonl` (3,000 synthetic events from
# `workbench synth`). On the local service we also send the sample through the batch endpoint, export
# what was stored, and check that the export gives the same answers as the file.
#
# **Where to edit:** `notebooks/07_tracking_analysis.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 07`
# to run it and save its outputs.

# %% tags=["parameters"]
sample_file = "sample_events.jsonl"  # exported events (JSON lines) in data/

# %%
# %matplotlib inline
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import workbench
from workbench import tracking as wt

client = workbench.connect()
LOCAL = client.local.available
SKIP = "[skipped: needs the local control API]"
sample = wt.events_frame(Path.cwd().parent / "data" / sample_file)
sample.head()

# %% tags=["nbval-check-output"]
print(len(sample), "events,", sample["sessionId"].nunique(), "sessions,", sample["viewerToken"].nunique(), "viewers")
print("from", sample["timestamp"].min(), "to", sample["timestamp"].max())
sample["key"].value_counts().head(6).to_frame("events")

# %% [markdown]
# ## The same data through the service
#
# Each sample viewer gets a viewer on the service; the batch sender posts its events (they carry
# ids, so this is safe to repeat), and the control API exports what was stored.

# %% tags=["op:tracking.send_batch", "nbval-check-output"]
if LOCAL:
    mapping = {}
    for token, events in sample.groupby("viewerToken", sort=True):
        mapping[token] = client.local.create_viewer("product")["viewerToken"]
        rep = client.tracking.send(mapping[token], events.drop(columns=["viewerToken"]), progress=False)
        print(token, rep)
    exported = wt.events_frame([e for v in mapping.values() for e in client.local.events(v)])
    exported["viewerToken"] = exported["viewerToken"].map({v: k for k, v in mapping.items()})
    print(len(exported), "events exported")
else:
    exported = None
    print(SKIP)

# %% [markdown]
# ## Visits
#
# `sessionize` splits a session into visits where two consecutive events are more than `gap` apart
# (exactly `gap` stays one visit). The column `visit` is `"{sessionId}#{n}"`.

# %% tags=["nbval-check-output"]
visits = wt.sessionize(sample, gap="30min")
per_session = visits.groupby("sessionId")["visit"].nunique()
print("visits:", visits["visit"].nunique(), "from", len(per_session), "sessions")
per_session.value_counts().sort_index().rename_axis("visits in the session").to_frame("sessions")

# %% [markdown]
# ## Funnel
#
# `funnel` counts, per step, the sessions that reached it in order (other events allowed between),
# each within `within` of the session's first step. `conversion` is from the first step,
# `step_conversion` from the step before.

# %% tags=["nbval-check-output"]
steps = ["viewer_loaded", "interaction_start", "hotspot_opened", "variant_selected", "cta_clicked"]
f = wt.funnel(visits, steps, within="1h")
f.round(3)

# %% tags=["image-check"]
ax = wt.plot_funnel(f)
ax.set_title("Viewer funnel (sample)")
plt.show()

# %% [markdown]
# ## Load times by device (percentiles of `viewer_loaded.loadTimeMs`)

# %% tags=["nbval-check-output"]
lt = wt.load_times(visits, by="device", percentiles=(0.5, 0.9, 0.99))
lt.round(1)

# %% tags=["image-check"]
wt.plot_load_times(visits, by="device")
plt.show()

# %% [markdown]
# ## Dwell time per visit, and AR conversion by platform

# %% tags=["nbval-check-output"]
dwell = wt.dwell_times(visits)
dwell["duration_s"].describe(percentiles=[0.5, 0.9]).round(1).to_frame("visit duration (s)")

# %% tags=["nbval-check-output"]
wt.ar_conversion(visits).round(3)

# %% [markdown]
# ## Rankings: hotspots and variants

# %% tags=["nbval-check-output"]
hotspots = wt.rank(visits, key="hotspot_opened", field="hotspotId")
variants = wt.rank(visits, key="variant_selected", field="variantId")
hotspots.head(5).round(3)

# %% tags=["nbval-check-output"]
variants.head(5).round(3)

# %% tags=["image-check"]
fig, axes = plt.subplots(1, 2, figsize=(11, 3.5))
wt.plot_rank(hotspots, top=8, ax=axes[0]).set_title("Hotspots opened")
wt.plot_rank(variants, top=8, ax=axes[1]).set_title("Variants selected")
plt.tight_layout()
plt.show()

# %% [markdown]
# ## Events over time (the day and night cycle shows), and per-viewer KPIs

# %% tags=["image-check"]
wt.plot_events_over_time(visits, freq="6h", by=None).set_title("Events per 6 hours")
plt.show()

# %% tags=["nbval-check-output"]
wt.viewer_kpis(visits).round(2)

# %% [markdown]
# ## Checks
#
# The analysis must give the same answers whether the events come from the file or from the
# service's export.

# %%
assert len(sample) == 3000
assert f["count"].is_monotonic_decreasing and f["conversion"].iloc[0] == 1.0
if LOCAL:
    assert len(exported) == len(sample)
    ev = wt.sessionize(exported, gap="30min")
    pd.testing.assert_frame_equal(wt.funnel(ev, steps, within="1h"), f)
    pd.testing.assert_frame_equal(wt.load_times(ev, by="device"), lt)
    pd.testing.assert_frame_equal(wt.rank(ev, key="hotspot_opened", field="hotspotId"), hotspots)
    pd.testing.assert_frame_equal(wt.viewer_kpis(ev), wt.viewer_kpis(visits))
print("tracking analysis checks passed")
