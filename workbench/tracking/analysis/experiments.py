"""Experiments: which variant does better on a conversion, a mean or a ratio, and how sure can we be, even looking daily?

A *unit* is a ``by`` value (a session, or a visitor). Its variant is the value of
``variant_field`` (a column or payload field, e.g. on a ``custom.experiment`` exposure
event) on its first event that has one, its *exposure* (events of one millisecond in
(time, id) order; a repeated ``id`` is one event); units without one are left out. A unit
exposed to more than one variant is counted in ``multiple`` of its first variant;
``multiple_variants="first"`` (the default) keeps it under its first exposure,
``"exclude"`` (PostHog's default) leaves it out of every figure but ``multiple``.

The metric (``metric=``), over each unit's events at or after its exposure:

- ``"conversion"``: the share of units with a ``success_key`` event;
- ``"mean"``: the mean per unit of ``value``: an event key (how many of those events the
  unit had: models rotated is ``"interaction_start"``) or ``(key, field)`` (the sum of a
  payload field over those events: dwell is ``("viewer_closed", "durationMs")``); a unit
  without any counts 0;
- ``"ratio"``: ``numerator`` summed over all units / ``denominator`` summed over all units
  (each given as ``value`` is): hotspots per session, load time per load.

Intervals (level ``level``, 95 % by default; the statistics are
:mod:`.experiment_stats`'):

- ``"fixed"`` (the default), for one look at a size fixed in advance: Wilson's score interval
  for a rate, Newcombe's hybrid score interval for its difference and the score test's
  p-value (statsmodels); Welch's t interval and test for a mean (scipy's
  ``ttest_ind(equal_var=False)``); the delta method and the normal for a ratio;
- ``"sequential"``: an always-valid confidence sequence (the asymptotic confidence sequence
  of Waudby-Smith et al. 2024 on Howard et al.'s 2021 normal-mixture boundary, as Eppo's
  sequential analysis), tightest at ``planned_units`` units: it may be read every day and the
  experiment stopped the day it excludes 0, and still be wrong at most 1 - ``level`` of the
  time; its p-value is the smallest level whose sequence excludes 0 today;
- ``"bayes"`` (conversion only): a uniform Beta(1, 1) prior, equal-tailed credible intervals
  (scipy), and the difference's interval and the chance to beat the baseline from 200,000
  posterior draws with a fixed seed.

Every rate is shown with its interval, however few the conversions (Wilson's interval holds
at 0 and at 1).

**CUPED** (``covariate=``, Deng et al. 2013): the same metric over a window before each
unit's own exposure (``True``: the 7 days before it, Statsig's window; a duration ``"14D"``:
that long before it; ``("-14D", "-7D")``: from and to, relative to the exposure, ending at
or before it) explains part of the noise. Units with an event in their window form one
stratum, adjusted with ``theta`` pooled over the variants; units without (new visitors)
another, unadjusted; the strata are weighted by their share, as Statsig's stratification
does. The readout adds ``units_with_covariate``, ``theta`` and ``variance_reduction``
(1 - the adjusted difference's variance / the plain one's). A conversion with a covariate
is read as the mean of 0s and 1s (t interval).

**Sample-ratio check** on every readout: a chi-square test of the units per variant
against the expected split (equal, or ``weights={"control": 0.8, "treatment": 0.2}``,
summing to 1): ``expected_share``, ``srm_p_value``, and when p < 0.001 the note "sample
ratio mismatch" on every row and a UserWarning (Statsig's and Optimizely's check).

>>> t = pd.to_datetime(["2026-11-01 10:00"] * 4, utc=True)
>>> df = pd.DataFrame({"sessionId": ["a", "a", "b", "b"], "key": ["custom.experiment", "cta_clicked"] * 2,
...                    "timestamp": t, "payload": [{"variant": "A"}, {}, {"variant": "B"}, {}]})
>>> compare_variants(df, variant_field="variant", success_key="cta_clicked")[["variant", "units", "rate"]].to_dict("list")
{'variant': ['A', 'B'], 'units': [1, 1], 'rate': [1.0, 1.0]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..catalog import CATALOG
from .common import as_text, check_columns, check_event_keys, codes, first_events, payload_field, tie_order
from .dispatch import columns_of, field_columns, pandas_or_dask, partials
from .experiment_readout import readout
from .experiment_stats import COLUMNS, moments
from .times import NAT, ms_floor, ns

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["compare_variants", "INTERVALS", "METRICS"]

INTERVALS = ("fixed", "sequential", "bayes")
MULTIPLE = ("first", "exclude")
METRICS = ("conversion", "mean", "ratio")
COVARIATE_WINDOW = "7D"
_PARTIAL = {**{c: (object if c == "variant" else np.int64 if c in ("stratum", "n") else np.float64) for c in COLUMNS},
            "multiple": np.int64, "rows": np.int64}


def _spec(value: Any, parameter: str, df: pd.DataFrame | dd.DataFrame, key: str) -> tuple[str, str | None] | None:
    """A metric's value as (event key, payload field or None for a count), checked."""
    if value is None:
        return None
    if isinstance(value, str):
        spec = (value, None)
    elif isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) for v in value):
        spec = (value[0], value[1])
    else:
        raise ValueError(f"compare_variants: {parameter}: {value!r} is neither an event key (a count per unit, "
                         "e.g. 'interaction_start') nor (key, payload field) (a sum, e.g. ('viewer_closed', "
                         "'durationMs'))")
    check_event_keys([spec[0]], parameter, "compare_variants", df, column=key, strict=True)
    catalog = CATALOG.get(spec[0])
    if spec[1] is not None and catalog is not None and not catalog.free_form and spec[1] not in catalog.fields_by_name:
        raise ValueError(f"compare_variants: {parameter}: {spec[0]} has no payload field {spec[1]!r}; its fields "
                         f"are {', '.join(f.name for f in catalog.fields) or 'none'}")
    return spec


