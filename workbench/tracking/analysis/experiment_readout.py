"""An experiment's readout table from its summed partial summaries: values, intervals, differences, CUPED, the split.

:func:`readout` is the last step of :func:`~.experiments.compare_variants` on pandas and on
Dask alike; the statistics themselves are :mod:`.experiment_stats`'.

>>> from .experiment_stats import moments
>>> cells = moments(np.array([0, 0, 1, 1]), np.zeros(4, int), np.array([[1., 1, 0, 0], [0, 1, 0, 0],
...                 [1., 1, 0, 0], [1, 1, 0, 0]])).assign(variant=["A", "B"], multiple=0, rows=0)
>>> opts = {"metric": "mean", "window": None, "interval": "fixed", "level": 0.95, "weights": None,
...         "planned": 10_000, "field": "variant"}
>>> readout(cells, opts, None)[["variant", "mean", "difference"]].values.tolist()
[['A', 0.5, nan], ['B', 1.0, 0.5]]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from .experiment_stats import (
    COLUMNS,
    SRM_ALPHA,
    estimates,
    merge,
    sample_ratio,
    satterthwaite,
    sequential_multiplier,
    sequential_p,
)

__all__ = ["readout", "DRAWS", "value_columns"]

DRAWS = 200_000
_VALUE = {"conversion": ("conversions", "rate"), "mean": ("total", "mean"), "ratio": ("numerator", "ratio")}


def value_columns(opts: dict) -> list[str]:
    """The readout's columns for the options ``opts`` (an empty readout has them too)."""
    count, value = _VALUE[opts["metric"]]
    last = "chance_to_beat_baseline" if opts["interval"] == "bayes" else "p_value"
    cols = ["variant", "units", count, *(["denominator"] if opts["metric"] == "ratio" else []), "multiple",
            value, f"{value}_low", f"{value}_high", "difference", "difference_low", "difference_high", last]
    if opts["window"] is not None:
        cols += ["units_with_covariate", "theta", "variance_reduction"]
    return cols + ["expected_share", "srm_p_value", "note"]


def readout(partial: pd.DataFrame, opts: dict[str, Any], baseline: str | None) -> pd.DataFrame:
    """The table of :func:`~.experiments.compare_variants` from the partial summaries of all units."""
    columns = value_columns(opts)
    ints = ["units", "multiple"] + (["conversions"] if opts["metric"] == "conversion" else [])
    types = {c: (np.int64 if c in ints else object if c in ("variant", "note") else float) for c in columns}
    n_rows = int(partial["rows"].sum())
    multiple = partial[partial["variant"].notna()].groupby("variant")["multiple"].sum()
    with np.errstate(over="ignore", invalid="ignore"):  # values too large to square: said once, below
        cells = merge(partial[partial["stratum"] >= 0][COLUMNS])
    weights = opts["weights"]
    variants = sorted(set(multiple.index.astype(str)) | set(weights or ()))
    if not len(multiple) and n_rows == 0:  # nothing to compare: an empty table
        return pd.DataFrame(columns=columns).astype(types)
    if not len(multiple):
        raise ValueError(f"compare_variants: variant_field: no unit has a value for {opts['field']!r}")
    missing = sorted(set(multiple.index.astype(str)) - set(weights or variants))
    if missing:
        raise ValueError(f"compare_variants: weights: variant {missing[0]!r} has no expected share; give every "
                         f"variant one ({', '.join(map(repr, variants))})")
    if baseline is None:
        baseline = "control" if "control" in variants else variants[0]
    if baseline not in variants:
        raise ValueError(f"compare_variants: baseline: {baseline!r} is not a variant; the variants are "
                         f"{', '.join(variants)}")
    code = {v: i for i, v in enumerate(variants)}
    cells["variant"] = cells["variant"].map(code)
    units = np.array([cells.loc[cells["variant"] == i, "n"].sum() for i in range(len(variants))], dtype=np.int64)
    shares = np.array([weights[v] for v in variants]) if weights else np.full(len(variants), 1 / len(variants))
    with np.errstate(over="ignore", invalid="ignore"):
        est = estimates(cells, opts["window"] is not None)
    _warn_overflow(opts, cells, est, units)
    b = code[baseline]
    with np.errstate(over="ignore", invalid="ignore"):
        rows = [_row(opts, i, v, b, cells, est, units, shares) for i, v in enumerate(variants)]
    out = pd.DataFrame(rows).reindex(columns=columns)
    out["multiple"] = multiple.reindex(variants, fill_value=0).to_numpy()
    out["expected_share"] = shares
    out["srm_p_value"] = srm = sample_ratio(units, shares)
    notes = [["baseline"] if v == baseline else [] for v in variants]
    if srm < SRM_ALPHA:
        warnings.warn(f"compare_variants: sample ratio mismatch: units {dict(zip(variants, units.tolist(), strict=True))} against "
                      f"expected shares {dict(zip(variants, shares.round(4).tolist(), strict=True))} (chi-square p = {srm:.2g} < "
                      f"{SRM_ALPHA}); the split is broken: do not trust the differences until it is explained",
                      UserWarning, stacklevel=4)
        notes = [n + ["sample ratio mismatch"] for n in notes]
    out["note"] = [", ".join(n) for n in notes]
    if opts["metric"] == "conversion" and opts["interval"] == "bayes":
        _bayes(out, b, opts["level"])
    return out.astype(types)


