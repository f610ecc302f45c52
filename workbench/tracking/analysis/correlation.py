"""Funnel correlation: which events and property values go with converting, and which with dropping off (PostHog's).

The groups that entered a :func:`~.funnels.funnel` (did its first step; every option of
``funnel`` applies) are split into those that reached its last step (*success*) and the
rest (*failure*). Each group's window runs from the event that filled its first step to
the one that filled its last (success) or to ``within`` after the first (failure), as
PostHog's correlation query takes it.

- **events** (``events=True``): a group *has* an event key when one of its events of that
  key lies strictly inside its window; the steps' own keys and ``ignore`` are left out;
- **properties** (``properties=["device", "platform"]``, columns or payload fields): a group
  has ``device = mobile`` when one of its events in the window, ends included (the first
  step's own event carries the device), has that value; values compared as text.

For each event key and property value, the 2 x 2 table of groups (success, failure) x
(with, without) gives the odds ratio of converting with it against without it,
``(success_with x failure_without) / (failure_with x success_without)``, with its interval
(Woolf's, on the log) and the p-value of its Wald test (statsmodels' ``Table2x2``), as
``definition`` says:

- ``"posthog"`` (the default, PostHog's): 1 is added to every cell first (PostHog's prior, so
  an empty cell never divides by 0): the table 2, 1, 1, 2 gives (3 x 3) / (2 x 2) = 2.25; a
  row *correlates with success* when its odds ratio is above 1, as PostHog's;
- ``"table2x2"``: the table as counted, 0.5 added to each empty cell only (``Table2x2``'s
  ``shift_zeros``): 2, 1, 1, 2 gives 4.0; success at an odds ratio of 1 or more.

An odds ratio above 1 goes with converting, below 1 with dropping off; it is a correlation,
not a cause: test a strong one with an experiment. PostHog also hides rows seen by fewer than
min(25, 2 % of the groups); every row is kept here, with its p-value. Rows are sorted by
odds ratio, highest first (ties by kind, name and value).

>>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01", "2026-11-01 10:02"] * 2 +
...                    ["2026-11-01 10:00", "2026-11-01 10:01"], utc=True)
>>> df = pd.DataFrame({"sessionId": list("aaabbbcc"), "timestamp": t,
...     "key": ["viewer_loaded", "hotspot_opened", "cta_clicked"] * 2 + ["viewer_loaded", "heartbeat"]})
>>> out = funnel_correlation(df, ["viewer_loaded", "cta_clicked"])
>>> out[["name", "success_with", "failure_with", "correlation"]].values.tolist()
[['hotspot_opened', 2, 0, 'success'], ['heartbeat', 0, 1, 'failure']]
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .common import as_text, check_columns, check_event_keys, codes, payload_field, step_list, unique_pairs, warn_unseen
from .dispatch import columns_of, field_columns, pandas_or_dask, partials
from .funnels import _found, _options
from .times import NAT, duration

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["funnel_correlation", "DEFINITIONS"]

_PARTIAL = {"kind": object, "name": object, "value": object, "success": np.int64, "failure": np.int64}
_TOTAL = "total"  # the kind of the row holding the groups that succeeded and failed
_SEEN = "seen"  # the kind of a property's row counting the events that carry it (a misspelt one has none)
#: How the odds ratio reads the table: PostHog's (1 added to every cell), or as counted (0.5 in an empty cell only).
DEFINITIONS = ("posthog", "table2x2")


def _partial(frame: pd.DataFrame, steps: list[str], exclude: list[str], within_ns: int, by: str, key: str, time: str, order: str,
             events: bool, properties: list[str], ignore: list[str]) -> pd.DataFrame:
    """Per frame (or partition of whole groups): groups with each event key and property value, succeeded and
    failed, and the totals (a row of kind "total")."""
    frame, g, _, k, t, code_of, found = _found(frame, steps, exclude, within_ns, by, key, time, order)
    m = len(steps)
    size = int(g.max(initial=-1)) + 2  # per group code; the spare last for events without a group
    start = np.full(size, NAT, dtype=np.int64)
    end = np.full(size, NAT, dtype=np.int64)
    success = np.zeros(size, dtype=bool)
    start[found.groups] = found.times[:, 0]
    success[found.groups] = found.depth == m
    # a success's window ends at its chain's latest event (for ``any``, whichever step it filled)
    end[found.groups] = np.where(found.depth == m, found.times.max(axis=1), found.times[:, 0] + within_ns)
    rows = [pd.DataFrame({"kind": [_TOTAL], "name": "", "value": "", "success": int(success[found.groups].sum()),
                          "failure": int((~success[found.groups]).sum())})]
    sg, eg = start[g], end[g]  # each event's group's window (the spare's for events without a group: none)
    entered = (sg != NAT) & (t != NAT)
    if events:
        skip = np.zeros(len(code_of) + 1, dtype=bool)  # by key code; the last: no key (-1)
        skip[[code_of[s] for s in (*steps, *ignore) if s in code_of] + [-1]] = True
        inside = np.flatnonzero(entered & (t > sg) & (t < eg) & ~skip[k])
        names = np.empty(len(code_of), dtype=object)
        names[list(code_of.values())] = list(code_of)
        rows.append(_counts(g[inside], k[inside], success, "event", None, names))
    closed = np.flatnonzero(entered & (t >= sg) & (t <= eg)) if properties else None
    for field in properties:
        values = payload_field(frame, field).iloc[closed]
        if isinstance(values.dtype, pd.CategoricalDtype):  # a lake's column: its codes, compared as text below
            v_codes, v_names = codes(values)
            v_names = as_text(v_names)
        else:
            v_codes, v_names = pd.factorize(pd.Series(as_text(values), dtype=object))
            v_names = np.asarray(v_names, dtype=object)
        has = v_codes >= 0
        rows.append(pd.DataFrame({"kind": [_SEEN], "name": field, "value": "", "success": int(has.sum()),
                                  "failure": 0}))
        rows.append(_counts(g[closed][has], v_codes[has], success, "property", field, v_names))
    return pd.concat(rows, ignore_index=True).astype(_PARTIAL)


def _counts(groups: np.ndarray, items: np.ndarray, success: np.ndarray, kind: str, name: str | None,
            names: Any) -> pd.DataFrame:
    """Groups per item code (each group once; ``names``: the items' names), split by success: rows of (kind,
    name, value, success, failure)."""
    if not len(groups):
        return pd.DataFrame(columns=list(_PARTIAL))
    item, group, _ = unique_pairs(items, groups)
    won = success[group]
    n_items = int(item.max()) + 1
    s = np.bincount(item[won], minlength=n_items)
    f = np.bincount(item[~won], minlength=n_items)
    present = np.flatnonzero(s + f)
    labels = np.asarray(names, dtype=object)[present].astype(str)
    if kind == "event":
        return pd.DataFrame({"kind": kind, "name": labels, "value": "", "success": s[present], "failure": f[present]})
    return pd.DataFrame({"kind": kind, "name": name, "value": labels, "success": s[present], "failure": f[present]})


def _table(partial: pd.DataFrame, level: float, properties: list[str], columns: list[Any],
           definition: str = "posthog") -> pd.DataFrame:
    from statsmodels.stats.contingency_tables import Table2x2

    out_columns = ["kind", "name", "value", "success_with", "failure_with", "success_without", "failure_without",
                   "odds_ratio", "odds_ratio_low", "odds_ratio_high", "p_value", "correlation"]
    summed = partial.groupby(["kind", "name", "value"], sort=False)[["success", "failure"]].sum().reset_index()
    seen = summed[summed["kind"] == _SEEN].set_index("name")["success"]
    if (summed["kind"] == _TOTAL).any() and summed.loc[summed["kind"] == _TOTAL, ["success", "failure"]].sum().sum():
        for field in properties:
            if not seen.get(field, 0):
                warn_unseen(field, "properties", "funnel_correlation", columns, "it correlates with nothing")
    total = summed[summed["kind"] == _TOTAL][["success", "failure"]].sum()
    body = summed[summed["kind"].isin(["event", "property"])].reset_index(drop=True)
    if not len(body):
        return pd.DataFrame(columns=out_columns).astype({c: (object if c in ("kind", "name", "value", "correlation")
                                                             else np.int64 if "with" in c else float)
                                                         for c in out_columns})
    a, b = body["success"].to_numpy(np.int64), body["failure"].to_numpy(np.int64)
    c, d = int(total["success"]) - a, int(total["failure"]) - b
    stats = []
    prior = 1.0 if definition == "posthog" else 0.0
    with warnings.catch_warnings():  # a table with an empty margin has no test: NaN, not a warning
        warnings.simplefilter("ignore", RuntimeWarning)
        for row in zip(a, b, c, d, strict=True):
            table = Table2x2(np.array([[row[0], row[1]], [row[2], row[3]]], dtype=float) + prior,
                             shift_zeros=definition == "table2x2")
            low, high = table.oddsratio_confint(alpha=1 - level)
            stats.append((table.oddsratio, low, high, table.oddsratio_pvalue()))
    odds, low, high, p = (np.array(x, dtype=float) for x in zip(*stats, strict=True))
    success = odds > 1 if definition == "posthog" else odds >= 1
    out = pd.DataFrame({"kind": body["kind"], "name": body["name"], "value": body["value"], "success_with": a,
                        "failure_with": b, "success_without": c, "failure_without": d, "odds_ratio": odds,
                        "odds_ratio_low": low, "odds_ratio_high": high, "p_value": p,
                        "correlation": np.where(success, "success", "failure")})
    out = out.sort_values(["odds_ratio", "kind", "name", "value"], ascending=[False, True, True, True],
                          kind="stable").reset_index(drop=True)
    return out.astype({"success_with": np.int64, "failure_with": np.int64, "success_without": np.int64,
                       "failure_without": np.int64})


def _check(df: pd.DataFrame | dd.DataFrame, steps: Sequence[str], key: str, order: str, exclude: Sequence[str] | None,
           properties: Sequence[str] | None, ignore: Sequence[str] | None, level: float, definition: str
           ) -> tuple[list[str], list[str], list[str], list[str]]:
    if definition not in DEFINITIONS:
        raise ValueError(f"funnel_correlation: definition: {definition!r} is not one of "
                         f"{', '.join(map(repr, DEFINITIONS))} ('posthog' adds 1 to every cell of the table, "
                         "'table2x2' 0.5 to an empty one only)")
    steps, exclude = _options(df, steps, key, order, exclude, "first_touch")
    if len(steps) < 2:
        raise ValueError("funnel_correlation: steps: give at least two steps (entering and converting)")
    properties = step_list(properties or (), "properties", "funnel_correlation")
    ignore = check_event_keys(step_list(ignore or (), "ignore", "funnel_correlation"), "ignore",
                              "funnel_correlation", df, column=key)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"funnel_correlation: level: {level!r} must be between 0 and 1, e.g. 0.95")
    return steps, exclude, properties, ignore


def _funnel_correlation_dask(ddf: dd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h",
                             by: str = "sessionId", key: str = "key", time: str = "timestamp", *,
                             order: str = "ordered", exclude: Sequence[str] | None = None, events: bool = True,
                             properties: Sequence[str] | None = None, ignore: Sequence[str] | None = None,
                             level: float = 0.95, definition: str = "posthog", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`funnel_correlation`: groups per event key and property value per partition of whole groups, added up."""
    steps, exclude, properties, ignore = _check(ddf, steps, key, order, exclude, properties, ignore, level,
                                                definition)
    check_columns(ddf, by, key, time)
    meta = pd.DataFrame({c: pd.Series([], dtype=t) for c, t in _PARTIAL.items()})
    within_ns = duration(within, "within", "funnel_correlation", zero=True)
    partial = partials(ddf, _partial, steps, exclude, within_ns, by, key, time, order, events, properties, ignore,
                       by=by, columns=columns_of(ddf, by, key, time, *field_columns(ddf, *properties), ties=False),
                       meta=meta, client=client, time=time)
    return _table(partial, level, properties, list(ddf.columns), definition)


