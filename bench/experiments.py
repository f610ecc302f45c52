"""Benchmark: do compare_variants' intervals keep their promises when an analyst looks every day? And CUPED's gain.

Usage: python bench/experiments.py [--experiments 2000] [--days 14] [--per-day 400] [--lift 0.15] [--seed 38]
                                   [--cuped-events 1000000]

1. **Peeking.** ``--experiments`` A/A experiments (both arms the same) run ``--days`` days; each day
   ``--per-day`` new units join each arm, and the analyst reads the readout every day and stops the
   first day its 95 % interval for the difference excludes 0. Two metrics: a conversion (10 %) and a
   mean per unit (a lognormal dwell time, mean 60 s, long-tailed). For each, the share of A/A
   experiments ever called significant, with the fixed-horizon interval (Newcombe's for the rate,
   Welch's for the mean: valid for one look at a size fixed in advance) and with the sequential one
   (the asymptotic confidence sequence, tuned to the final size), and the fixed interval read once, on
   the last day, as it is meant to be. Then the same with a true relative lift of ``--lift``: the
   power of each, and on which day the sequential readout found it.

   The intervals are computed from each day's running sums with the functions the readout uses
   (``experiment_stats``, statsmodels' Newcombe interval, scipy's t); for a sample of (experiment,
   day) pairs the events are built and ``compare_variants`` itself is asked, and must give the same
   intervals.
2. **CUPED** on the synthetic lake whose experiment starts on its fourth day (visitors' engagement
   carries over): the variance each metric's difference loses with a 7-day covariate, and how
   many units had history to adjust by.

Prints its figures; they go in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workbench.tracking import analysis as A  # noqa: E402
from workbench.tracking.analysis.experiment_stats import sequential_multiplier  # noqa: E402

ALPHA = 0.05
RATE = 0.10
DWELL_MEAN, DWELL_SIGMA = 60.0, 1.0


def _units(rng, arms: int, days: int, per_day: int, lift: float, metric: str) -> np.ndarray:
    """Per (experiment, arm, day, unit) values: 0/1 conversions or dwell seconds; arm 1 carries ``lift``."""
    shape = (arms, 2, days, per_day)
    if metric == "conversion":
        p = np.array([RATE, RATE * (1 + lift)])[None, :, None, None]
        return (rng.random(shape) < p).astype(float)
    mu = np.log(DWELL_MEAN) - DWELL_SIGMA ** 2 / 2
    return rng.lognormal(mu, DWELL_SIGMA, shape) * np.array([1.0, 1 + lift])[None, :, None, None]


def _looks(values: np.ndarray, metric: str, planned: int):
    """Per (experiment, day): whether the fixed and the sequential interval exclude 0, and the intervals."""
    from scipy import stats
    from statsmodels.stats.proportion import confint_proportions_2indep

    per_day = values.shape[-1]
    n = (np.arange(values.shape[2]) + 1) * per_day  # units per arm so far
    s1 = np.cumsum(values.sum(axis=-1), axis=2)
    s2 = np.cumsum((values ** 2).sum(axis=-1), axis=2)
    mean = s1 / n
    var = (s2 - n * mean ** 2) / (n - 1)  # per arm, with n - 1
    se2 = var / n
    diff = mean[:, 1] - mean[:, 0]
    se = np.sqrt(se2[:, 0] + se2[:, 1])
    if metric == "conversion":
        lo, hi = confint_proportions_2indep(s1[:, 1].round(), np.broadcast_to(n, diff.shape), s1[:, 0].round(),
                                            np.broadcast_to(n, diff.shape), method="newcomb", compare="diff",
                                            alpha=ALPHA)
    else:
        dof = (se2[:, 0] + se2[:, 1]) ** 2 / (se2[:, 0] ** 2 / (n - 1) + se2[:, 1] ** 2 / (n - 1))
        half = stats.t.ppf(1 - ALPHA / 2, dof) * se
        lo, hi = diff - half, diff + half
    seq = se * sequential_multiplier(2 * n, ALPHA, planned)[None, :]
    fixed = (lo > 0) | (hi < 0)
    sequential = (diff - seq > 0) | (diff + seq < 0)
    return fixed, sequential, (lo, hi), (diff - seq, diff + seq)


def _check_against_the_readout(values, metric, planned, fixed_ci, seq_ci, rng, samples: int) -> int:
    """compare_variants on the events of a few (experiment, day) pairs gives the simulation's intervals."""
    experiments, _, days, per_day = values.shape
    t0 = pd.Timestamp("2026-11-01", tz="UTC")
    for _ in range(samples):
        e, d = int(rng.integers(experiments)), int(rng.integers(days))
        rows = []
        for arm, name in enumerate(("control", "treatment")):
            for day in range(d + 1):
                for i, v in enumerate(values[e, arm, day]):
                    unit, at = f"{name}-{day}-{i}", t0 + pd.Timedelta(days=day, seconds=i)
                    rows.append((unit, "custom.experiment", at, {"variant": name}))
                    if metric == "conversion" and v:
                        rows.append((unit, "cta_clicked", at + pd.Timedelta(seconds=1), {}))
                    elif metric == "mean":
                        rows.append((unit, "viewer_closed", at + pd.Timedelta(seconds=1), {"durationMs": v}))
        df = pd.DataFrame(rows, columns=["sessionId", "key", "timestamp", "payload"])
        kw = ({"success_key": "cta_clicked"} if metric == "conversion"
              else {"metric": "mean", "value": ("viewer_closed", "durationMs")})
        fixed = A.compare_variants(df, variant_field="variant", **kw).iloc[1]
        seq = A.compare_variants(df, variant_field="variant", interval="sequential", planned_units=planned, **kw).iloc[1]
        for got, want in (((fixed["difference_low"], fixed["difference_high"]), (fixed_ci[0][e, d], fixed_ci[1][e, d])),
                          ((seq["difference_low"], seq["difference_high"]), (seq_ci[0][e, d], seq_ci[1][e, d]))):
            if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
                raise SystemExit(f"the readout and the simulation disagree on experiment {e}, day {d}: {got} {want}")
    return samples


