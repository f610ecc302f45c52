# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 08 · Tracking analysis at scale: an event lake on Dask
#
# **What this shows:** the questions of notebook 07 (visits, funnel, load times, dwell time, AR
# conversion, rankings, events over time, per-viewer KPIs) asked of an *event lake*: a folder of
# Parquet files partitioned by day, read as a Dask DataFrame. The functions are the same ones; given
# a Dask DataFrame they run on a Dask cluster and give the pandas answer. While they run, Dask's
# progress bar shows.
#
# **What it needs:** nothing but this machine: the notebook writes a small synthetic lake (200,000
# events, a few seconds) to a temporary folder and starts an embedded Dask `LocalCluster` sized to
# the machine. The last sections say how to point the same code at a real cluster and a lake of any
# size.
#
# **Where to edit:** `notebooks/08_tracking_at_scale.py` (or this notebook in JupyterLab
# with jupytext, which saves both), then `python tools/build_notebooks.py 08`
# to run it and save its outputs.

# %% tags=["parameters"]
n_events = 200_000  # synthetic events in the lake
seed = 8            # the same seed gives the same lake

# %%
# %matplotlib inline
import json
import shutil
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from workbench import tracking as wt
from workbench.tracking.cluster import close_embedded
from workbench.tracking.lake import write_synth_lake
from workbench.tracking.schema import SCHEMA

folder = Path(tempfile.mkdtemp(prefix="workbench-lake-"))
lake = write_synth_lake(folder / "events", n_events, seed=seed, chunk_events=50_000)

# %% [markdown]
# ## The lake
#
# `write_synth_lake` (the command line: `workbench synth --out DIR --events N`) draws whole
# sessions a chunk at a time, so memory follows the chunk, not the lake: 100 million events need
# under 2 GB. `workbench export --out DIR` writes the same layout from a local service's stored
# events. Each day is a folder; each part number is a *session bucket*, so every event of a session
# is in files with the same number. The columns are the schema written down in
# `workbench.tracking.schema`: catalog payload fields flattened into typed columns, timestamps in UTC.

# %% tags=["nbval-check-output"]
for day in sorted(p.name for p in lake.iterdir() if p.is_dir())[:3]:
    print(day, sorted(f.name for f in (lake / day).iterdir()))
print("...")
print(json.loads((lake / "_workbench_lake.json").read_text())["partitioning"])
print([f.name for f in SCHEMA][:8], "...")

# %% [markdown]
# `read_events` opens the lake lazily: one Dask partition per session bucket, so no session is split
# between workers and nothing has to be shuffled. (Any other Parquet dataset, or a JSON-lines
# export, opens too; the analysis then shuffles by session itself.)

# %% tags=["nbval-check-output"]
events = wt.read_events(lake)
print(type(events).__module__.split(".")[0], "DataFrame,", events.npartitions, "partitions")
events[["sessionId", "key", "timestamp", "payload.loadTimeMs"]].head(3)

# %% [markdown]
# ## Visits and the funnel
#
# With no cluster named, the dispatcher decides where the work runs from the lake's size (counted
# from its Parquet footers, no data read): a lake that fits in memory, as this one, runs on this
# process's threads, the same kernels per partition with no worker processes to start; a larger one
# (over `workbench.tracking.cluster.IN_PROCESS_ROWS`, 30 million events) starts an embedded
# `LocalCluster`, one worker process per core, and shows Dask's progress bar. `sessionize` stays
# lazy; `funnel` computes and returns a pandas table.

# %%
visits = wt.sessionize(events, gap="30min")
steps = ["viewer_loaded", "interaction_start", "hotspot_opened", "variant_selected", "cta_clicked"]
f = wt.funnel(visits, steps, within="1h", by="visit")

# %% tags=["nbval-check-output"]
f.round(3)

# %% tags=["image-check"]
ax = wt.plot_funnel(f)
ax.set_title("Viewer funnel by visit (200,000 events on Dask)")
plt.show()

