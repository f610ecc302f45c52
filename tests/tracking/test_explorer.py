"""The explorer's callbacks (issue 47 item 5): a control changed redraws the chart and the table with the answer
the analysis function gives for the same settings, and the code shown gives that answer when run; answers are kept
by their settings; the picture is in the output for a run without a browser. The browser's side (JupyterLab,
Notebook 7, keys) is tests/browser/test_explorer_lab.py."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench import tracking as wt
from workbench.tracking import analysis as A
from workbench.tracking.explorer import Explorer, Settings, call_of
from workbench.tracking.explorer import data as explorer_data
from workbench.tracking.explorer.asking import USES
from workbench.tracking.lake import write_synth_lake
from workbench.tracking.synth import generate

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def frame():
    return generate(20_000, seed=3, flat=True)


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    return write_synth_lake(tmp_path_factory.mktemp("explorer") / "events", 20_000, seed=3, chunk_events=6_000)


def run_code(code: str, events=None) -> pd.DataFrame:
    """The explorer's code run as a person would paste it (the DataFrame given as ``events``): its last line's value."""
    lines = code.splitlines()
    scope = {"events": events}
    exec("\n".join(lines[:-1]), scope)
    return eval(lines[-1], scope)


def direct(frame, s: Settings) -> pd.DataFrame:
    function, args, kw = call_of(s)
    return getattr(A, function)(frame, *args, **kw)


@pytest.mark.parametrize("question", ["funnel", "retention", "lifecycle", "stickiness", "paths", "experiment"])
def test_each_question_answers_as_its_function_and_its_code(frame, question):
    ex = wt.explore(frame, question="funnel")
    first = (ex.revision, ex.png)
    ex.question.value = question
    s = ex.settings
    assert s.question == question and ex.problem is None
    assert ex.revision == first[0] + 1 and ex.png.startswith(PNG) and ex.png != first[1] or question == "funnel"
    pd.testing.assert_frame_equal(ex.table, direct(frame, s))
    pd.testing.assert_frame_equal(run_code(ex.code, frame), ex.table)
    assert f'data-question="{question}"' in ex.chart.value and f'data-revision="{ex.revision}"' in ex.chart.value
    assert "<table" in ex.grid.value and ex.source.value == ex.code
    # only the controls the question reads are shown
    shown = {n for n, c in ex._controls.items() if c.layout.display != "none"}
    assert shown == {"question", "by", "first_day", "last_day", "filter_field", *USES[question]}  # no filter values


def test_days_filter_breakdown_and_unit_cut_the_events_as_the_code_does(frame, lake):
    for events, given in ((frame, frame), (lake, None)):
        ex = Explorer(events)
        days = ex.events.days
        assert len(days) >= 7
        ex.first_day.value, ex.last_day.value = days[1], days[3]
        ex.filter_field.value = "device"
        assert "mobile" in [v for _, v in ex.filter_values.options]
        ex.filter_values.value = ("mobile",)
        ex.breakdown.value = "referrer"
        ex.by.value = "sessionId"
        s = ex.settings
        assert (s.start, s.end, s.filter_field, s.filter_values, s.breakdown) == (days[1], days[3], "device",
                                                                                  ("mobile",), "referrer")
        # by hand: the events of days 2 to 4, of the sessions with a mobile viewer_loaded in them
        t = given if given is not None else pd.read_parquet(lake).drop(columns="date")
        t = t[(t["timestamp"] >= pd.Timestamp(days[1], tz="UTC")) & (t["timestamp"] < pd.Timestamp(days[4], tz="UTC"))]
        kept = t[t["sessionId"].isin(set(t.loc[t["payload.device"] == "mobile", "sessionId"]))]
        expected = direct(kept, s)
        pd.testing.assert_frame_equal(ex.table, expected, check_dtype=False)
        got = run_code(ex.code, given)
        pd.testing.assert_frame_equal(got, ex.table)
        assert ("wt.read_events(" in ex.code) == (given is None) and ".compute()" not in ex.code
        assert ex.table["referrer"].nunique() > 1 and ex.table["count"].iloc[0] < len(kept)


def test_answers_are_kept_by_the_settings_they_answer(frame, monkeypatch):
    calls = []
    real = A.lifecycle
    monkeypatch.setattr(A, "lifecycle", lambda *a, **k: calls.append(1) or real(*a, **k))
    ex = Explorer(frame, question="lifecycle")
    assert len(calls) == 1
    table, png = ex.table, ex.png
    ex.question.value = "stickiness"
    ex.within.value = "1D"   # a funnel's setting: the lifecycle it goes back to is the same question
    ex.question.value = "lifecycle"
    assert len(calls) == 1 and ex.table is table and ex.png == png
    ex.period.value = "7D"
    assert len(calls) == 2 and ex.table["period"].dt.day_of_week.eq(0).all()


def test_a_question_the_data_cannot_answer_says_why(frame):
    ex = Explorer(frame, question="lifecycle")
    ex.event.value = "load_error" if "load_error" in ex.events.keys else ex.events.keys[0]
    ex.steps.value = ["viewer_loaded"]
    ex.question.value = "funnel"
    assert ex.problem is None and len(ex.table) == 1
    ex.question.value = "experiment"
    ex.variant_field.value = "device"  # not an experiment's field, but a field: a readout by device
    assert ex.problem is None and set(ex.table["variant"]) >= {"mobile", "desktop"}
    # the analysis' warnings are shown under the table (devices are not an even split)
    assert any("sample ratio mismatch" in n for n in ex.notes) and "wb-explorer-note" in ex.grid.value
    bad = Explorer(frame.assign(visitorId=None), question="retention")
    assert bad.events.units == ["sessionId"] and bad.problem is None


def test_the_picture_is_in_the_output_for_a_run_without_a_browser(frame):
    ex = Explorer(frame, question="retention")
    bundle = ex._repr_mimebundle_()
    assert bundle["image/png"] == ex.png and ex.png.startswith(PNG)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("<workbench explorer: wt.retention(events")


def test_a_lake_too_large_for_this_process_is_answered_through_dask(lake, monkeypatch):
    monkeypatch.setattr(explorer_data, "IN_PROCESS_ROWS", 1_000)
    ex = Explorer(wt.read_events(lake), question="stickiness")
    assert ex.events.lazy
    small = Explorer(lake, question="stickiness")  # the same lake read into memory
    monkeypatch.undo()
    pd.testing.assert_frame_equal(ex.table, Explorer(lake, question="stickiness").table)
    ex.filter_field.value = "platform"
    ex.filter_values.value = ("ios",)
    assert ".compute()" in ex.code
    pd.testing.assert_frame_equal(run_code(ex.code), ex.table)
    assert small.table is not None


def test_bad_input_is_refused_naming_it():
    with pytest.raises(TypeError, match="explore: events: list is neither a DataFrame"):
        wt.explore([1, 2])
    with pytest.raises(KeyError, match="explore: events: missing column"):
        wt.explore(pd.DataFrame({"sessionId": ["a"]}))
    with pytest.raises(ValueError, match="explore: question: 'cohorts' is not one of"):
        call_of(Settings(question="cohorts"))
