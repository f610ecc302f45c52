"""Experiments: which variant converts better, and how sure can we be? Rates and differences with 95 % intervals.

A *unit* is a ``by`` value (a session, or a visitor). Its variant is the value of
``variant_field`` (a column or payload field, e.g. on a ``custom.experiment`` exposure
event) on its first event that has one, its *exposure* (events of one millisecond in
(time, id) order; a repeated ``id`` is one event); units without one are left out. It
converts (``metric="conversion"``) when it has a ``success_key`` event at or after its
exposure. A unit exposed to more than one variant is counted in ``multiple`` of its
first variant; ``multiple_variants="first"`` (the default) keeps it under its first
exposure, ``"exclude"`` (PostHog's default) leaves it out of units and conversions.

Intervals (level ``level``, 95 % by default):

- ``"wilson"``: Wilson's score interval for each rate, Newcombe's hybrid score interval for
  the difference against the baseline and the two-sided score test's p-value
  (statsmodels);
- ``"bayes"``: a uniform Beta(1, 1) prior, so each rate's posterior is
  Beta(1 + conversions, 1 + units - conversions); equal-tailed credible intervals (scipy),
  and the difference's interval and the probability that the variant beats the baseline
  from 200,000 posterior draws with a fixed seed (the same numbers every run).

A variant with ``units * rate < 5`` or ``units * (1 - rate) < 5`` has too few conversions
(or too few failures) for these approximations: its row says ``"not enough data"`` and
shows counts only; so does its difference, and every difference when the baseline has
too few.

>>> t = pd.to_datetime(["2026-11-01 10:00"] * 4, utc=True)
>>> df = pd.DataFrame({"sessionId": ["a", "a", "b", "b"], "key": ["custom.experiment", "cta_clicked"] * 2,
...                    "timestamp": t, "payload": [{"variant": "A"}, {}, {"variant": "B"}, {}]})
>>> compare_variants(df, variant_field="variant", success_key="cta_clicked")[["variant", "units", "note"]].to_dict("list")
{'variant': ['A', 'B'], 'units': [1, 1], 'note': ['baseline, not enough data', 'not enough data']}
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import NAT, check_columns, check_event_keys, codes, first_events, ms_floor, ns, payload_field, tie_order
from .dispatch import by_group, columns_of, compute, field_columns, pandas_or_dask

__all__ = ["compare_variants", "INTERVALS", "METRICS", "MIN_EXPECTED"]

INTERVALS = ("wilson", "bayes")
MULTIPLE = ("first", "exclude")
METRICS = ("conversion",)
MIN_EXPECTED = 5
DRAWS = 200_000
NOT_ENOUGH = "not enough data"


def _options(df, variant_field, metric, success_key, interval, level, key, multiple_variants):
    check_event_keys([success_key], "success_key", "compare_variants", df, column=key)
    if multiple_variants not in MULTIPLE:
        raise ValueError(f"compare_variants: multiple_variants: {multiple_variants!r} is not one of "
                         f"{', '.join(MULTIPLE)}")
    if metric not in METRICS:
        raise ValueError(f"compare_variants: metric: {metric!r} is not one of {', '.join(METRICS)}")
    if interval not in INTERVALS:
        raise ValueError(f"compare_variants: interval: {interval!r} is not one of {', '.join(INTERVALS)}")
    if not 0 < level < 1:
        raise ValueError(f"compare_variants: level: {level!r} must be between 0 and 1, e.g. 0.95")
    if not isinstance(variant_field, str) or not variant_field:
        raise ValueError("compare_variants: variant_field: name the column or payload field that holds the variant")


_COUNTS = {"variant": object, "units": np.int64, "conversions": np.int64, "multiple": np.int64, "rows": np.int64}


def _counts(frame: pd.DataFrame, variant_field, success_key, by, key, time, multiple_variants="first") -> pd.DataFrame:
    """Per frame (or partition of whole units): units, conversions and units that saw several variants, per
    variant; a row without a variant carries the frame's row count (an empty input is an empty table)."""
    rows = pd.DataFrame({"variant": [None], "units": 0, "conversions": 0, "multiple": 0, "rows": len(frame)})
    frame = first_events(frame, time=time, scope=by)
    g, _ = codes(frame[by])
    t = ms_floor(ns(frame[time], function="compare_variants"))
    k, names = codes(frame[key])
    if variant_field in frame.columns or f"payload.{variant_field}" in frame.columns or "payload" not in frame.columns:
        carriers = np.arange(len(frame))
    else:  # the field sits in payload dicts or JSON text: read only the rows that have a payload
        carriers = np.flatnonzero(frame["payload"].notna().to_numpy())
    sub = frame.iloc[carriers]
    values = payload_field(sub, variant_field)
    has = values.notna().to_numpy() & (g[carriers] >= 0) & (t[carriers] != NAT)
    rows_in_order = tie_order(g[carriers], t[carriers], np.flatnonzero(has), sub)
    seen = pd.DataFrame({"g": g[carriers][rows_in_order], "t": t[carriers][rows_in_order],
                         "v": values.astype(str).to_numpy(dtype=object)[rows_in_order]})
    several = seen.groupby("g")["v"].nunique() > 1
    exposure = seen.drop_duplicates("g")  # each unit's first in (time, id) order
    multiple = several.reindex(exposure["g"].to_numpy(), fill_value=False).to_numpy()
    success = (k == {n: i for i, n in enumerate(names)}.get(success_key, -2)) & (g >= 0) & (t != NAT)
    # a conversion at or after exposure: the latest success is enough to know
    latest = pd.Series(t[success]).groupby(g[success]).max() if success.any() else pd.Series(dtype=np.int64)
    converted = latest.reindex(exposure["g"].to_numpy(), fill_value=NAT).to_numpy(np.int64) >= exposure["t"].to_numpy()
    counted = ~multiple if multiple_variants == "exclude" else np.ones(len(multiple), dtype=bool)
    out = pd.DataFrame({"variant": exposure["v"].to_numpy(dtype=object), "units": counted.astype(np.int64),
                        "conversions": (converted & counted).astype(np.int64), "multiple": multiple.astype(np.int64)})
    out = out.groupby("variant", sort=False)[["units", "conversions", "multiple"]].sum().reset_index()
    return pd.concat([rows, out.assign(rows=0)], ignore_index=True).astype(_COUNTS)