def _offset(value: Any, parameter: str) -> int:
    if isinstance(value, (bool, int, float, np.integer, np.floating)):
        raise ValueError(f"compare_variants: {parameter}: {value!r} is a bare number; give a duration such as "
                         "'7D' or ('-14D', '-7D')")
    try:
        out = pd.Timedelta(value)
    except (ValueError, TypeError):
        raise ValueError(f"compare_variants: {parameter}: {value!r} is not a duration such as '7D'") from None
    if out is pd.NaT:
        raise ValueError(f"compare_variants: {parameter}: {value!r} is not a duration such as '7D'")
    return int(out.value)


def _window(covariate: Any) -> tuple[int, int] | None:
    """The covariate's window as (from, to) ns relative to each unit's exposure, checked."""
    if covariate is None or covariate is False:
        return None
    if covariate is True:
        covariate = COVARIATE_WINDOW
    if isinstance(covariate, (tuple, list)):
        if len(covariate) != 2:
            raise ValueError("compare_variants: covariate: give (from, to) relative to exposure, e.g. ('-14D', '-7D')")
        lo, hi = (_offset(v, "covariate") for v in covariate)
    else:
        span = _offset(covariate, "covariate")
        if span <= 0:
            raise ValueError(f"compare_variants: covariate: {covariate!r} must be a positive duration, the window's "
                             "length before exposure, e.g. '7D'")
        lo, hi = -span, 0
    if hi > 0:
        raise ValueError(f"compare_variants: covariate: the window ends {pd.Timedelta(hi)} after exposure; a "
                         "covariate is measured before it (to at most '0D')")
    if lo >= hi:
        raise ValueError(f"compare_variants: covariate: the window's start {pd.Timedelta(lo)} is not before its end "
                         f"{pd.Timedelta(hi)}")
    return lo, hi


def _weights(weights: Any) -> dict[str, float] | None:
    if weights is None:
        return None
    if not isinstance(weights, dict) or not weights:
        raise ValueError("compare_variants: weights: give each variant's expected share, e.g. "
                         "{'control': 0.5, 'treatment': 0.5}")
    bad = [k for k, v in weights.items() if isinstance(v, bool) or not isinstance(v, (int, float, np.integer,
                                                                                       np.floating)) or not v > 0]
    if bad:
        raise ValueError(f"compare_variants: weights: {bad[0]!r}'s share {weights[bad[0]]!r} must be a number above 0")
    total = float(sum(weights.values()))
    if abs(total - 1) > 1e-6:
        raise ValueError(f"compare_variants: weights: the shares sum to {total:g}, not 1")
    return {str(k): float(v) for k, v in weights.items()}


