# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 09 · Product analytics: retention, funnel options, paths and an experiment
#
# **What this shows:** the questions analysts ask first of viewer traffic, the way analytics
# products (Amplitude, Mixpanel, PostHog) define them: *do visitors come back?* (retention
# cohorts and curve), *how many are new, back, or gone, and how many days a week do they engage?*
# (lifecycle and stickiness), *where do they drop out, how long does each step take, and what goes
# with converting?* (funnels in three orders with exclusions and a breakdown, times to convert,
# correlation), *what do they do after opening the viewer?* (paths and transitions), and *which
# variant converts better?* (an experiment readout; notebook 10 has the rest of experiments).
# Every function takes a pandas or a Dask DataFrame; here they run on an event lake through Dask,
# as they would on a cluster.
#
# **What it needs:** nothing but this machine: the notebook writes a synthetic lake to a temporary
# folder. The synthetic visitors come back on later days in new sessions (a `visitorId` shared by
# several sessions), and half of them see a treatment that makes a click on the call to action
# 1.5 times as likely, so the numbers below have something real to find.
#
# **Where to edit:** `notebooks/09_product_analytics.py` (or this notebook in JupyterLab with
# jupytext, which saves both), then `python tools/build_notebooks.py 09` to run it and save its
# outputs. `workbench tour --param n_events=1000000` runs it on more events without editing it.

# %% tags=["parameters"]
n_events = 300_000  # synthetic events in the lake
seed = 8            # the same seed gives the same lake, and the same numbers below

# %%
# %matplotlib inline
import shutil
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from workbench import tracking as wt
from workbench.tracking.cluster import close_embedded
from workbench.tracking.lake import write_synth_lake

folder = Path(tempfile.mkdtemp(prefix="workbench-"))  # /tmp/workbench-*: the notebooks' checks mask it
lake = write_synth_lake(folder / "events", n_events, seed=seed, chunk_events=100_000)
data = wt.read_events(lake)
visits = wt.sessionize(data, gap="30min")
print(f"{n_events:,} events, {data.npartitions} partitions of whole visitors")

# %% [markdown]
# ## Do visitors come back? Retention
#
# A visitor's cohort is the day of their first `viewer_loaded`; they are counted on day N when they
# came back (any event) 24·N to 24·(N+1) hours later (Amplitude's N-day retention, rolling 24-hour
# periods). Cells a cohort has not reached yet (the data end on 8 November) are empty, and the curve
# divides only by the cohorts that reached each day.

# %%
table = wt.retention(data, start_key="viewer_loaded", by="visitorId", periods=6)

# %% tags=["nbval-check-output"]
print("visitors per cohort:", table[("size", "")].tolist())
(table["rate"] * 100).round(1).rename(index=lambda t: t.strftime("%a %d %b"))

# %% tags=["image-check"]
ax = wt.plot_retention(table, unit="visitors")
ax.set_title("N-day retention by cohort (thin) and over all cohorts (thick)")
plt.show()

# %% [markdown]
# *Unbounded* retention counts a visitor on day N when they came back on day N **or later**
# (Amplitude's "unbounded"); *brackets* group days, and a bracket counts only for cohorts whose
# last day in it has begun (a bracket seen in part would read low). Calendar days (`calendar=True`)
# count a return after midnight as day 1, however soon it came; midnight is UTC's unless `tz=` says
# where the visitors are (`tz="America/New_York"`: a 21:30 visit there belongs to its own day).

# %%
unbounded = wt.retention_curve(wt.retention(data, start_key="viewer_loaded", by="visitorId", periods=6,
                                            kind="unbounded"))
calendar = wt.retention_curve(wt.retention(data, start_key="viewer_loaded", by="visitorId", periods=6,
                                           calendar=True))
new_york = wt.retention_curve(wt.retention(data, start_key="viewer_loaded", by="visitorId", periods=6,
                                           calendar=True, tz="America/New_York"))
