"""Charts of the analysis tables (matplotlib, imported by pandas only when a chart is drawn); each returns its Axes.

>>> plot_funnel(pd.DataFrame({"step": ["a", "b"], "count": [4, 1]})).get_ylabel()
'visits reaching the step'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from .common import as_text, payload_field
from .metrics import events_over_time

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_funnel", "plot_load_times", "plot_events_over_time", "plot_rank", "plot_retention", "plot_paths",
           "plot_lifecycle", "plot_stickiness", "plot_correlation", "plot_variants"]


def _fit(ax: Axes) -> None:
    """Tilted labels and titles stay inside the figure: its tight layout, when the Axes has a figure of its own. On a
    panel of a figure a person composed (``fig.subfigures``) the layout is theirs: a panel has none to tighten."""
    from matplotlib.figure import Figure

    if isinstance(ax.figure, Figure):
        ax.figure.tight_layout()


def plot_funnel(funnel_df: pd.DataFrame, ax: Axes | None = None, unit: str = "visits") -> Axes:
    """Bar chart of a :func:`funnel` result; returns the matplotlib Axes. ``unit``: what the funnel
    counted (its ``by``: visits from :func:`sessionize`, or sessions), named on the axis.

    >>> ax = plot_funnel(pd.DataFrame({"step": ["a", "b"], "count": [4, 1]}))
    >>> ax.get_ylabel()
    'visits reaching the step'
    """
    ax = funnel_df.plot.bar(x="step", y="count", ax=ax, legend=False, rot=0)
    ax.set_ylabel(f"{unit} reaching the step")
    ax.set_xlabel("")
    # Step names are event keys ("interaction_start"): level, they run into each other.
    labels = [t.get_text() for t in ax.get_xticklabels()]
    if sum(map(len, labels)) > 40:
        ax.set_xticks(ax.get_xticks(), labels, rotation=25, ha="right")
    _fit(ax)
    return ax


def plot_load_times(df: pd.DataFrame, by: str = "device", ax: Axes | None = None) -> Axes:
    """Box plot of ``viewer_loaded`` ``loadTimeMs`` per ``by``; returns the Axes.

    >>> ax = plot_load_times(pd.DataFrame({"key": ["viewer_loaded"], "payload": [{"loadTimeMs": 5}]}))
    >>> ax.get_ylabel()
    'load time (ms)'
    """
    sub = df[df["key"] == "viewer_loaded"]
    group = payload_field(sub, by)
    frame = pd.DataFrame({by: pd.Series(as_text(group), index=group.index).fillna("unknown").to_numpy(),
                          "loadTimeMs": pd.to_numeric(payload_field(sub, "loadTimeMs"), errors="coerce").to_numpy()})
    ax = frame.plot.box(by=by, ax=ax, return_type="axes") if len(frame) else frame.plot(ax=ax)
    if isinstance(ax, pd.Series):
        ax = ax.iloc[0]
    values = frame["loadTimeMs"].dropna()
    # A slow tail (10x the median and more) squashes the boxes into a line: a log scale shows both.
    log = bool(len(values)) and values.min() > 0 and values.max() > 10 * values.median()
    if log:
        ax.set_yscale("log")
    ax.set_ylabel("load time (ms, log scale)" if log else "load time (ms)")
    return ax


def plot_events_over_time(df: pd.DataFrame, freq: str = "1h", by: str | None = "key", ax: Axes | None = None) -> Axes:
    """Line chart of :func:`events_over_time`; returns the Axes.

    >>> t = pd.to_datetime(["2026-11-01 10:10", "2026-11-01 12:00"], utc=True)
    >>> plot_events_over_time(pd.DataFrame({"key": "a", "timestamp": t})).get_ylabel()
    'events per 1h'
    """
    ax = events_over_time(df, freq=freq, by=by).plot(ax=ax)
    ax.set_ylabel(f"events per {freq}")
    return ax


def plot_rank(rank_df: pd.DataFrame, top: int = 20, ax: Axes | None = None) -> Axes:
    """Horizontal bars of the ``top`` rows of a :func:`rank` result; returns the Axes.

    >>> plot_rank(pd.DataFrame({"rank": [1], "hotspotId": ["h1"], "count": [3]})).get_xlabel()
    'events'
    """
    value = [c for c in rank_df.columns if c not in ("rank", "count", "sessions", "share")][0]
    ax = rank_df.head(top).iloc[::-1].plot.barh(x=value, y="count", ax=ax, legend=False)
    ax.set_xlabel("events")
    return ax


def plot_retention(table: pd.DataFrame, ax: Axes | None = None, unit: str = "visitors") -> Axes:
    """Retention curve of a :func:`~.retention.retention` table over all cohorts that reached each period (thick,
    labelled), and one thin line per cohort; period 0 (always 100 %) is left out so the returns are
    readable. Returns the Axes.

    >>> from workbench.tracking.analysis.retention import retention
    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-02 11:00"], utc=True)
    >>> df = pd.DataFrame({"visitorId": "a", "key": "viewer_loaded", "timestamp": t})
    >>> plot_retention(retention(df, start_key="viewer_loaded", by="visitorId", periods=2)).get_ylabel()
    'visitors returning (%)'
    """
    import matplotlib.pyplot as plt
    import numpy as np

    from .retention import retention_curve

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    labels = [str(c) for c in table["rate"].columns][1:]
    x = np.arange(1, len(labels) + 1)
    rates = table["rate"].to_numpy()[:, 1:] * 100
    for row in rates:
        ax.plot(x, row, color="#9fb3c8", linewidth=0.8, alpha=0.8)
    curve = retention_curve(table)["rate"].to_numpy()[1:] * 100
    ax.plot(x, curve, color="#1f4e79", linewidth=2.5, marker="o", label="all cohorts")
    for xi, yi in zip(x, curve, strict=True):
        if not np.isnan(yi):
            ax.annotate(f"{yi:.1f} %", (xi, yi), textcoords="offset points", xytext=(0, 8), ha="center", fontsize=9)
    top = np.nanmax(np.r_[rates.ravel(), curve, 1.0])
    ax.set_xticks(x, labels)
    ax.set_xlabel("period after the first (period 0: 100 %)")
    ax.set_ylabel(f"{unit} returning (%)")
    ax.set_ylim(0, top * 1.25)
    ax.legend(loc="upper right")
    _fit(ax)
    return ax


def plot_paths(paths_df: pd.DataFrame, ax: Axes | None = None, top: int = 10) -> Axes:
    """A Sankey-style chart of the ``top`` rows of a :func:`~.paths.paths` table: one column per step, a box per
    event key sized by the groups passing through it, and a band per path; returns the Axes.

    >>> df = pd.DataFrame({"path": ["a → b", "a → c"], "count": [3, 1]})
    >>> len(plot_paths(df).patches) > 0
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import PathPatch, Rectangle
    from matplotlib.path import Path

    rows = paths_df.head(top)
    seqs = [p.split(" → ") for p in rows["path"]]
    counts = rows["count"].to_numpy(dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(11, 5))
    depth = max((len(s) for s in seqs), default=0)
    total = counts.sum() or 1.0
    gap, width = 0.02 * total, 0.18
    palette = plt.get_cmap("tab20").colors  # type: ignore[attr-defined]  # tab20 is a ListedColormap; get_cmap is typed as the base Colormap
    keys = sorted({k for s in seqs for k in s})
    colour = {k: palette[i % len(palette)] for i, k in enumerate(keys)}
    # node boxes per step: keys ordered by their flow, largest on top; each box tracks where the next
    # band leaving it ("out") and arriving in it ("in") goes, both from its top down
    boxes: dict[tuple[int, str], dict[str, float]] = {}
    bottom = 0.0
    for step in range(depth):
        flow: dict[str, float] = {}
        for s, c in zip(seqs, counts, strict=True):
            if len(s) > step:
                flow[s[step]] = flow.get(s[step], 0.0) + c
        y = 0.0
        for k, f in sorted(flow.items(), key=lambda kv: (-kv[1], kv[0])):
            boxes[(step, k)] = {"out": y, "in": y}
            ax.add_patch(Rectangle((step - width / 2, -y - f), width, f, color=colour[k], ec="white", lw=0.5))
            if f / total > 0.04:
                ax.text(step, -y - f / 2, k, ha="center", va="center", fontsize=8)
            y += f + gap
        bottom = max(bottom, y)
    # bands: each path from one step's box to the next step's, stacked in path order
    for s, c in zip(seqs, counts, strict=True):
        for step in range(len(s) - 1):
            a, b = boxes[(step, s[step])], boxes[(step + 1, s[step + 1])]
            y0, y1 = -a["out"], -b["in"]
            x0, x1 = step + width / 2, step + 1 - width / 2
            xm = (x0 + x1) / 2
            verts = [(x0, y0), (xm, y0), (xm, y1), (x1, y1), (x1, y1 - c), (xm, y1 - c), (xm, y0 - c), (x0, y0 - c),
                     (x0, y0)]
            kinds = [Path.MOVETO, Path.CURVE4, Path.CURVE4, Path.CURVE4, Path.LINETO, Path.CURVE4, Path.CURVE4,
                     Path.CURVE4, Path.CLOSEPOLY]
            ax.add_patch(PathPatch(Path(verts, kinds), fc=colour[s[step]], alpha=0.35, lw=0))
            a["out"] += c
            b["in"] += c
    ax.set_xlim(-0.5, depth - 0.5)
    ax.set_ylim(-bottom, gap)
    ax.set_xticks(range(depth), [f"step {i + 1}" for i in range(depth)])
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.set_title(f"top {len(rows)} paths")
    _fit(ax)
    return ax


