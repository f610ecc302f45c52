"""The explorer's controls (ipywidgets): the question and its choices, the chart and table they redraw, the code.

Every control redraws on change (:meth:`Explorer.redraw`): the settings are read from the
controls, the slice of events is cut (or taken from the last few kept), the answer is
computed (or taken from those kept: going back to a question is instant) and drawn. Keys
typed in the explorer stay there: a small front-end (:class:`KeepKeys`, anywidget) marks
the explorer's element so JupyterLab's and Notebook 7's shortcuts (``d d`` deletes a cell)
never see them. The current chart is also a PNG in the explorer's output, so a notebook run
without a browser (nbconvert, nbval) shows it.
"""

from __future__ import annotations

import base64
import html
import warnings
from collections import OrderedDict
from typing import Any

import pandas as pd

from ..analysis.dispatch import plain_pages
from .asking import PERIODS, QUESTIONS, UNITS, USES, WITHIN, Settings, call_of, chart, code_for, columns_for, normal
from .data import Events

__all__ = ["Explorer", "explore", "KeepKeys"]

_ANSWERS = 32  # answers kept (settings -> table and chart)
_ROWS = 30  # rows of a table shown
_EVENT_LABEL = {"retention": "start", "paths": "start", "experiment": "success"}
_NONE = ""

# JupyterLab and Notebook 7 check the focused element and its ancestors for data-lm-suppress-shortcuts
# (Notebook 7 before the page's own listeners: the capture phase), so the explorer's element and every
# element that takes focus in it carry it, and keys stop at the explorer besides (js/viewer/dom.js keepKeys).
_KEEP_KEYS_ESM = """
export default {
  render({ el }) {
    el.style.display = "none";
    let tries = 0;
    const attach = () => {
      const root = el.closest(".wb-explorer");
      if (!root) { if (tries++ < 600) requestAnimationFrame(attach); return; }
      if (root.dataset.keysKept) return;
      root.dataset.keysKept = "1";
      const suppress = n => n.setAttribute("data-lm-suppress-shortcuts", "true");
      suppress(root);
      root.querySelectorAll("button, select, input, textarea, [tabindex]").forEach(suppress);
      root.addEventListener("focusin", e => { if (e.target instanceof Element) suppress(e.target); });
      for (const t of ["keydown", "keyup", "keypress"]) root.addEventListener(t, e => e.stopPropagation());
    };
    attach();
  }
};
"""


def _keep_keys():
    import anywidget
    import traitlets

    class KeepKeys(anywidget.AnyWidget):
        """Keys typed in the ``.wb-explorer`` element around this (invisible) widget stay there."""

        _esm = traitlets.Unicode(_KEEP_KEYS_ESM).tag(sync=True)

    return KeepKeys()


KeepKeys = _keep_keys  # the guard's maker (anywidget loaded only when an explorer is made)


