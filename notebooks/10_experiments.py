# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 10 · Experiments an analyst can stop early and trust
#
# **What this shows:** the readouts of an A/B test the way Statsig, Eppo and Optimizely give them:
# a conversion, a mean per visitor and a ratio, each with its interval; **CUPED**, which uses each
# visitor's behaviour in the week before the experiment to narrow the intervals; the
# **sample-ratio check** every readout runs, caught here on a split that a crash on some phones
# broke; and **always-valid (sequential) intervals**, which may be read every day and the test
# stopped the day they exclude 0, where the usual interval, read daily, finds "significant"
# differences between identical variants far more often than its 5 %.
#
# **What it needs:** nothing but this machine: the notebook writes a synthetic lake to a temporary
# folder. Its experiment, `cta_copy`, starts on the lake's fourth day: visitors seen before then
# have a history, and each visitor has an *engagement* that shows both before and during the
# experiment. Treatment makes a click on the call to action 1.5 times as likely, and changes
# nothing else, so every other difference below is noise.
#
# **Where to edit:** `notebooks/10_experiments.py`, then `python tools/build_notebooks.py 10`.
# `workbench tour --param n_events=1000000` runs it on more events.

# %% tags=["parameters"]
n_events = 300_000  # synthetic events in the lake
seed = 10           # the same seed gives the same lake, and the same numbers below

# %%
# %matplotlib inline
import shutil
import tempfile
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from workbench import tracking as wt
from workbench.tracking.cluster import close_embedded
from workbench.tracking.lake import write_synth_lake

folder = Path(tempfile.mkdtemp(prefix="workbench-experiments-"))
start = "2026-11-04T00:00:00Z"
lake = write_synth_lake(folder / "events", n_events, seed=seed, chunk_events=100_000, experiment_start=start)
data = wt.read_events(lake)
readout = dict(variant_field="variant", by="visitorId")  # the exposure event's payload field; units are visitors
print(f"{n_events:,} events, {data.npartitions} partitions of whole visitors; the experiment from {start[:10]}")

# %% [markdown]
# ## A conversion
#
# A visitor's variant is the one on their first exposure event, and they convert when they click
# the call to action after it. Wilson's interval for each rate, Newcombe's for the difference,
# the score test's p-value. Every readout also tests the split: `srm_p_value` is the chi-square
# test of the visitors per variant against the 50/50 the experiment promised.

# %%
conversion = wt.compare_variants(data, success_key="cta_clicked", **readout)

# %% tags=["nbval-check-output"]
conversion.drop(columns=["note"]).round(4)

# %% [markdown]
# ## Means and ratios
#
# A metric per visitor: hotspots opened (a count of an event) and time in the viewer (a payload
# field summed: `viewer_closed`'s `durationMs`), with Welch's t interval; and a ratio across
# visitors, hotspots per viewer load, whose variance the delta method gives (a visitor's loads
# and hotspots move together, which a per-load t test would ignore).

# %%
metrics = {"hotspots per visitor": dict(metric="mean", value="hotspot_opened"),
           "seconds in the viewer per visitor": dict(metric="mean", value=("viewer_closed", "durationMs")),
           "hotspots per load": dict(metric="ratio", numerator="hotspot_opened", denominator="viewer_loaded")}
readouts = {name: wt.compare_variants(data, **kw, **readout) for name, kw in metrics.items()}

# %% tags=["nbval-check-output"]
rows = {}
for name, t in readouts.items():
    value = "ratio" if "ratio" in t.columns else "mean"
    scale = 1000 if "seconds" in name else 1  # durationMs: shown in seconds
    rows[name] = {"control": t[value][0] / scale, "treatment": t[value][1] / scale,
                  "difference": t["difference"][1] / scale, "low": t["difference_low"][1] / scale,
                  "high": t["difference_high"][1] / scale, "p_value": t["p_value"][1]}
pd.DataFrame(rows).T.round(3)

# %% [markdown]
# ## CUPED: the week before explains part of the noise
#
# `covariate=True` measures the same metric over the 7 days before each visitor's own exposure
# (Statsig's window) and subtracts the part of the experiment's value it predicts, with one
# `theta` for all variants. Visitors with no history (most of them: new visitors) form their own
# stratum and are left as they are, as Statsig does. `variance_reduction` says how much the
# difference's variance fell; the interval narrows by about half that.

# %%
cuped = wt.compare_variants(data, covariate=True, **metrics["hotspots per visitor"], **readout)
plain = readouts["hotspots per visitor"]

# %% tags=["nbval-check-output"]
cuped[["variant", "units", "units_with_covariate", "mean", "difference", "difference_low", "difference_high",
       "theta", "variance_reduction"]].round(4)