def _warn_overflow(opts: dict, cells: pd.DataFrame, est: dict, units: np.ndarray) -> None:
    """Say so when a variant's value is a number but its variance is not: per-unit values whose squares pass
    float64's largest number (about 1.8e308: values from about 1e154) leave the intervals and p-values NaN."""
    lost = [i for i, (value, var, _) in est["plain"].items() if units[i] > 1 and np.isfinite(value)
            and not np.isfinite(var)]
    if not lost:
        return
    parameter = {"mean": "value", "ratio": "numerator/denominator"}.get(opts["metric"], "success_key")
    with np.errstate(over="ignore", invalid="ignore"):
        size = float(np.nanmax(np.abs(cells[["m_Y", "m_N", "m_X", "m_M"]].to_numpy(dtype=float))))
    warnings.warn(f"compare_variants: {parameter}: per-unit values of about {size:.1e} are too large to square in "
                  "float64 (its largest number is about 1.8e+308), so the intervals and p-values are NaN; divide "
                  "the field by a power of ten first (e.g. 1e100) and read the figures in those units",
                  UserWarning, stacklevel=5)  # the caller's line: readout, compare_variants, the dispatcher


def _row(opts: dict[str, Any], i: int, variant: str, b: int, cells: pd.DataFrame, est: dict[str, Any], units: np.ndarray,
         shares: np.ndarray) -> dict[str, Any]:
    """One variant's figures (the baseline's difference is left out)."""
    metric, level, interval = opts["metric"], opts["level"], opts["interval"]
    count, name = _VALUE[metric]
    mine = cells[cells["variant"] == i]
    n = int(units[i])
    totals = (mine["n"] * mine["m_Y"]).sum(), (mine["n"] * mine["m_N"]).sum()
    row = {"variant": variant, "units": n, count: totals[0]}
    if metric == "ratio":
        row["denominator"] = totals[1]
    if metric == "conversion":
        row[count] = int(round(totals[0]))
    if not n:
        return row
    adjusted = est["cuped"] is not None
    value, var, parts = (est["cuped"] if adjusted else est["plain"])[i]
    row[name] = value
    alpha = 1 - level
    if metric == "conversion" and not adjusted and interval == "fixed":
        from statsmodels.stats.proportion import proportion_confint

        row[f"{name}_low"], row[f"{name}_high"] = proportion_confint(row[count], n, alpha=alpha, method="wilson")
    elif interval != "bayes":
        half = _half(var, parts, n, opts, shares[i], metric)
        row[f"{name}_low"], row[f"{name}_high"] = value - half, value + half
    if adjusted:
        row["units_with_covariate"] = float(mine.loc[mine["stratum"] == 1, "n"].sum())
        row["theta"] = est["theta"]
    if i == b or not units[b]:
        return row
    if metric == "conversion" and not adjusted and interval == "fixed":
        _score(row, n, units[b], cells, b, alpha)
        return row
    if interval == "bayes":
        return row
    base_value, base_var, base_parts = (est["cuped"] if adjusted else est["plain"])[b]
    diff, dvar = value - base_value, var + base_var
    row["difference"] = diff
    half = _half(dvar, parts + base_parts, n + units[b], opts, shares[i] + shares[b], metric)
    row["difference_low"], row["difference_high"] = diff - half, diff + half
    row["p_value"] = _p(diff, dvar, parts + base_parts, n + units[b], opts, shares[i] + shares[b], metric)
    if adjusted:
        plain = est["plain"][i][1] + est["plain"][b][1]
        row["variance_reduction"] = 1 - dvar / plain if plain > 0 else np.nan
    return row