def _options(df: pd.DataFrame | dd.DataFrame, variant_field: str, metric: str, success_key: str | None, value: Any,
             numerator: Any, denominator: Any, interval: str, level: float, key: str, multiple_variants: str,
             covariate: Any, weights: Any, planned_units: int) -> dict[str, Any]:
    """Every option checked (the same for pandas and Dask), as the dict the partial summaries and readout take."""
    if metric not in METRICS:
        raise ValueError(f"compare_variants: metric: {metric!r} is not one of {', '.join(METRICS)}")
    if interval == "wilson":
        raise ValueError("compare_variants: interval: 'wilson' is now 'fixed' (Wilson's interval for a conversion)")
    if interval not in INTERVALS:
        raise ValueError(f"compare_variants: interval: {interval!r} is not one of {', '.join(INTERVALS)}")
    window = _window(covariate)
    if interval == "bayes" and (metric != "conversion" or window is not None):
        raise ValueError("compare_variants: interval: 'bayes' reads a conversion without a covariate; use 'fixed' "
                         "or 'sequential'")
    if multiple_variants not in MULTIPLE:
        raise ValueError(f"compare_variants: multiple_variants: {multiple_variants!r} is not one of "
                         f"{', '.join(MULTIPLE)}")
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"compare_variants: level: {level!r} must be between 0 and 1, e.g. 0.95")
    if not isinstance(variant_field, str) or not variant_field:
        raise ValueError("compare_variants: variant_field: name the column or payload field that holds the variant")
    if isinstance(planned_units, bool) or not isinstance(planned_units, (int, np.integer)) or planned_units < 1:
        raise ValueError(f"compare_variants: planned_units: {planned_units!r} must be a whole number >= 1")
    needed = {"conversion": ("success_key",), "mean": ("value",), "ratio": ("numerator", "denominator")}[metric]
    given = {"success_key": success_key, "value": value, "numerator": numerator, "denominator": denominator}
    for name, v in given.items():
        if (v is None) == (name in needed):
            rule = f"metric={metric!r} needs it" if name in needed else f"metric={metric!r} does not use it"
            raise ValueError(f"compare_variants: {name}: {rule} (conversion: success_key; mean: value; ratio: "
                             "numerator and denominator)")
    if metric == "conversion" and success_key is not None:   # (never None here: refused just above)
        check_event_keys([success_key], "success_key", "compare_variants", df, column=key)
    specs = {"conversion": ((success_key, None), None), "mean": (_spec(value, "value", df, key), None),
             "ratio": (_spec(numerator, "numerator", df, key), _spec(denominator, "denominator", df, key))}[metric]
    return {"metric": metric, "top": specs[0], "bottom": specs[1], "window": window, "interval": interval,
            "level": float(level), "multiple": multiple_variants, "weights": _weights(weights),
            "planned": int(planned_units), "field": variant_field}


def _sums(frame: pd.DataFrame, k: np.ndarray, g: np.ndarray, n_units: int, code_of: dict[str, int],
          spec: tuple[str, str | None], mask: np.ndarray) -> np.ndarray:
    """Per unit code: the events of ``spec``'s key under ``mask``, counted, or its field summed (missing: 0)."""
    rows = np.flatnonzero(mask & (k == code_of.get(spec[0], -2)))
    if spec[1] is None:
        return np.bincount(g[rows], minlength=n_units).astype(np.float64)
    held = frame[[c for c in dict.fromkeys((spec[1], f"payload.{spec[1]}", "payload")) if c in frame.columns]]
    values = pd.to_numeric(payload_field(held.iloc[rows], spec[1]), errors="coerce").to_numpy(dtype=np.float64)
    return np.bincount(g[rows], weights=np.nan_to_num(values), minlength=n_units)