# %% tags=["image-check"]
ax = wt.plot_variants({"plain": plain, "CUPED": cuped})
ax.set_title("Hotspots per visitor, treatment - control (95 % intervals)")
plt.show()

# %% [markdown]
# ## The split, checked on every readout
#
# Suppose the treatment page crashed on phones before it could send its exposure event: those
# visitors never enter the experiment, treatment looks smaller, and its visitors are no longer
# like control's. The chi-square test of the split flags it (p < 0.001), the readout says so on
# every row and a warning names the counts: no difference means anything until it is explained.

# %%
frame = pd.read_parquet(lake).drop(columns=["date"])
exposed = frame["key"].eq("custom.experiment")
arm = frame["payload"].str.contains('"treatment"', regex=False).fillna(False).astype(bool)
phones = set(frame.loc[frame["payload.device"].eq("mobile"), "visitorId"].astype(str))
crashed = exposed & arm & frame["visitorId"].astype(str).isin(phones)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    broken = wt.compare_variants(frame[~crashed], success_key="cta_clicked", **readout)

# %% tags=["nbval-check-output"]
print(*[str(w.message) for w in caught if "sample ratio" in str(w.message)], sep="\n")
broken[["variant", "units", "expected_share", "srm_p_value", "note"]]

# %% [markdown]
# ## Looking every day: fixed against sequential intervals
#
# An analyst reads the readout each morning. The fixed interval is right for one look at a size
# fixed in advance; read daily, it crosses 0 by chance far more often than 5 % of the time
# (`bench/experiments.py` measures it on 2,000 simulated experiments: about a quarter of A/A tests
# look "significant" on some day within 14). The sequential interval is an always-valid confidence
# sequence (Waudby-Smith et al. 2024, the normal mixture of Howard et al. 2021, as Eppo uses): it
# is wider, holds at every look at once, and the test may be stopped the first day it excludes 0.
# `planned_units` tunes it to be tightest at the size the test is expected to reach.

# %%
days = pd.date_range(start, periods=4, freq="D", tz="UTC") + pd.Timedelta(days=1)
planned = int(conversion["units"].sum())
daily = []
for end in days:
    so_far = data[data["timestamp"] < end]
    for interval in ("fixed", "sequential"):
        t = wt.compare_variants(so_far, success_key="cta_clicked", interval=interval, planned_units=planned,
                                **readout).iloc[1]
        daily.append({"day": f"{end - pd.Timedelta(days=1):%d %b}", "interval": interval, "treatment units": int(t["units"]),
                      "difference": t["difference"], "low": t["difference_low"], "high": t["difference_high"],
                      "excludes 0": bool(t["difference_low"] > 0 or t["difference_high"] < 0)})
daily = pd.DataFrame(daily)

# %% tags=["nbval-check-output"]
daily.round(4)

# %% tags=["image-check"]
fig, ax = plt.subplots(figsize=(8, 3.8))
for shift, (interval, rows) in zip((-0.08, 0.08), daily.groupby("interval", sort=False)):
    x = range(len(rows))
    ax.errorbar([i + shift for i in x], rows["difference"] * 100,
                yerr=[(rows["difference"] - rows["low"]) * 100, (rows["high"] - rows["difference"]) * 100],
                fmt="o", capsize=4, label=interval)
ax.axhline(0, color="#c8553d", linestyle="--", linewidth=1)
ax.set_xticks(range(len(days)), daily["day"].unique())
ax.set_ylabel("conversion, treatment - control (points)")
ax.set_title("The readout each day of the experiment")
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Checks
#
# pandas gives the same readouts as Dask on the same events; the sequential interval contains the
# fixed one every day; the broken split is flagged and the whole one is not.

# %%
whole = frame
pd.testing.assert_frame_equal(wt.compare_variants(whole, covariate=True, **metrics["hotspots per visitor"], **readout),
                              cuped, check_exact=False, rtol=1e-9)
pd.testing.assert_frame_equal(wt.compare_variants(whole, success_key="cta_clicked", **readout), conversion,
                              check_exact=False, rtol=1e-9)
fixed, sequential = (daily[daily["interval"] == i].reset_index(drop=True) for i in ("fixed", "sequential"))
assert (sequential["low"] <= fixed["low"]).all() and (sequential["high"] >= fixed["high"]).all()
assert broken["srm_p_value"][0] < 0.001 < conversion["srm_p_value"][0]
assert 0 < cuped["variance_reduction"][1] < 1
close_embedded()
shutil.rmtree(folder)
print("experiment checks passed")