def _enough(n: int, x: int) -> bool:
    return n > 0 and x >= MIN_EXPECTED and n - x >= MIN_EXPECTED  # n*p and n*(1-p) at least 5


def _readout(counts: pd.DataFrame, baseline, interval: str, level: float, variant_field: str) -> pd.DataFrame:
    from scipy import stats
    from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint, test_proportions_2indep

    n_rows = int(counts["rows"].sum())
    counts = counts[counts["variant"].notna()]
    counts = counts.groupby("variant", sort=True)[["units", "conversions", "multiple"]].sum().reset_index()
    variants = counts["variant"].tolist()
    last = "p_value" if interval == "wilson" else "chance_to_beat_baseline"
    columns = ["variant", "units", "conversions", "multiple", "rate", "rate_low", "rate_high", "difference",
               "difference_low", "difference_high", last, "note"]
    floats = columns[4:-1]
    types = {**{c: float for c in floats}, "units": np.int64, "conversions": np.int64, "multiple": np.int64}
    if not variants and n_rows == 0:  # nothing to compare: an empty table
        return pd.DataFrame(columns=columns).astype({**types, "variant": object, "note": object})
    if not variants:
        raise ValueError(f"compare_variants: variant_field: no unit has a value for {variant_field!r}")
    if baseline is None:
        baseline = "control" if "control" in variants else variants[0]
    if baseline not in variants:
        raise ValueError(f"compare_variants: baseline: {baseline!r} is not a variant; the variants are "
                         f"{', '.join(variants)}")
    alpha = 1 - level
    n_all, x_all = counts["units"].to_numpy(np.int64), counts["conversions"].to_numpy(np.int64)
    m_all = counts["multiple"].to_numpy(np.int64)
    b = variants.index(baseline)
    rng = np.random.default_rng(0)
    draws = [rng.beta(1 + x, 1 + n - x, size=DRAWS) for n, x in zip(n_all, x_all)] if interval == "bayes" else None
    rows = []
    for i, (v, n, x, several) in enumerate(zip(variants, n_all, x_all, m_all)):
        row = {"variant": v, "units": int(n), "conversions": int(x), "multiple": int(several)}
        notes = ["baseline"] if i == b else []
        if _enough(n, x):
            row["rate"] = x / n
            if interval == "wilson":
                row["rate_low"], row["rate_high"] = proportion_confint(x, n, alpha=alpha, method="wilson")
            else:
                row["rate_low"], row["rate_high"] = stats.beta.ppf([alpha / 2, 1 - alpha / 2], 1 + x, 1 + n - x)
        else:
            notes.append(NOT_ENOUGH)
        if i != b and _enough(n, x) and _enough(n_all[b], x_all[b]):
            row["difference"] = x / n - x_all[b] / n_all[b]
            if interval == "wilson":
                row["difference_low"], row["difference_high"] = confint_proportions_2indep(
                    x, n, x_all[b], n_all[b], method="newcomb", compare="diff", alpha=alpha)
                row["p_value"] = test_proportions_2indep(x, n, x_all[b], n_all[b], method="score",
                                                          compare="diff").pvalue
            else:
                diff = draws[i] - draws[b]
                row["difference_low"], row["difference_high"] = np.quantile(diff, [alpha / 2, 1 - alpha / 2])
                row["chance_to_beat_baseline"] = float((diff > 0).mean())
        row["note"] = ", ".join(notes)
        rows.append(row)
    out = pd.DataFrame(rows).reindex(columns=columns)
    return out.astype(types)