def plot_lifecycle(table: pd.DataFrame, ax: Axes | None = None, unit: str = "visitors") -> Axes:
    """Stacked bars of a :func:`~.lifecycle.lifecycle` table: new, returning and resurrecting above the axis,
    dormant below it (PostHog's picture); returns the Axes.

    >>> t = pd.DataFrame({"period": pd.to_datetime(["2026-11-01"], utc=True), "new": [3], "returning": [1],
    ...                   "resurrecting": [0], "dormant": [-2]})
    >>> plot_lifecycle(t).get_ylabel()
    'visitors'
    """
    import matplotlib.pyplot as plt
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(9, 4))
    x = np.arange(len(table))
    colours = {"new": "#2f6fb3", "returning": "#5aa469", "resurrecting": "#e0a030", "dormant": "#c8553d"}
    bottom = np.zeros(len(table))
    for status in ("new", "returning", "resurrecting"):
        ax.bar(x, table[status], bottom=bottom, color=colours[status], label=status, width=0.8)
        bottom += table[status].to_numpy()
    ax.bar(x, table["dormant"], color=colours["dormant"], label="dormant", width=0.8)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [p.strftime("%a %d %b") for p in table["period"]], rotation=0)
    ax.set_ylabel(unit)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=4, fontsize=8, frameon=False)
    _fit(ax)
    return ax