brackets = wt.retention_curve(wt.retention(data, start_key="viewer_loaded", by="visitorId", kind="bracket",
                                           brackets=[(1, 1), (2, 3), (4, 6)]))
curves = pd.DataFrame({"n_day": wt.retention_curve(table)["rate"], "unbounded": unbounded["rate"],
                       "calendar n_day (UTC)": calendar["rate"], "calendar n_day (New York)": new_york["rate"]})

# %% tags=["nbval-check-output"]
(curves * 100).round(1)

# %% tags=["nbval-check-output"]
brackets[["period", "cohorts", "size", "count", "rate"]].round(3)

# %% [markdown]
# ## New, back, or gone? Lifecycle
#
# PostHog's lifecycle, on the event that means engagement (`interaction_start`: the visitor turned
# the model, not just loaded the page): each day, the visitors new that day (*new*: as PostHog
# counts them, the day of the visitor's first event of any kind, which makes PostHog's person),
# active the day before too (*returning*), back after a gap or active for the first time after
# being seen before (*resurrecting*), and, below the axis, those active the day before and not
# today (*dormant*). The first event stands for the person's creation, so the whole history goes
# in; `definition="first_active"` counts a visitor new on its first day with the event instead.

# %%
life = wt.lifecycle(data, event="interaction_start", by="visitorId")

# %% tags=["nbval-check-output"]
life.assign(period=life["period"].dt.strftime("%a %d %b")).set_index("period")

# %% tags=["image-check"]
ax = wt.plot_lifecycle(life)
ax.set_title("Visitors interacting with the model, by lifecycle (dormant below the axis)")
plt.show()

# %% [markdown]
# ## How many days a week? Stickiness
#
# Of the visitors who interacted at least once in a week (Monday to Sunday), how many did so on 1,
# 2, ... 7 of its days. A week the data do not cover end to end is marked `complete=False` (its
# visitors had fewer days to come back in): the lake's seven days run from Sunday to Saturday, so
# here both weeks are partial, the second missing only its Sunday.

# %%
sticky = wt.stickiness(data, event="interaction_start", by="visitorId", period="1D", within="7D")

# %% tags=["nbval-check-output"]
shares = sticky.pivot(index="periods_active", columns="window", values="share").round(4)
shares.rename(columns=lambda w: f"week of {w:%d %b}")

# %% tags=["image-check"]
ax = wt.plot_stickiness(sticky)
ax.set_title("Days of the week with an interaction")
plt.show()

# %% [markdown]
# ## Where do visits drop out? Funnels with their options
#
# The same four steps counted three ways: **ordered** (the steps in order, other events between
# allowed), **strict** (nothing between the steps: here the `heartbeat`s and the experiment's
# exposure events are left out first, as they would be in a product's event filter) and **any
# order**. Events at the same millisecond are taken in either order (strict tries every way to
# split them), and an event sent twice (the same `id`) counts once. `median_s` and `p90_s` are the
# time from the step before. A breakdown by device counts each visit under the device of the
# event that filled its first step (`attribution="first_touch"`, PostHog's and Amplitude's; a
# visit whose `viewer_loaded` lacks one is `unknown`), or of its first event that has one at all
# (`"first_seen"`).

# %%
steps = ["viewer_loaded", "model_loaded", "hotspot_opened", "cta_clicked"]
noise = ["heartbeat", "custom.experiment"]
no_beats = visits[~visits["key"].isin(noise)]
orders = {order: wt.funnel(no_beats, steps, by="visit", order=order) for order in ("ordered", "strict", "any")}
excluded = wt.funnel(visits, steps, by="visit", exclude=["fullscreen_toggled"])
by_device = wt.funnel(visits, steps, by="visit", breakdown="device")
by_first_seen = wt.funnel(visits, steps, by="visit", breakdown="device", attribution="first_seen")

# %% tags=["nbval-check-output"]
side = pd.DataFrame({order: f["count"].to_numpy() for order, f in orders.items()}, index=steps)
side["ordered, excluding fullscreen"] = excluded["count"].to_numpy()
side