class Explorer:
    """Controls for a question asked of ``events`` (see :func:`explore`), its chart, its table and its code.

    ``.settings`` is what the controls say, ``.table`` the current answer, ``.png`` its chart,
    ``.code`` the code that gives the same answer, ``.revision`` counts the redraws.
    """

    def __init__(self, events: Any, *, name: str = "events", **settings):
        import ipywidgets as W

        with plain_pages():  # a lake read into memory: see plain_pages
            self.events = events if isinstance(events, Events) else Events(events)
        self.name = name
        self._answers: OrderedDict = OrderedDict()
        self.revision = 0
        self.table: pd.DataFrame | None = None
        self.problem: str | None = None
        self.png = b""
        self.notes: tuple = ()
        self.code = ""
        ev = self.events
        keys, fields = ev.keys, ev.fields
        start = Settings(by="visitorId" if "visitorId" in ev.units else ev.units[0],
                         event="interaction_start" if "interaction_start" in keys else (keys[0] if keys else ""),
                         steps=tuple(k for k in Settings.steps if k in keys) or tuple(keys[:3]),
                         variant_field="variant" if "variant" in fields else (fields[0] if fields else ""))
        start = Settings(**{**start.__dict__, **settings})

        def wide():  # a layout each: a control is hidden by its own layout's display
            return W.Layout(width="240px")

        self.question = W.ToggleButtons(options=list(QUESTIONS), value=start.question, description="question",
                                        style={"button_width": "96px"})
        self.by = W.Dropdown(options=[(f"{UNITS.get(u, u)} ({u})", u) for u in ev.units], value=start.by,
                             description="count", layout=W.Layout(width="260px"))
        days = ev.days or ["(no events)"]
        self.first_day = W.Dropdown(options=days, value=start.start if start.start in days else days[0],
                                    description="from", layout=W.Layout(width="200px"))
        self.last_day = W.Dropdown(options=days, value=start.end if start.end in days else days[-1],
                                   description="to", layout=W.Layout(width="200px"))
        self.filter_field = W.Dropdown(options=[("(no filter)", _NONE), *[(f, f) for f in ev.columns]],
                                       value=_NONE, description="with", layout=wide())
        self.filter_values = W.SelectMultiple(options=[], rows=3, description="=",
                                              layout=W.Layout(width="220px", display="none"))
        self.steps = W.TagsInput(value=list(start.steps), allowed_tags=keys, allow_duplicates=True,
                                 layout=W.Layout(width="520px"))
        self.within = W.Dropdown(options=list(WITHIN), value=start.within, description="within", layout=wide())
        self.order = W.Dropdown(options=["ordered", "strict", "any"], value=start.order, description="order",
                                layout=wide())
        self.breakdown = W.Dropdown(options=[("(none)", _NONE), *[(f, f) for f in fields]], value=_NONE,
                                    description="breakdown", layout=wide())
        self.event = W.Dropdown(options=keys, value=start.event if start.event in keys else None, description="event",
                                layout=wide())
        self.period = W.Dropdown(options=list(PERIODS), value=start.period, description="period", layout=wide())
        self.periods = W.IntSlider(value=start.periods, min=1, max=14, description="periods", continuous_update=False)
        self.path_steps = W.IntSlider(value=start.path_steps, min=2, max=8, description="steps",
                                      continuous_update=False)
        self.variant_field = W.Dropdown(options=fields, value=start.variant_field if start.variant_field in fields
                                        else None, description="variant", layout=wide())
        self.chart = W.HTML(layout=W.Layout(min_width="640px"))
        self.grid = W.HTML(layout=W.Layout(overflow="auto", max_height="420px", flex="1 1 auto", min_width="260px"))
        self.source = W.Textarea(layout=W.Layout(width="100%", height="150px"), description="code",
                                 style={"description_width": "40px"})
        self.status = W.HTML()
        self._controls = {"question": self.question, "by": self.by, "first_day": self.first_day,
                          "last_day": self.last_day,
                          "filter_field": self.filter_field, "filter_values": self.filter_values, "steps": self.steps,
                          "within": self.within, "order": self.order, "breakdown": self.breakdown,
                          "event": self.event, "period": self.period, "periods": self.periods,
                          "path_steps": self.path_steps, "variant_field": self.variant_field}
        self._quiet = False
        self.filter_field.observe(self._filter_field, names="value")
        for control in self._controls.values():
            control.observe(self.redraw, names="value")
        choices = W.HBox([self.steps, self.within, self.order, self.breakdown, self.event, self.period, self.periods,
                          self.path_steps, self.variant_field], layout=W.Layout(flex_flow="row wrap"))
        self.widget = W.VBox([self.question,
                              W.HBox([self.by, self.first_day, self.last_day, self.filter_field, self.filter_values],
                                     layout=W.Layout(flex_flow="row wrap")),
                              choices, W.HBox([self.chart, self.grid]), self.source, self.status, _keep_keys()])
        self.widget.add_class("wb-explorer")
        if start.filter_field:
            self.filter_field.value = start.filter_field
            self.filter_values.value = tuple(start.filter_values)
        self.redraw()

    # ------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        """The question and choices the controls say."""
        start, end = (self.first_day.value, self.last_day.value) if self.events.days else (None, None)
        if start is not None and end < start:  # the two menus crossed: the days between them, either way
            start, end = end, start
        return Settings(question=self.question.value, steps=tuple(self.steps.value), event=self.event.value or "",
                        period=self.period.value, by=self.by.value, start=start, end=end,
                        breakdown=self.breakdown.value or None, filter_field=self.filter_field.value or None,
                        filter_values=tuple(self.filter_values.value), within=self.within.value,
                        order=self.order.value, periods=int(self.periods.value), path_steps=int(self.path_steps.value),
                        variant_field=self.variant_field.value or "")

    def answer(self, s: Settings) -> tuple[pd.DataFrame | None, str | None, bytes, tuple]:
        """(the answer's table, or None and why not, its chart, the analysis' warnings) for ``s``; those of recent
        settings are kept."""
        s = normal(s)
        if s in self._answers:
            self._answers.move_to_end(s)
            return self._answers[s]
        from .. import analysis as A

        ev = self.events
        with plain_pages():  # the slice's copies mapped without huge pages, as the answers are
            frame = ev.slice(s.start, s.end, s.filter_field, s.filter_values, s.by,
                             columns_for(s, ev.column_of, ev.frame.columns))
        function, args, kw = call_of(s)
        with warnings.catch_warnings(record=True) as said, plain_pages():  # warnings: shown under the table
            warnings.simplefilter("always")
            try:
                table, problem = getattr(A, function)(frame, *args, **kw), None
            except (ValueError, KeyError) as e:  # the analysis' own message, naming the option
                table, problem = None, str(e).strip("'\"")
        notes = tuple(dict.fromkeys(str(w.message) for w in said if issubclass(w.category, UserWarning)))
        found = self._answers[s] = (table, problem, chart(s, table, problem), notes)
        while len(self._answers) > _ANSWERS:
            self._answers.popitem(last=False)
        return found

    def redraw(self, *_) -> None:
        """Read the controls, answer, and draw the chart, the table and the code."""
        if self._quiet:
            return
        s = self.settings
        self._show(s.question)
        self.status.value = "<i>answering…</i>"
        self.table, self.problem, self.png, self.notes = self.answer(s)
        ev = self.events
        self.code = code_for(s, path=ev.path, name=self.name, lazy=ev.lazy, column=ev.column_of,
                             days=(ev.days[0], ev.days[-1]) if ev.days else None)
        self.revision += 1
        picture = base64.b64encode(self.png).decode("ascii")
        self.chart.value = (f'<img class="wb-explorer-chart" data-revision="{self.revision}" '
                            f'data-question="{s.question}" alt="{html.escape(s.question)} chart" '
                            f'src="data:image/png;base64,{picture}">')
        self.grid.value = _table_html(self.table, self.problem) + "".join(
            f"<p class='wb-explorer-note'>{html.escape(n)}</p>" for n in self.notes)
        self.source.value = self.code
        self.status.value = ""

    def _show(self, question: str) -> None:
        """Only the controls ``question`` reads are shown; the event menu says what it stands for."""
        used = USES[question]
        for name in ("steps", "within", "order", "breakdown", "event", "period", "periods", "path_steps",
                     "variant_field"):
            self._controls[name].layout.display = None if name in used else "none"
        self.event.description = _EVENT_LABEL.get(question, "event")

    def _filter_field(self, change) -> None:
        """A new filter field offers its values, none chosen (the redraw that follows cuts nothing yet)."""
        self._quiet = True
        try:
            field = change["new"]
            values = self.events.values(field) if field else []
            self.filter_values.options = [(str(v), v) for v in values]
            self.filter_values.value = ()
            self.filter_values.layout.display = None if field else "none"
        finally:
            self._quiet = False

    # ------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        """The live controls, and the current chart as a picture for wherever widgets do not run (nbconvert, nbval,
        a saved notebook)."""
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        text = self.code.splitlines()[-1] if self.code else "explorer"
        return {**data, "image/png": self.png, "text/plain": f"<workbench explorer: {text}>"}


def _table_html(table: pd.DataFrame | None, problem: str | None) -> str:
    if problem is not None:
        return f"<p class='wb-explorer-problem'>{html.escape(problem)}</p>"
    if table is None or not len(table):
        return "<p>no answer: no event in this slice</p>"
    shown = table.head(_ROWS).copy()
    for c in shown.columns:
        if isinstance(shown[c].dtype, pd.DatetimeTZDtype):
            days = (shown[c].dt.hour == 0).all() and (shown[c].dt.minute == 0).all()
            shown[c] = shown[c].dt.strftime("%Y-%m-%d" if days else "%Y-%m-%d %H:%M")
    if isinstance(shown.index, pd.DatetimeIndex):
        shown.index = shown.index.strftime("%Y-%m-%d")
    more = f"<p>first {_ROWS} of {len(table)} rows</p>" if len(table) > _ROWS else ""
    return (_STYLE + shown.to_html(classes="wb-explorer-table", float_format=lambda x: f"{x:.3g}", na_rep="",
                                   index=isinstance(table.index, pd.DatetimeIndex), border=0) + more)


_STYLE = ("<style>.wb-explorer-table {border-collapse: collapse; font-size: 12px}"
          ".wb-explorer-table th, .wb-explorer-table td {white-space: nowrap; padding: 1px 6px; text-align: right}"
          ".wb-explorer-note {color: #a0522d; font-size: 12px}</style>")


def explore(events: Any, *, name: str = "events", **settings) -> Explorer:
    """An analyst's explorer of ``events`` in a notebook: pick the question (funnel, retention, lifecycle,
    stickiness, paths, experiment readout), its steps or event, period, days, the unit counted and a filter, and
    the chart and the table beside it are drawn again; the code that gives the same answer is shown for copying.

    ``events``: a pandas DataFrame of events, a lake's folder, or a frame from
    :func:`~workbench.tracking.read_events` (a lake that fits in this process is read once into memory);
    ``name``: what the code shown calls a DataFrame given here; ``settings``: the first settings
    (:class:`~.asking.Settings`' fields, e.g. ``question="lifecycle"``).

    >>> from workbench.tracking import synth
    >>> ex = explore(synth.generate(300, seed=1, flat=True), question="lifecycle", by="sessionId")
    >>> ex.table.columns.tolist()[:3], ex.code.splitlines()[-1]
    (['period', 'new', 'returning'], 'wt.lifecycle(events, event="interaction_start", period="1D", by="sessionId")')
    """
    return Explorer(events, name=name, **settings)