def plot_stickiness(table: pd.DataFrame, ax: Axes | None = None, unit: str = "visitors") -> Axes:
    """Bars of a :func:`~.stickiness.stickiness` table: the share of a window's active units per number of periods
    active, one group of bars per window (hatched and labelled "partial" where the data do not cover it: its
    counts are low by construction); returns the Axes.

    >>> t = pd.DataFrame({"window": pd.to_datetime(["2026-11-02"] * 2, utc=True), "periods_active": [1, 2],
    ...                   "share": [0.75, 0.25], "complete": True})
    >>> plot_stickiness(t).get_xlabel()
    'periods active in the window'
    """
    import matplotlib.pyplot as plt
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    windows = table["window"].drop_duplicates().tolist()
    width = 0.8 / max(len(windows), 1)
    for i, w in enumerate(windows):
        rows = table[table["window"] == w]
        whole = bool(rows["complete"].iloc[0])
        ax.bar(rows["periods_active"] + (i - (len(windows) - 1) / 2) * width, rows["share"] * 100, width=width,
               label=f"from {w:%d %b}" + ("" if whole else " (partial)"), hatch=None if whole else "//",
               alpha=1 if whole else 0.6)
    ax.set_xticks(np.sort(table["periods_active"].unique()))
    ax.set_xlabel("periods active in the window")
    ax.set_ylabel(f"{unit} active in the window (%)")
    if windows:
        ax.legend(fontsize=8)
    _fit(ax)
    return ax