def _compare_variants_dask(ddf, *, variant_field: str, metric: str = "conversion", success_key: str,
                           baseline=None, interval: str = "wilson", level: float = 0.95, by: str = "sessionId",
                           multiple_variants: str = "first", key: str = "key", time: str = "timestamp",
                           client=None) -> pd.DataFrame:
    """:func:`compare_variants`: units and conversions per variant per partition of whole units, added up."""
    _options(ddf, variant_field, metric, success_key, interval, level, key, multiple_variants)
    check_columns(ddf, by, key, time)
    part = by_group(ddf[columns_of(ddf, by, key, time, *field_columns(ddf, variant_field))], by)
    meta = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in _COUNTS.items()})
    (counts,) = compute(part.map_partitions(_counts, variant_field, success_key, by, key, time, multiple_variants,
                                            meta=meta), client=client)
    return _readout(counts, baseline, interval, level, variant_field)


@pandas_or_dask(_compare_variants_dask)
def compare_variants(df: pd.DataFrame, *, variant_field: str, metric: str = "conversion", success_key: str,
                     baseline: str | None = None, interval: str = "wilson", level: float = 0.95, by: str = "sessionId",
                     multiple_variants: str = "first", key: str = "key", time: str = "timestamp",
                     client=None) -> pd.DataFrame:
    """Per variant: units, conversions, the conversion rate with its interval, and the difference against
    ``baseline`` (default ``"control"`` if there is one, else the first variant by name) with its interval.

    Input columns: ``by``, ``key``, ``time``, ``variant_field`` (column or payload). Output,
    one row per variant sorted by name: ``variant``, ``units``, ``conversions``, ``multiple``
    (units whose first exposure was this variant and that saw another too), ``rate``,
    ``rate_low``, ``rate_high``, ``difference`` (rate - baseline's rate), ``difference_low``,
    ``difference_high``, then ``p_value`` (wilson) or ``chance_to_beat_baseline`` (bayes),
    and ``note`` ("baseline", "not enough data"); a figure left out is NaN. An empty frame
    gives an empty table.

    >>> rows = [("A", i, i < 30) for i in range(200)] + [("B", i, i < 60) for i in range(200)]
    >>> df = pd.DataFrame({"sessionId": [f"{v}{i}" for v, i, _ in rows], "variant": [v for v, _, _ in rows],
    ...                    "key": ["cta_clicked" if ok else "heartbeat" for _, _, ok in rows],
    ...                    "timestamp": pd.Timestamp("2026-11-01", tz="UTC")})
    >>> out = compare_variants(df, variant_field="variant", success_key="cta_clicked")
    >>> out[["variant", "rate", "difference"]].round(3).to_dict("list")
    {'variant': ['A', 'B'], 'rate': [0.15, 0.3], 'difference': [nan, 0.15]}
    >>> bool(out.loc[1, "difference_low"] > 0)
    True
    """
    _options(df, variant_field, metric, success_key, interval, level, key, multiple_variants)
    check_columns(df, by, key, time)
    return _readout(_counts(df, variant_field, success_key, by, key, time, multiple_variants), baseline, interval,
                    level, variant_field)
