"""What the explorer asks: its settings, the one call each question makes of them, the code that makes the same
call, and the chart drawn from the answer.

:func:`call_of` is the one place that turns settings into a question's call, so the answer
the explorer shows and the code it shows for copying are the same call on the same slice of
events (the slice: :meth:`~.data.Events.slice`; its code: :func:`code_for`).

>>> s = Settings(question="lifecycle", event="interaction_start", by="visitorId")
>>> call_of(s)
('lifecycle', [], {'event': 'interaction_start', 'period': '1D', 'by': 'visitorId'})
>>> print(code_for(s, path="/data/lake").splitlines()[-1])
wt.lifecycle(events, event="interaction_start", period="1D", by="visitorId")
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

import pandas as pd

__all__ = ["QUESTIONS", "USES", "Settings", "normal", "columns_for", "call_of", "code_for", "chart", "PERIODS",
           "WITHIN", "UNITS"]

#: The questions, in the order the explorer offers them (its label: the function's name, but "experiment").
QUESTIONS = ("funnel", "retention", "lifecycle", "stickiness", "paths", "experiment")
#: Periods offered, and the window stickiness counts them in.
PERIODS = {"1h": "1D", "1D": "7D", "7D": "28D"}
#: Funnel windows offered.
WITHIN = ("5min", "30min", "1h", "1D")
#: What a unit column counts, for the charts' axes.
UNITS = {"sessionId": "sessions", "visitorId": "visitors"}


@dataclass(frozen=True)
class Settings:
    """One question with every choice the explorer offers; hashable, so answers are kept by it."""

    question: str = "funnel"
    steps: tuple = ("viewer_loaded", "hotspot_opened", "cta_clicked")  # funnel
    event: str = "interaction_start"  # lifecycle, stickiness; retention's start; paths' start; an experiment's success
    period: str = "1D"  # lifecycle, stickiness, retention
    by: str = "sessionId"
    start: str | None = None  # first day (UTC), included
    end: str | None = None  # last day, included
    breakdown: str | None = None  # funnel
    filter_field: str | None = None
    filter_values: tuple = ()
    within: str = "1h"  # funnel
    order: str = "ordered"  # funnel
    periods: int = 7  # retention
    path_steps: int = 5  # paths
    exclude: tuple = field(default=("heartbeat",))  # paths
    variant_field: str = "variant"  # experiment


#: Which settings each question reads, besides the question, the unit, the days and the filter.
USES = {"funnel": ("steps", "within", "order", "breakdown"), "retention": ("event", "period", "periods"),
        "lifecycle": ("event", "period"), "stickiness": ("event", "period"), "paths": ("event", "path_steps"),
        "experiment": ("event", "variant_field")}
_COMMON = ("question", "by", "start", "end", "filter_field", "filter_values")


def normal(s: Settings) -> Settings:
    """``s`` with the settings its question does not read put back to their defaults: two settings that ask the
    same question are equal (and share a kept answer)."""
    kept = {name: getattr(s, name) for name in (*_COMMON, *USES.get(s.question, ()))}
    if not (s.filter_field and s.filter_values):
        kept["filter_field"], kept["filter_values"] = None, ()
    return Settings(**kept)


def columns_for(s: Settings, column_of, columns) -> list[str]:
    """The columns of the events ``s``'s question reads (``column_of(field)``: the column a field is in;
    ``columns``: the frame's): the unit, key and time, the session and visitor that pick a repeated event's copy,
    the event id where ties are ordered by it, and the fields broken down by or compared."""
    wanted = ["key", "timestamp", s.by, "sessionId", "visitorId"]
    if s.question in ("paths", "experiment") or (s.question == "funnel" and s.breakdown):
        wanted.append("id")
    if s.question == "funnel" and s.breakdown:
        wanted.append(column_of(s.breakdown))
    if s.question == "experiment":
        wanted += [column_of(s.variant_field), "payload"]
    return [c for c in dict.fromkeys(wanted) if c in columns]


def call_of(s: Settings) -> tuple[str, list, dict]:
    """(the function of ``workbench.tracking``, its arguments after the events, its keyword arguments) that
    answers ``s``."""
    if s.question == "funnel":
        kw = {"within": s.within, "by": s.by, "order": s.order}
        if s.breakdown:
            kw["breakdown"] = s.breakdown
        return "funnel", [list(s.steps)], kw
    if s.question == "retention":
        return "retention", [], {"start_key": s.event, "by": s.by, "period": s.period, "periods": s.periods}
    if s.question == "lifecycle":
        return "lifecycle", [], {"event": s.event, "period": s.period, "by": s.by}
    if s.question == "stickiness":
        return "stickiness", [], {"event": s.event, "period": s.period, "within": PERIODS[s.period], "by": s.by}
    if s.question == "paths":
        return "paths", [], {"start": s.event, "steps": s.path_steps, "by": s.by, "exclude": list(s.exclude)}
    if s.question == "experiment":
        return "compare_variants", [], {"variant_field": s.variant_field, "success_key": s.event, "by": s.by}
    raise ValueError(f"explore: question: {s.question!r} is not one of {', '.join(QUESTIONS)}")


def _py(value) -> str:
    """A value as Python source (strings in double quotes, as the project writes them)."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_py(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return repr(value.item() if hasattr(value, "item") else value)