# %% [markdown]
# ## Load times, dwell time, AR conversion
#
# Exact percentiles need every load time of a group together: the workers filter the
# `viewer_loaded` events (one per visit) and the percentiles are taken from those. `dwell_times`
# stays a Dask DataFrame, one row per visit.

# %%
lt = wt.load_times(events, by="device")
ar = wt.ar_conversion(events)
dwell = wt.dwell_times(visits).compute()

# %% tags=["nbval-check-output"]
lt.round(1)

# %% tags=["nbval-check-output"]
ar.round(3)

# %% tags=["nbval-check-output"]
dwell["duration_s"].describe(percentiles=[0.5, 0.9]).round(1).to_frame("visit duration (s)")

# %% [markdown]
# ## Rankings, events over time, per-viewer KPIs

# %%
hotspots = wt.rank(events, key="hotspot_opened", field="hotspotId")
over_time = wt.events_over_time(events, freq="6h", by=None)
kpis = wt.viewer_kpis(visits)

# %% tags=["nbval-check-output"]
hotspots.head(5).round(3)

# %% tags=["nbval-check-output"]
kpis.round(2)

# %% tags=["image-check"]
fig, axes = plt.subplots(1, 2, figsize=(11, 3.5))
wt.plot_rank(hotspots, top=8, ax=axes[0]).set_title("Hotspots opened")
over_time.plot(ax=axes[1], legend=False).set_title("Events per 6 hours")
plt.tight_layout()
plt.show()

# %% [markdown]
# ## A real cluster, and a lake of any size
#
# Nothing above depends on the lake's size or where the work runs:
#
# - **A real cluster:** set `WORKBENCH_DASK_SCHEDULER=tcp://HOST:8786` before starting Python, or
#   pass a client to any function: `wt.funnel(visits, steps, client=Client("tcp://HOST:8786"))`.
#   If you already made a `distributed.Client`, it is used. The workers need `workbench`
#   installed and the lake at the same path (a shared disk).
# - **Any size:** `workbench synth --out /data/lake --events 100000000` writes 100 million events in
#   under 2 GB of memory; `workbench export --out /data/lake` writes a local service's events.
#   Dask reads one session bucket per task, so memory follows the bucket size, not the lake.
#   `bench/scale.py` measures 10 to 100 million events on this kind of machine
#   (figures in `bench/RESULTS.md`).
# - **No cluster at all:** `WORKBENCH_DASK_SCHEDULER=threads` runs on Dask's thread pool whatever
#   the size (the default for a lake that fits, and for a plain script without
#   `if __name__ == "__main__":`, whose worker processes would each run the script again).
#
# `workbench analyze DIR --out TABLES` prints the headline tables (sessions, funnel, load-time
# percentiles, AR conversion) and writes them as Parquet or CSV.

# %% [markdown]
# ## Checks
#
# The same questions asked of the same events as one pandas frame give the same answers.

# %%
frame = pd.read_parquet(lake).drop(columns=["date"])
assert len(frame) == n_events == len(events)
pd.testing.assert_frame_equal(wt.funnel(wt.sessionize(frame), steps, within="1h", by="visit"), f)
pd.testing.assert_frame_equal(wt.load_times(frame, by="device"), lt)
pd.testing.assert_frame_equal(wt.ar_conversion(frame), ar)
pd.testing.assert_frame_equal(wt.rank(frame, key="hotspot_opened", field="hotspotId"), hotspots)
pd.testing.assert_frame_equal(wt.events_over_time(frame, freq="6h", by=None), over_time)
pd.testing.assert_frame_equal(wt.viewer_kpis(frame), kpis, check_exact=False, rtol=1e-12)
assert len(dwell) == len(wt.dwell_times(frame))
close_embedded()
shutil.rmtree(folder)
print("tracking at scale checks passed")