# %% tags=["nbval-check-output"]
orders["ordered"][["step", "conversion", "drop_off", "drop_off_rate", "median_s", "p90_s"]].round(3)

# %% tags=["nbval-check-output"]
pd.concat({rule: f.pivot(index="step", columns="device", values="conversion").loc[steps]
           for rule, f in (("first touch", by_device), ("first seen", by_first_seen))}, axis=1).round(3)

# %% tags=["image-check"]
fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharey=True)
for ax, (order, f) in zip(axes, orders.items()):
    wt.plot_funnel(f, ax=ax)
    ax.set_title(order)
fig.suptitle("One funnel, three orders (visits; heartbeats and exposures left out)")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## How long does each step take? Time to convert
#
# For the visits that reached each step: the mean, median and 90th and 99th percentiles of the
# seconds since the step before, and end to end for those that reached the last step. Long tails
# (a visitor who left the tab open) pull the mean far above the median.

# %%
times = wt.time_to_convert(no_beats, steps, by="visit")

# %% tags=["nbval-check-output"]
times.round(1)

# %% [markdown]
# ## What goes with converting? Funnel correlation
#
# PostHog's correlation analysis on the funnel `viewer_loaded → cta_clicked`: for each event a
# visit had between its start and its conversion (or the end of its hour), and each device and
# platform it was on, the odds of converting with it against without it (1 added to every cell of
# the table first, PostHog's prior), with a 95 % interval and the p-value of its test. Above 1
# goes with converting, below 1 with dropping off. It is a
# correlation: an experiment tells whether opening hotspots *causes* clicks. `viewer_closed` is
# left out with the heartbeats: a visit that converted stops being looked at when it converts, so
# its close never falls in its window and would read as a cause of dropping off.

# %%
correlated = wt.funnel_correlation(visits, ["viewer_loaded", "cta_clicked"], by="visit",
                                   properties=["device", "platform"], ignore=[*noise, "viewer_closed"])

# %% tags=["nbval-check-output"]
correlated.drop(columns=["correlation"]).round(4)

# %% tags=["image-check"]
ax = wt.plot_correlation(correlated, top=6)
ax.set_title("What goes with clicking the call to action (visits)")
plt.show()

# %% [markdown]
# ## What do visitors do next? Paths and transitions
#
# The most frequent sequences of five events from `viewer_loaded` (heartbeats and exposures left
# out, repeats collapsed), and the chance that each event is followed by each other one.

# %%
top = wt.paths(visits, start="viewer_loaded", steps=5, top=12, exclude=noise, collapse=True)
moves = wt.transitions(visits, exclude=noise, collapse=True)

# %% tags=["nbval-check-output"]
from IPython.display import display

with pd.option_context("display.max_colwidth", None, "display.width", 200):  # whole paths, on one line
    display(top[["rank", "path", "count", "share"]].round(3))

# %% tags=["nbval-check-output"]
matrix = moves.pivot(index="from", columns="to", values="probability").fillna(0)
busiest = ["viewer_loaded", "model_loaded", "interaction_start", "hotspot_opened", "cta_clicked"]
matrix.reindex(index=busiest, columns=busiest, fill_value=0).round(2)

# %% tags=["image-check"]
ax = wt.plot_paths(top, top=8)
ax.set_title("Top 8 paths from viewer_loaded (heartbeats and exposures left out, repeats collapsed)")
plt.show()

# %% [markdown]
# ## Which variant converts better? An experiment readout
#
# The synthetic viewers run an experiment, `cta_copy`: each visitor sees `control` or `treatment`
# (the `custom.experiment` event carries it), and a visitor converts when they click the call to
# action after seeing it. Wilson intervals for each rate, Newcombe's for the difference; the
# Bayesian readout gives the chance that treatment beats control. Every readout also checks the split (`srm_p_value`: the chi-square test of the visitors per
# variant against 50/50). `multiple` counts the visitors who saw both variants (kept under their
# first; `multiple_variants="exclude"`, PostHog's rule, leaves them out). Means, ratios, CUPED,
# the split's check on a broken split and intervals valid at every daily look: notebook 10.

