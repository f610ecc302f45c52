"""Time to convert: per funnel step, how long the converting groups took from the step before (and end to end).

The groups and their chains are :func:`~.funnels.funnel`'s, with every one of its options
(``within``, ``order``, ``exclude``): a step's times are those of the groups that reached
it, from the event that filled the step before to the one that filled it (events of one
millisecond are 0 apart). For ``order="any"``, ``definition`` says when a step was
reached: ``"posthog"`` (the default, PostHog's unordered funnel) takes the chain's events
in time order, the k-th step reached at its k-th earliest event, so ``model_loaded`` then
``viewer_loaded`` 5 minutes later converts in 300 s whichever of the two is named first;
``"all_done"`` takes the time steps 1..k were all done (there, 0 s: both were done when
``viewer_loaded`` came). The last row, ``step`` = ``"(all steps)"``, is from the first step
to the last, over the groups that reached the last. Percentiles interpolate linearly between ranks (numpy's and
pandas' default), exactly on Dask too (the times are added up as counts of each whole
millisecond).

>>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:02", "2026-11-01 10:00", "2026-11-01 10:06"], utc=True)
>>> df = pd.DataFrame({"sessionId": ["a", "a", "b", "b"], "key": ["viewer_loaded", "cta_clicked"] * 2, "timestamp": t})
>>> time_to_convert(df, ["viewer_loaded", "cta_clicked"])[["step", "groups", "mean_s", "p50_s"]].values.tolist()
[['cta_clicked', 2, 240.0, 240.0], ['(all steps)', 2, 240.0, 240.0]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .common import check_columns, pct_name, quantiles_from_counts
from .dispatch import columns_of, pandas_or_dask, partials
from .funnels import _PARTIAL, _options, _partial
from .times import duration

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["time_to_convert", "ALL_STEPS"]

ALL_STEPS = "(all steps)"


def _check_percentiles(percentiles: Iterable[float]) -> list[float]:
    qs = list(percentiles)
    if not all(isinstance(q, (int, float)) and not isinstance(q, bool) and 0 <= q <= 1 for q in qs):
        raise ValueError(f"time_to_convert: percentiles: {percentiles!r} must be numbers from 0 to 1, e.g. (0.5, 0.9)")
    return qs


def _table(partial: pd.DataFrame, steps: list[str], qs: list[float]) -> pd.DataFrame:
    """One row per step after the first, and one end to end, from the summed counts of each time."""
    m = len(steps)
    step, delta, count = (partial[c].to_numpy(np.int64) for c in ("step", "delta", "n"))
    timed = delta >= 0
    rows = []
    for j in range(1, m + 1):
        mine = timed & (step == j)
        values, counts = delta[mine].astype(np.float64), count[mine]
        n = int(counts.sum())
        row = {"step": steps[j] if j < m else ALL_STEPS, "from_step": steps[j - 1] if j < m else steps[0],
               "groups": n, "mean_s": float(values @ counts) / n / 1e9 if n else np.nan}
        for q, v in zip(qs, quantiles_from_counts(values, counts, qs), strict=True):
            row[f"{pct_name(q)}_s"] = v / 1e9
        row["min_s"] = values[counts > 0].min() / 1e9 if n else np.nan
        row["max_s"] = values[counts > 0].max() / 1e9 if n else np.nan
        rows.append(row)
    if m == 1:
        rows = []
    columns = ["step", "from_step", "groups", "mean_s", *[f"{pct_name(q)}_s" for q in qs], "min_s", "max_s"]
    out = pd.DataFrame(rows, columns=columns)
    return out.astype({"groups": np.int64, **{c: float for c in columns[3:]}})


def _time_to_convert_dask(ddf: dd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h",
                          by: str = "sessionId", key: str = "key", time: str = "timestamp", *, order: str = "ordered",
                          exclude: Sequence[str] | None = None, percentiles: Iterable[float] = (0.5, 0.9, 0.99),
                          definition: str = "posthog", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`time_to_convert`: counts of each time per partition of whole groups, added up."""
    steps, exclude = _options(ddf, steps, key, order, exclude, "first_touch", definition, "time_to_convert")
    qs = _check_percentiles(percentiles)
    check_columns(ddf, by, key, time)
    meta = pd.DataFrame({c: pd.Series([], dtype=t) for c, t in _PARTIAL.items()})
    within_ns = duration(within, "within", "time_to_convert", zero=True)
    partial = partials(ddf, _partial, steps, exclude, within_ns, by, key, time, order, None, "first_touch", True,
                       definition, by=by, columns=columns_of(ddf, by, key, time, ties=False), meta=meta, client=client,
                       time=time)
    return _table(partial, steps, qs)  # the table adds up each time's counts, whichever partition they came from


@pandas_or_dask(_time_to_convert_dask)
def time_to_convert(df: pd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h", by: str = "sessionId",
                    key: str = "key", time: str = "timestamp", *, order: str = "ordered",
                    exclude: Sequence[str] | None = None, percentiles: Iterable[float] = (0.5, 0.9, 0.99),
                    definition: str = "posthog", client: Scheduler | None = None) -> pd.DataFrame:
    """How long each step of a funnel took, for the groups that reached it (definitions in the module text).

    Input columns: ``by``, ``key``, ``time``. Output, one row per step after the first and a
    last one end to end: ``step``, ``from_step``, ``groups`` (that reached ``step``),
    ``mean_s``, one ``p<q>_s`` per percentile (``p50_s``, ``p90_s``, ``p99_s``), ``min_s``,
    ``max_s``, in seconds; NaN where no group reached the step. A one-step funnel has
    nothing to time: an empty table.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01", "2026-11-01 10:04"], utc=True)
    >>> df = pd.DataFrame({"sessionId": "a", "key": ["viewer_loaded", "hotspot_opened", "cta_clicked"],
    ...                    "timestamp": t})
    >>> time_to_convert(df, ["viewer_loaded", "hotspot_opened", "cta_clicked"])["mean_s"].tolist()
    [60.0, 180.0, 240.0]
    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:05"], utc=True)
    >>> df = pd.DataFrame({"sessionId": "a", "key": ["model_loaded", "viewer_loaded"], "timestamp": t})
    >>> [time_to_convert(df, ["viewer_loaded", "model_loaded"], order="any", definition=d)["mean_s"].tolist()
    ...  for d in ("posthog", "all_done")]
    [[300.0, 300.0], [0.0, 0.0]]
    """
    steps, exclude = _options(df, steps, key, order, exclude, "first_touch", definition, "time_to_convert")
    qs = _check_percentiles(percentiles)
    check_columns(df, by, key, time)
    within_ns = duration(within, "within", "time_to_convert", zero=True)
    return _table(_partial(df, steps, exclude, within_ns, by, key, time, order, None, "first_touch", True,
                           definition), steps, qs)