def _partial(frame: pd.DataFrame, opts: dict[str, Any], by: str, key: str, time: str) -> pd.DataFrame:
    """Per frame (or partition of whole units): the moments of each (variant, stratum) cell, the units that saw
    several variants (rows of stratum -1) and the frame's row count (a row without a variant)."""
    rows = pd.DataFrame({"variant": [None], "stratum": -1, "n": 0, "multiple": 0, "rows": len(frame)})
    frame = first_events(frame, time=time, scope=by)
    g, _ = codes(frame[by])
    t = ms_floor(ns(frame[time], function="compare_variants"))
    k, names = codes(frame[key])
    field = opts["field"]
    if field in frame.columns or f"payload.{field}" in frame.columns or "payload" not in frame.columns:
        carriers = np.arange(len(frame))
    else:  # the field sits in payload dicts or JSON text: read only the rows that have a payload
        carriers = np.flatnonzero(frame["payload"].notna().to_numpy())
    # only the columns the variant and the ties are read from (a wide frame's other columns cost a copy each)
    sub = frame[[c for c in dict.fromkeys((field, f"payload.{field}", "payload", "id")) if c in frame.columns]]
    sub = sub.iloc[carriers]
    values = payload_field(sub, field)
    has = values.notna().to_numpy() & (g[carriers] >= 0) & (t[carriers] != NAT)
    in_order = tie_order(g[carriers], t[carriers], np.flatnonzero(has), sub)
    named = values.to_numpy(dtype=object)[in_order]
    seen = pd.DataFrame({"g": g[carriers][in_order], "t": t[carriers][in_order],
                         "v": as_text(named)})
    several = seen.groupby("g")["v"].nunique() > 1
    exposure = seen.drop_duplicates("g")  # each unit's first in (time, id) order
    unit = exposure["g"].to_numpy(dtype=np.int64)
    multiple = several.reindex(unit, fill_value=False).to_numpy()
    variant_names, variant = np.unique(exposure["v"].to_numpy(dtype=object).astype(str), return_inverse=True)
    n_units = int(g.max(initial=-1)) + 1
    at = np.full(n_units + 1, NAT, dtype=np.int64)  # each event's unit's exposure (the spare last: no unit)
    at[unit] = exposure["t"].to_numpy(dtype=np.int64)
    te = at[g]
    valid = (g >= 0) & (t != NAT) & (te != NAT)
    code_of = {n: i for i, n in enumerate(names)}
    during = valid & (t >= te)
    columns = np.zeros((n_units, 4))
    columns[:, 0] = _sums(frame, k, g, n_units, code_of, opts["top"], during)
    columns[:, 1] = 1.0 if opts["bottom"] is None else _sums(frame, k, g, n_units, code_of, opts["bottom"], during)
    stratum = np.zeros(n_units, dtype=np.int64)
    if opts["window"] is not None:
        lo, hi = opts["window"]
        before = valid & (t >= te + lo) & (t < te + hi)
        columns[:, 2] = _sums(frame, k, g, n_units, code_of, opts["top"], before)
        columns[:, 3] = 1.0 if opts["bottom"] is None else _sums(frame, k, g, n_units, code_of, opts["bottom"], before)
        stratum = (np.bincount(g[before], minlength=n_units) > 0).astype(np.int64)
    if opts["metric"] == "conversion":  # converted or not; in the window, converted before or not
        columns[:, 0] = columns[:, 0] > 0
        columns[:, 2] = columns[:, 2] > 0
    counted = ~multiple if opts["multiple"] == "exclude" else np.ones(len(unit), dtype=bool)
    with np.errstate(over="ignore", invalid="ignore"):  # values too large to square: the readout says so
        cells = moments(variant[counted], stratum[unit][counted], columns[unit][counted])
    cells["variant"] = variant_names[cells["variant"].to_numpy()] if len(cells) else []
    extra = pd.DataFrame({"variant": variant_names, "stratum": -1, "n": 0,
                          "multiple": np.bincount(variant[multiple], minlength=len(variant_names))})
    out = pd.concat([rows, extra, cells.assign(multiple=0)], ignore_index=True)
    return out.assign(rows=out["rows"].fillna(0)).reindex(columns=list(_PARTIAL)).fillna(
        {c: 0 for c in _PARTIAL if c != "variant"}).astype(_PARTIAL)