# %%
wilson = wt.compare_variants(data, variant_field="variant", success_key="cta_clicked", by="visitorId")
bayes = wt.compare_variants(data, variant_field="variant", success_key="cta_clicked", by="visitorId",
                            interval="bayes")

# %% tags=["nbval-check-output"]
wilson.round(4)

# %% tags=["nbval-check-output"]
bayes[["variant", "rate", "rate_low", "rate_high", "chance_to_beat_baseline"]].round(4)

# %% tags=["nbval-check-output"]
t = wilson.set_index("variant").loc["treatment"]
verdict = "better" if t["difference_low"] > 0 else ("worse" if t["difference_high"] < 0 else "not shown different")
print(f"treatment is {verdict}: {t['difference'] * 100:+.1f} points "
      f"(95 % interval {t['difference_low'] * 100:+.1f} to {t['difference_high'] * 100:+.1f})")

# %% [markdown]
# ## Asking by hand: the explorer
#
# `wt.explore(lake)` puts every question above behind controls: pick the question, its steps or
# event, the period, the days, what to count (visitors or sessions) and a filter (the visitors
# with a mobile load, say), and the chart and the table beside it are drawn again; the code that
# gives the same answer is shown under them, to copy into a cell. The lake is read into memory
# once (it fits), and every answer is kept, so going back to a question is instant. In a live
# notebook the controls work; a notebook run without a browser (this one, when it is built) shows
# the chart of the settings it was left on.

# %% tags=["image-check"]
explorer = wt.explore(lake, question="lifecycle")
explorer

# %% [markdown]
# What a person does with the controls, done in code: a funnel of the visitors with a mobile load,
# broken down by referrer, and the code to copy.

# %% tags=["nbval-check-output"]
explorer.question.value = "funnel"
explorer.filter_field.value = "device"
explorer.filter_values.value = ("mobile",)
explorer.breakdown.value = "referrer"
print(explorer.code)

# %% tags=["image-check"]
explorer

# %% [markdown]
# ## The same on a bucket and a cluster
#
# `wt.read_events("s3://bucket/lake")` reads a lake in object storage through `s3fs` (credentials
# and endpoint from the usual AWS variables, or `storage_options=`), and `workbench export --out
# s3://bucket/lake` writes one; `WORKBENCH_DASK_SCHEDULER=tcp://HOST:8786` sends the work to a
# cluster. The tests run both against a real S3 API on loopback (moto's server) and real `dask
# scheduler` / `dask worker` processes.

# %% [markdown]
# ## Checks
#
# pandas gives the same answers as Dask on the same events.

# %%
frame = pd.read_parquet(lake).drop(columns=["date"])
pd.testing.assert_frame_equal(wt.retention(frame, start_key="viewer_loaded", by="visitorId", periods=6), table)
pd.testing.assert_frame_equal(wt.paths(wt.sessionize(frame), start="viewer_loaded", steps=5, top=12,
                                       exclude=noise, collapse=True), top)
pd.testing.assert_frame_equal(wt.compare_variants(frame, variant_field="variant", success_key="cta_clicked",
                                                  by="visitorId"), wilson)
pd.testing.assert_frame_equal(wt.lifecycle(frame, event="interaction_start", by="visitorId"), life)
assert (life["active"] == life["new"] + life["returning"] + life["resurrecting"]).all()
mobile = frame[frame["visitorId"].isin(set(frame.loc[frame["payload.device"] == "mobile", "visitorId"]))]
pd.testing.assert_frame_equal(explorer.table, wt.funnel(mobile, ["viewer_loaded", "hotspot_opened", "cta_clicked"],
                                                        by="visitorId", breakdown="referrer"))
assert (side.diff().iloc[1:] <= 0).all().all(), "a funnel never grows"
assert side["strict"].le(side["ordered"]).all() and side["ordered"].le(side["any"]).all()
close_embedded()
shutil.rmtree(folder)
print("product analytics checks passed")