def code_for(s: Settings, *, path: str | None = None, name: str = "events", lazy: bool = False, column=None,
             days: tuple | None = None) -> str:
    """The code that gives the explorer's answer for ``s``: the events (``wt.read_events(path)`` for a lake, else
    the frame the caller named ``name``), the date range and the filter cut as the explorer cuts them, and the
    call. ``lazy``: the frame is a Dask one (the filter's units are computed); ``column(field)``: the column a
    field is in; ``days``: the data's first and last day (a range that covers them cuts nothing)."""
    lines = ["import pandas as pd", "from workbench import tracking as wt", ""]
    if path is not None:
        lines.append(f"{name} = wt.read_events({_py(path)})")
    else:
        lines.append(f"# {name}: the DataFrame given to wt.explore()")
    whole = days is not None and (s.start in (None, days[0])) and (s.end in (None, days[1]))
    if not whole and (s.start or s.end):
        from .data import bounds

        lo, hi = bounds(s.start, s.end)
        lines.append(f'{name} = {name}[({name}["timestamp"] >= pd.Timestamp({_py(str(lo.date()))}, tz="UTC"))')
        lines.append(f'{" " * len(name)}   & ({name}["timestamp"] < pd.Timestamp({_py(str(hi.date()))}, tz="UTC"))]')
    if s.filter_field and s.filter_values:
        col = column(s.filter_field) if column else s.filter_field
        units = (f'{name}.loc[{name}[{_py(col)}].isin({_py(list(s.filter_values))}), {_py(s.by)}].dropna().unique()'
                 + (".compute()" if lazy else ""))
        lines.append(f"units = {units}  # the {UNITS.get(s.by, s.by)} with such an event")
        lines.append(f"{name} = {name}[{name}[{_py(s.by)}].isin(list(units))]")
    function, args, kw = call_of(s)
    inner = ", ".join([name, *[_py(a) for a in args], *[f"{k}={_py(v)}" for k, v in kw.items()]])
    lines.append(f"wt.{function}({inner})")
    return "\n".join(lines)


def chart(s: Settings, table: pd.DataFrame, problem: str | None = None) -> bytes:
    """The answer's chart as PNG bytes (the analysis' own plots, on a figure of their own: no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .. import analysis as A

    fig = Figure(figsize=(6.4, 3.9), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    unit = UNITS.get(s.by, s.by)
    if problem is not None or table is None or not len(table):
        ax.set_axis_off()
        ax.text(0.5, 0.5, problem or "no answer: no event in this slice", ha="center", va="center", wrap=True)
    elif s.question == "funnel" and s.breakdown:
        wide = table.pivot(index="step", columns=s.breakdown, values="count").reindex(list(dict.fromkeys(s.steps)))
        wide.plot.bar(ax=ax, rot=0)
        ax.set_ylabel(f"{unit} reaching the step")
        ax.set_xlabel("")
        # below the bars, where it hides none of them
        ax.legend(title=s.breakdown, fontsize=8, title_fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1),
                  ncol=min(3, max(1, len(wide.columns))), frameon=False)
    elif s.question == "funnel":
        A.plot_funnel(table, ax=ax, unit=unit)
    elif s.question == "retention":
        A.plot_retention(table, ax=ax, unit=unit)
    elif s.question == "lifecycle":
        A.plot_lifecycle(table, ax=ax, unit=unit)
    elif s.question == "stickiness":
        A.plot_stickiness(table, ax=ax, unit=unit)
    elif s.question == "paths":
        A.plot_paths(table, ax=ax)
    elif table["difference"].notna().any():
        A.plot_variants({"fixed interval": table}, ax=ax)
    else:
        ax.set_axis_off()
        ax.text(0.5, 0.5, "one variant only: nothing to compare", ha="center", va="center")
    ax.set_title(_title(s, unit), fontsize=10)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", metadata={"Software": None})  # the same settings give the same bytes
    return out.getvalue()


def _title(s: Settings, unit: str) -> str:
    if s.question == "funnel":
        return f"{' → '.join(s.steps)} ({unit}, within {s.within})"
    if s.question == "retention":
        return f"{unit} returning after their first {s.event}, per {s.period}"
    if s.question in ("lifecycle", "stickiness"):
        return f"{s.question} of {unit} doing {s.event}, per {s.period}"
    if s.question == "paths":
        return f"paths of {unit} from {s.event}"
    return f"{s.event} per {unit.rstrip('s')} by {s.variant_field}"