def _compare_variants_dask(ddf: dd.DataFrame, *, variant_field: str, metric: str = "conversion",
                           success_key: str | None = None, value: str | tuple[str, str] | None = None, numerator: str | tuple[str, str] | None = None,
                           denominator: str | tuple[str, str] | None = None, baseline: str | None = None, interval: str = "fixed",
                           level: float = 0.95, covariate: bool | str | pd.Timedelta | tuple[str | pd.Timedelta, str | pd.Timedelta] | None = None,
                           weights: dict[str, float] | None = None, planned_units: int = 10_000,
                           by: str = "sessionId", multiple_variants: str = "first", key: str = "key",
                           time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`compare_variants`: the cells' moments per partition of whole units, merged."""
    opts = _options(ddf, variant_field, metric, success_key, value, numerator, denominator, interval, level, key,
                    multiple_variants, covariate, weights, planned_units)
    check_columns(ddf, by, key, time)
    fields = [s[1] for s in (opts["top"], opts["bottom"]) if s is not None and s[1] is not None]
    meta = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in _PARTIAL.items()})
    partial = partials(ddf, _partial, opts, by, key, time, by=by, meta=meta, client=client, time=time,
                       columns=columns_of(ddf, by, key, time, *field_columns(ddf, variant_field, *fields)))
    return readout(partial, opts, baseline)


@pandas_or_dask(_compare_variants_dask)
def compare_variants(df: pd.DataFrame, *, variant_field: str, metric: str = "conversion",
                     success_key: str | None = None, value: str | tuple[str, str] | None = None, numerator: str | tuple[str, str] | None = None,
                     denominator: str | tuple[str, str] | None = None, baseline: str | None = None, interval: str = "fixed",
                     level: float = 0.95, covariate: bool | str | pd.Timedelta | tuple[str | pd.Timedelta, str | pd.Timedelta] | None = None,
                     weights: dict[str, float] | None = None, planned_units: int = 10_000, by: str = "sessionId",
                     multiple_variants: str = "first", key: str = "key", time: str = "timestamp",
                     client: Scheduler | None = None) -> pd.DataFrame:
    """Per variant: units, the metric with its interval, and the difference against ``baseline`` (default
    ``"control"`` if there is one, else the first variant by name) with its interval and p-value; definitions in
    the module text above.

    Input columns: ``by``, ``key``, ``time``, ``variant_field`` (column or payload) and the
    metric's fields. Output, one row per variant sorted by name (and per variant of
    ``weights`` the data lack, with 0 units): ``variant``, ``units``, then ``conversions``
    (conversion), ``total`` (mean) or ``numerator`` and ``denominator`` (ratio), ``multiple``,
    the value (``rate``, ``mean`` or ``ratio``) with its ``_low`` and ``_high``; ``difference``
    (value - baseline's value), ``difference_low``, ``difference_high``, ``p_value`` (or
    ``chance_to_beat_baseline`` for ``"bayes"``); with a covariate ``units_with_covariate``,
    ``theta``, ``variance_reduction``; ``expected_share``, ``srm_p_value`` and ``note``
    ("baseline", "sample ratio mismatch"). A figure that cannot be computed (one unit: no
    variance) is NaN. An empty frame gives an empty table.

    >>> rows = [("A", i, i < 30) for i in range(200)] + [("B", i, i < 60) for i in range(200)]
    >>> df = pd.DataFrame({"sessionId": [f"{v}{i}" for v, i, _ in rows], "variant": [v for v, _, _ in rows],
    ...                    "key": ["cta_clicked" if ok else "heartbeat" for _, _, ok in rows],
    ...                    "timestamp": pd.Timestamp("2026-11-01", tz="UTC")})
    >>> out = compare_variants(df, variant_field="variant", success_key="cta_clicked")
    >>> out[["variant", "rate", "difference"]].round(3).to_dict("list")
    {'variant': ['A', 'B'], 'rate': [0.15, 0.3], 'difference': [nan, 0.15]}
    >>> bool(out.loc[1, "difference_low"] > 0)
    True
    >>> seq = compare_variants(df, variant_field="variant", success_key="cta_clicked", interval="sequential")
    >>> bool(seq.loc[1, "difference_low"] < out.loc[1, "difference_low"])  # wider: valid at every look
    True
    """
    opts = _options(df, variant_field, metric, success_key, value, numerator, denominator, interval, level, key,
                    multiple_variants, covariate, weights, planned_units)
    check_columns(df, by, key, time)
    return readout(_partial(df, opts, by, key, time), opts, baseline)