def plot_correlation(table: pd.DataFrame, top: int = 8, ax: Axes | None = None) -> Axes:
    """Horizontal bars of a :func:`~.correlation.funnel_correlation` table: the ``top`` odds ratios on each side of
    1 on a log scale, with their intervals; returns the Axes.

    >>> t = pd.DataFrame({"kind": ["event", "property"], "name": ["hotspot_opened", "device"], "value": ["", "mobile"],
    ...                   "odds_ratio": [3.0, 0.5], "odds_ratio_low": [2.0, 0.3], "odds_ratio_high": [4.5, 0.8]})
    >>> plot_correlation(t).get_xscale()
    'log'
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rows = pd.concat([table[table["odds_ratio"] >= 1].head(top), table[table["odds_ratio"] < 1].tail(top)])
    rows = rows.iloc[::-1]
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.4 * len(rows) + 1.2))
    labels = [n if k == "event" else f"{n} = {v}" for k, n, v in zip(rows["kind"], rows["name"], rows["value"], strict=True)]
    y = np.arange(len(rows))
    odds = rows["odds_ratio"].to_numpy(dtype=float)
    ax.barh(y, odds - 1, left=1, color=np.where(odds >= 1, "#5aa469", "#c8553d"), alpha=0.5)
    ax.errorbar(odds, y, xerr=[odds - rows["odds_ratio_low"].to_numpy(dtype=float),
                               rows["odds_ratio_high"].to_numpy(dtype=float) - odds],
                fmt="o", color="black", markersize=3, linewidth=1)
    ax.set_xscale("log")
    ax.set_yticks(y, labels)
    ax.axvline(1, color="black", linewidth=0.8)
    ax.set_xlabel("odds ratio of converting, with against without (log scale)")
    _fit(ax)
    return ax


def plot_variants(readouts: dict[str, pd.DataFrame], ax: Axes | None = None) -> Axes:
    """Each readout's differences against its baseline with their intervals, one row per (readout, variant):
    ``readouts`` maps a label ("plain", "CUPED", "sequential") to a :func:`~.experiments.compare_variants`
    table; returns the Axes.

    >>> r = pd.DataFrame({"variant": ["A", "B"], "difference": [None, 0.1], "difference_low": [None, 0.02],
    ...                   "difference_high": [None, 0.18]})
    >>> plot_variants({"plain": r}).get_xlabel()
    'difference against the baseline'
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rows = [(label, v, d, lo, hi) for label, t in readouts.items()
            for v, d, lo, hi in zip(t["variant"], t["difference"], t["difference_low"], t["difference_high"], strict=True)
            if d == d]
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.2))
    y = np.arange(len(rows))[::-1]
    for yi, (_label, _v, d, lo, hi) in zip(y, rows, strict=True):
        ax.errorbar(d, yi, xerr=[[d - lo], [hi - d]], fmt="o", capsize=4, color="#1f4e79")
    ax.set_yticks(y, [f"{label}: {v}" for label, v, *_ in rows])
    ax.axvline(0, color="#c8553d", linewidth=1, linestyle="--")
    ax.set_xlabel("difference against the baseline")
    _fit(ax)
    return ax