def _t_or_z(parts: list[tuple[float, float]], metric: str) -> Any:   # a scipy distribution (scipy has no types), or None
    """Student's t with the Welch-Satterthwaite degrees of freedom for means and rates, the normal for ratios."""
    from scipy import stats

    if metric == "ratio":
        return stats.norm
    df = satterthwaite(parts)
    return stats.t(df) if np.isfinite(df) else None


def _half(var: float, parts: list[tuple[float, float]], n: int, opts: dict[str, Any], share: float, metric: str) -> float:
    """The interval's half-width: fixed, or the confidence sequence's at ``n`` units."""
    if not np.isfinite(var) or var < 0:
        return np.nan
    alpha = 1 - opts["level"]
    if opts["interval"] == "sequential":
        return float(np.sqrt(var) * sequential_multiplier(n, alpha, opts["planned"] * share))
    dist = _t_or_z(parts, metric)
    return float(np.sqrt(var) * dist.ppf(1 - alpha / 2)) if dist is not None else np.nan


def _p(diff: float, var: float, parts: list[tuple[float, float]], n: int, opts: dict[str, Any], share: float, metric: str) -> float:
    if not np.isfinite(var) or var <= 0:
        return np.nan
    z = diff / np.sqrt(var)
    if opts["interval"] == "sequential":
        return float(sequential_p(z, n, opts["planned"] * share, 1 - opts["level"]))
    dist = _t_or_z(parts, metric)
    return float(2 * dist.sf(abs(z))) if dist is not None else np.nan


def _score(row: dict[str, Any], n: int, nb: int, cells: pd.DataFrame, b: int, alpha: float) -> None:
    """A rate's difference against the baseline: Newcombe's interval and the score test (statsmodels)."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    mine = cells[cells["variant"] == b]
    x, xb = row["conversions"], int(round((mine["n"] * mine["m_Y"]).sum()))
    row["difference"] = x / n - xb / nb
    with warnings.catch_warnings():  # statsmodels divides by 0 on its way to a rate of 0 or 1, and says so
        warnings.simplefilter("ignore", RuntimeWarning)
        row["difference_low"], row["difference_high"] = confint_proportions_2indep(
            x, n, xb, nb, method="newcomb", compare="diff", alpha=alpha)
        row["p_value"] = test_proportions_2indep(x, n, xb, nb, method="score", compare="diff").pvalue


def _bayes(out: pd.DataFrame, b: int, level: float) -> None:
    """Beta(1, 1) posteriors: credible intervals (scipy) and the difference from draws with a fixed seed."""
    from scipy import stats

    alpha = 1 - level
    n, x = out["units"].to_numpy(np.int64), out["conversions"].to_numpy(np.int64)
    rng = np.random.default_rng(0)
    draws = [rng.beta(1 + xi, 1 + ni - xi, size=DRAWS) for ni, xi in zip(n, x, strict=True)]
    for i in range(len(out)):
        if not n[i]:
            continue
        out.loc[i, ["rate_low", "rate_high"]] = stats.beta.ppf([alpha / 2, 1 - alpha / 2], 1 + x[i], 1 + n[i] - x[i])
        if i != b and n[b]:
            diff = draws[i] - draws[b]
            out.loc[i, "difference"] = x[i] / n[i] - x[b] / n[b]
            out.loc[i, ["difference_low", "difference_high"]] = np.quantile(diff, [alpha / 2, 1 - alpha / 2])
            out.loc[i, "chance_to_beat_baseline"] = float((diff > 0).mean())