def _share(hits: np.ndarray) -> str:
    from statsmodels.stats.proportion import proportion_confint

    k, n = int(hits.sum()), len(hits)
    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    return f"{100 * k / n:5.1f} % ({100 * lo:.1f} to {100 * hi:.1f})"


def peeking(args) -> None:
    rng = np.random.default_rng(args.seed)
    planned = 2 * args.days * args.per_day
    print(f"{args.experiments} experiments x {args.days} daily looks, {args.per_day} units per arm per day "
          f"({planned} units at the end; the sequence tuned to them), alpha {ALPHA}")
    for metric in ("conversion", "mean"):
        for lift in (0.0, args.lift):
            values = _units(rng, args.experiments, args.days, args.per_day, lift, metric)
            fixed, seq, fixed_ci, seq_ci = _looks(values, metric, planned)
            checked = _check_against_the_readout(values, metric, planned, fixed_ci, seq_ci, rng, args.samples)
            what = "A/A, false positives" if lift == 0 else f"A/B (+{lift:.0%}), power"
            first = np.argmax(seq, axis=1) + 1
            print(f"  {metric:10s} {what:24s} fixed, read daily {_share(fixed.any(axis=1))}   "
                  f"fixed, read on day {args.days} {_share(fixed[:, -1])}   sequential, read daily "
                  f"{_share(seq.any(axis=1))}" + (f"   (found on day {int(np.median(first[seq.any(axis=1)]))} "
                                                  "at the median)" if lift else "")
                  + f"   [{checked} readouts checked against compare_variants]", flush=True)


def cuped(args) -> None:
    from workbench.tracking.lake import read_events, write_synth_lake

    folder = Path(tempfile.mkdtemp(prefix="bench-cuped-"))
    t = time.perf_counter()
    lake = write_synth_lake(folder / "lake", args.cuped_events, seed=args.seed, experiment_start="2026-11-04T00:00:00Z")
    print(f"\nCUPED: {args.cuped_events:,} synthetic events, the experiment from 2026-11-04 (lake written in "
          f"{time.perf_counter() - t:.1f} s), by visitor, 7 days before each exposure")
    metrics = {"hotspots per visitor": {"metric": "mean", "value": "hotspot_opened"},
               "interactions per visitor": {"metric": "mean", "value": "interaction_start"},
               "dwell per visitor": {"metric": "mean", "value": ("viewer_closed", "durationMs")},
               "hotspots per load": {"metric": "ratio", "numerator": "hotspot_opened", "denominator": "viewer_loaded"},
               "conversion (cta_clicked)": {"success_key": "cta_clicked"}}
    for name, kw in metrics.items():
        plain = A.compare_variants(read_events(lake), variant_field="variant", by="visitorId", **kw).iloc[1]
        adj = A.compare_variants(read_events(lake), variant_field="variant", by="visitorId", covariate=True, **kw)
        units, history = adj["units"].sum(), adj["units_with_covariate"].sum()
        adj = adj.iloc[1]
        width = (adj["difference_high"] - adj["difference_low"]) / (plain["difference_high"] - plain["difference_low"])
        print(f"  {name:26s} variance {adj['variance_reduction']:6.1%} lower, interval {1 - width:6.1%} narrower; "
              f"{history / units:.0%} of {units:,} visitors had history; theta {adj['theta']:.3f}; difference "
              f"{plain['difference']:.4g} -> {adj['difference']:.4g} (p {plain['p_value']:.3g} -> {adj['p_value']:.3g})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiments", type=int, default=2000)
    ap.add_argument("--days", type=int, default=14)
    ap.add_argument("--per-day", type=int, default=400)
    ap.add_argument("--lift", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--samples", type=int, default=6, help="readouts per case checked against compare_variants")
    ap.add_argument("--cuped-events", type=int, default=1_000_000)
    args = ap.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), f"{os.cpu_count()} cores; load {os.getloadavg()}")
    t = time.perf_counter()
    peeking(args)
    print(f"  ({time.perf_counter() - t:.0f} s)")
    if args.cuped_events:
        cuped(args)


if __name__ == "__main__":
    main()