@pandas_or_dask(_funnel_correlation_dask)
def funnel_correlation(df: pd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h",
                       by: str = "sessionId", key: str = "key", time: str = "timestamp", *, order: str = "ordered",
                       exclude: Sequence[str] | None = None, events: bool = True,
                       properties: Sequence[str] | None = None, ignore: Sequence[str] | None = None,
                       level: float = 0.95, definition: str = "posthog", client: Scheduler | None = None) -> pd.DataFrame:
    """Odds ratios of converting with each event key and property value against without it (definitions in the
    module text).

    Input columns: ``by``, ``key``, ``time`` [, ``properties``]. Output, one row per event key
    and property value that some entering group had, highest odds ratio first: ``kind``
    ("event" or "property"), ``name`` (the key, or the property), ``value`` (the property's
    value; "" for an event), ``success_with``, ``failure_with``, ``success_without``,
    ``failure_without`` (groups), ``odds_ratio`` with ``odds_ratio_low`` and
    ``odds_ratio_high`` (level ``level``), ``p_value``, ``correlation`` ("success" or
    "failure"), all read as ``definition`` says (``"posthog"``, the default, or ``"table2x2"``:
    the module text). No group entering the funnel gives an empty table.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01"] * 2, utc=True)
    >>> df = pd.DataFrame({"sessionId": list("aabb"), "timestamp": t, "key": ["viewer_loaded", "cta_clicked"] * 2,
    ...                    "payload": [{"device": "mobile"}, {}, {"device": "desktop"}, {}]})
    >>> funnel_correlation(df, ["viewer_loaded", "cta_clicked"], properties=["device"])["value"].tolist()
    ['desktop', 'mobile']
    """
    steps, exclude, properties, ignore = _check(df, steps, key, order, exclude, properties, ignore, level,
                                                definition)
    check_columns(df, by, key, time)
    within_ns = duration(within, "within", "funnel_correlation", zero=True)
    return _table(_partial(df, steps, exclude, within_ns, by, key, time, order, events, properties, ignore), level,
                  properties, list(df.columns), definition)
