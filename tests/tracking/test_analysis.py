"""Tests of the tracking analysis functions on small hand-made frames with worked answers."""

from __future__ import annotations

import itertools
import json
import math
import random

import numpy as np
import pandas as pd
import pytest

from workbench.tracking.analysis import (
    ar_conversion,
    dwell_times,
    events_frame,
    events_over_time,
    funnel,
    load_times,
    rank,
    sessionize,
    viewer_kpis,
)

T0 = pd.Timestamp("2026-11-01T10:00:00Z")


def at(*minutes):
    return [T0 + pd.Timedelta(minutes=m) for m in minutes]


def frame(rows):
    """rows: (sessionId, key, minute[, payload])"""
    return pd.DataFrame({
        "viewerToken": "v1",
        "sessionId": [r[0] for r in rows],
        "key": [r[1] for r in rows],
        "timestamp": pd.DatetimeIndex(at(*[r[2] for r in rows])),
        "payload": [r[3] if len(r) > 3 else {} for r in rows],
    })


# ---------------------------------------------------------------- events_frame

def test_events_frame_from_records_mixed_timestamps_and_payloads(tmp_path):
    records = [
        {"viewerToken": "v", "sessionId": "s", "key": "heartbeat", "timestamp": "2026-11-01T10:00:01+01:00",
         "payload": '{"visible": true}', "id": "b"},
        {"viewerToken": "v", "sessionId": "s", "key": "viewer_loaded", "timestamp": 1793527200000,
         "payload": {"loadTimeMs": 5, "device": "mobile"}, "id": "a"},
        {"viewerToken": "v", "sessionId": "s", "key": "ar_object_placed", "timestamp": 1793527200000},
    ]
    df = events_frame(records)
    assert list(df.columns) == ["viewerToken", "sessionId", "key", "timestamp", "payload", "id"]
    assert str(df["timestamp"].dtype) == "datetime64[ns, UTC]"
    # 10:00:01+01:00 = 09:00:01Z; 1793527200000 ms = 2026-11-01T10:00:00Z (ties keep input order)
    assert df["key"].tolist() == ["heartbeat", "viewer_loaded", "ar_object_placed"]
    assert df["timestamp"].iloc[0] == pd.Timestamp("2026-11-01T09:00:01Z")
    assert df["timestamp"].iloc[1] == pd.Timestamp("2026-11-01T10:00:00Z")
    assert df["payload"].tolist() == [{"visible": True}, {"loadTimeMs": 5, "device": "mobile"}, {}]
    assert df["id"].iloc[2] is None or pd.isna(df["id"].iloc[2])

    flat = events_frame(records, flatten_payload=True)
    assert flat["payload.visible"].iloc[0] is True
    assert flat["payload.loadTimeMs"].iloc[1] == 5
    assert pd.isna(flat["payload.device"].iloc[0])

    path = tmp_path / "e.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    from_file = events_frame(path)
    pd.testing.assert_frame_equal(from_file, df)
    # a DataFrame input is copied, not changed
    raw = pd.DataFrame(records)
    events_frame(raw)
    assert raw["timestamp"].iloc[1] == 1793527200000


def test_events_frame_empty():
    df = events_frame([])
    assert len(df) == 0 and list(df.columns)[:6] == ["viewerToken", "sessionId", "key", "timestamp", "payload", "id"]


# ---------------------------------------------------------------- sessionize

def test_sessionize_gap_boundary_and_out_of_order():
    # session a, minutes (input order): 70, 0, 30, 100.5, 100 -> sorted 0, 30, 70, 100, 100.5
    # gaps: 30 (= gap, same visit), 40 (> gap: new), 30 (same), 0.5 (same)
    df = frame([("a", "x", 70), ("a", "x", 0), ("a", "x", 30), ("a", "x", 100.5), ("a", "x", 100),
                ("b", "x", 5)])
    out = sessionize(df, gap="30min")
    assert out["visit"].astype(str).tolist() == ["a#2", "a#1", "a#1", "a#2", "a#2", "b#1"]
    assert "visit" not in df.columns  # input untouched
    assert out.index.equals(df.index)
    # one ns over the gap splits
    t = pd.DatetimeIndex([T0, T0 + pd.Timedelta("30min") + pd.Timedelta(1, "ns")])
    out = sessionize(pd.DataFrame({"sessionId": "s", "timestamp": t}))
    assert out["visit"].astype(str).tolist() == ["s#1", "s#2"]


def test_sessionize_ties_one_event_empty_and_missing():
    df = frame([("a", "x", 0), ("a", "y", 0)])
    assert sessionize(df)["visit"].astype(str).tolist() == ["a#1", "a#1"]
    assert sessionize(frame([("z", "x", 0)]))["visit"].astype(str).tolist() == ["z#1"]
    empty = sessionize(frame([]))
    assert len(empty) == 0 and "visit" in empty.columns
    df = pd.DataFrame({"sessionId": ["a", None, "a"], "timestamp": pd.DatetimeIndex(at(0, 1, 90))})
    visits = sessionize(df)["visit"]
    assert visits.iloc[0] == "a#1" and pd.isna(visits.iloc[1]) and visits.iloc[2] == "a#2"


def test_sessionize_custom_columns_and_index():
    df = pd.DataFrame({"who": ["p", "p"], "when": pd.DatetimeIndex(at(0, 45))}, index=[10, 3])
    out = sessionize(df, gap="1h", by="who", time="when")
    assert out.loc[10, "visit"] == "p#1" and out.loc[3, "visit"] == "p#1"
    out = sessionize(df, gap=pd.Timedelta("10min"), by="who", time="when")
    assert out.loc[3, "visit"] == "p#2"


# ---------------------------------------------------------------- funnel

STEPS = ["viewer_loaded", "hotspot_opened", "cta_clicked"]


def counts(df, steps=STEPS, **kw):
    return funnel(df, steps, **kw)["count"].tolist()


def test_funnel_hand_worked():
    df = frame([
        # a: all three in order with noise between -> 3
        ("a", "viewer_loaded", 0), ("a", "heartbeat", 1), ("a", "hotspot_opened", 2), ("a", "cta_clicked", 3),
        # b: cta before hotspot -> reaches step 2 only
        ("b", "viewer_loaded", 0), ("b", "cta_clicked", 1), ("b", "hotspot_opened", 2),
        # c: no viewer_loaded -> nothing
        ("c", "hotspot_opened", 0), ("c", "cta_clicked", 1),
        # d: only viewer_loaded
        ("d", "viewer_loaded", 0),
    ])
    out = funnel(df, STEPS)
    assert out["step"].tolist() == STEPS
    assert out["count"].tolist() == [3, 2, 1]
    assert out["conversion"].tolist() == [1.0, 2 / 3, 1 / 3]
    assert out["step_conversion"].tolist() == [1.0, 2 / 3, 1 / 2]


def test_funnel_equal_timestamps_count_as_in_order_whatever_the_row_order():
    df = frame([("a", "cta_clicked", 5), ("a", "hotspot_opened", 5), ("a", "viewer_loaded", 5)])
    assert counts(df) == [1, 1, 1]


def test_funnel_within_window_inclusive():
    df = frame([("a", "viewer_loaded", 0), ("a", "hotspot_opened", 30), ("a", "cta_clicked", 60),
                ("b", "viewer_loaded", 0), ("b", "hotspot_opened", 30), ("b", "cta_clicked", 60.5)])
    assert counts(df, within="1h") == [2, 2, 1]
    assert counts(df, within="29min") == [2, 0, 0]


def test_funnel_best_start_not_just_earliest():
    # The first load goes nowhere within 1h; the second load converts. The earliest-start
    # rule would count a at step 1 only; the best-start rule counts it through.
    df = frame([("a", "viewer_loaded", 0), ("a", "viewer_loaded", 120), ("a", "hotspot_opened", 125),
                ("a", "cta_clicked", 130)])
    assert counts(df) == [1, 1, 1]


def test_funnel_out_of_order_input():
    df = frame([("a", "cta_clicked", 3), ("a", "viewer_loaded", 0), ("a", "hotspot_opened", 2)])
    assert counts(df) == [1, 1, 1]
    shuffled = df.sample(frac=1, random_state=3)
    assert counts(shuffled) == [1, 1, 1]


def test_funnel_repeated_step_key_needs_two_events():
    one = frame([("a", "hotspot_opened", 0)])
    two_same_time = frame([("a", "hotspot_opened", 0), ("a", "hotspot_opened", 0)])
    assert counts(one, ["hotspot_opened", "hotspot_opened"]) == [1, 0]
    assert counts(two_same_time, ["hotspot_opened", "hotspot_opened"]) == [1, 1]
    # a, b, a at one instant: needs two a events
    abx = frame([("s", "a", 0), ("s", "b", 0)])
    aba = frame([("s", "a", 0), ("s", "b", 0), ("s", "a", 0)])
    assert counts(abx, ["a", "b", "a"]) == [1, 1, 0]
    assert counts(aba, ["a", "b", "a"]) == [1, 1, 1]


def test_funnel_empty_one_event_and_missing_step():
    out = funnel(frame([]), STEPS)
    assert out["count"].tolist() == [0, 0, 0]
    assert out["conversion"].isna().all() and out["step_conversion"].isna().all()
    out = funnel(frame([("a", "viewer_loaded", 0)]), STEPS)
    assert out["count"].tolist() == [1, 0, 0]
    assert out["conversion"].tolist() == [1.0, 0.0, 0.0]
    assert out["step_conversion"].iloc[:2].tolist() == [1.0, 0.0] and math.isnan(out["step_conversion"].iloc[2])
    with pytest.raises(ValueError):
        funnel(frame([]), [])


def test_funnel_by_visit_after_sessionize():
    df = frame([("a", "viewer_loaded", 0), ("a", "hotspot_opened", 50), ("a", "cta_clicked", 55)])
    assert counts(df, within="2h") == [1, 1, 1]
    # visits: a#1 = {load at 0}; a#2 = {hotspot at 50, cta at 55}, which has no load
    assert counts(sessionize(df), by="visit", within="2h") == [1, 0, 0]


def _brute_force(df, steps, within):
    """Exhaustive search: distinct events, times non-decreasing, last - first <= within,
    events of one key used in input order among equal times."""
    reached = [0] * len(steps)
    within = pd.Timedelta(within)
    for _, g in df.groupby("sessionId"):
        g = g.reset_index(drop=True).sort_values("timestamp", kind="stable").reset_index(drop=True)
        ev = list(zip(g["key"], g["timestamp"], range(len(g)), strict=True))
        best = 0
        for depth in range(len(steps), 0, -1):
            for combo in itertools.permutations(range(len(ev)), depth):
                chosen = [ev[i] for i in combo]
                if any(chosen[j][0] != steps[j] for j in range(depth)):
                    continue
                if any(chosen[j][1] < chosen[j - 1][1] for j in range(1, depth)):
                    continue
                if chosen[-1][1] - chosen[0][1] > within:
                    continue
                same_key_ok = all(chosen[a][2] < chosen[b][2] for a in range(depth) for b in range(a + 1, depth)
                                  if chosen[a][0] == chosen[b][0])
                if same_key_ok:
                    best = depth
                    break
            if best:
                break
        for k in range(best):
            reached[k] += 1
    return reached


@pytest.mark.filterwarnings("ignore:funnel. steps. .* is neither an event key")  # a random alphabet may lack a step
@pytest.mark.parametrize("seed", range(40))
def test_funnel_agrees_with_exhaustive_search(seed):
    rnd = random.Random(seed)
    keys = ["a", "b", "c"]
    rows = [(f"s{rnd.randrange(4)}", rnd.choice(keys), rnd.choice([0, 0, 10, 20, 30, 45, 60, 61, 90]))
            for _ in range(rnd.randrange(0, 9))]
    df = frame(rows)
    steps = rnd.choice([["a", "b", "c"], ["a", "b"], ["a", "a", "b"], ["b", "a", "b"], ["c"]])
    assert counts(df, steps, within="40min") == _brute_force(df, steps, "40min"), (rows, steps)


# ---------------------------------------------------------------- analyst functions

def test_load_times_per_device():
    df = frame([
        ("a", "viewer_loaded", 0, {"loadTimeMs": 100, "device": "mobile"}),
        ("b", "viewer_loaded", 0, {"loadTimeMs": 200, "device": "mobile"}),
        ("c", "viewer_loaded", 0, {"loadTimeMs": 400, "device": "mobile"}),
        ("d", "viewer_loaded", 0, {"loadTimeMs": 1000}),
        ("e", "model_loaded", 0, {"loadTimeMs": 99999}),
    ])
    out = load_times(df, percentiles=(0.5, 0.9))
    assert out["device"].tolist() == ["mobile", "unknown"]
    assert out["count"].tolist() == [3, 1]
    # linear interpolation over 100, 200, 400: p50 = 200, p90 = 200 + 0.8 * 200 = 360
    assert out["p50"].tolist() == [200.0, 1000.0]
    assert out["p90"].tolist() == pytest.approx([360.0, 1000.0])
    assert out["mean_ms"].tolist() == pytest.approx([700 / 3, 1000.0])
    assert list(out.columns) == ["device", "count", "mean_ms", "p50", "p90"]


def test_load_times_reads_flattened_columns():
    df = pd.DataFrame({"key": ["viewer_loaded", "viewer_loaded"], "payload.loadTimeMs": [10.0, 30.0],
                       "payload.device": ["desktop", None]})
    out = load_times(df, percentiles=(0.99,))
    assert out.to_dict("list") == {"device": ["desktop", "unknown"], "count": [1, 1], "mean_ms": [10.0, 30.0],
                                   "p99": [10.0, 30.0]}


def test_dwell_times():
    df = frame([
        ("a", "viewer_loaded", 0), ("a", "heartbeat", 5), ("a", "viewer_closed", 10, {"durationMs": 600500}),
        ("a", "viewer_loaded", 100),                       # second visit, no close
        ("b", "viewer_loaded", 3),
    ])
    out = dwell_times(df)
    assert out["visit"].tolist() == ["a#1", "a#2", "b#1"]
    assert out["events"].tolist() == [3, 1, 1]
    assert out["duration_s"].tolist() == [600.0, 0.0, 0.0]
    assert out["closed_duration_s"].iloc[0] == 600.5
    assert out["closed_duration_s"].iloc[1:].isna().all()
    assert out["sessionId"].tolist() == ["a", "a", "b"]
    assert out["start"].iloc[1] == T0 + pd.Timedelta(minutes=100)


def test_ar_conversion_per_platform():
    df = frame([
        ("a", "ar_requested", 0, {"platform": "ios"}), ("a", "ar_session_started", 1, {"platform": "ios"}),
        ("a", "ar_object_placed", 2),
        ("b", "ar_requested", 0, {"platform": "ios"}), ("b", "ar_session_started", 1, {"platform": "ios"}),
        ("c", "ar_requested", 0, {"platform": "android"}),
        ("d", "ar_object_placed", 0),                      # no request: not counted
        ("e", "ar_requested", 0, {"platform": "webxr"}), ("e", "ar_requested", 1, {"platform": "ios"}),
    ])
    out = ar_conversion(df)
    assert out["platform"].tolist() == ["android", "ios", "webxr"]
    assert out["requested"].tolist() == [1, 2, 1]
    assert out["started"].tolist() == [0, 2, 0]
    assert out["placed"].tolist() == [0, 1, 0]
    assert out["start_rate"].tolist() == [0.0, 1.0, 0.0]
    assert out["overall_rate"].tolist() == [0.0, 0.5, 0.0]
    assert math.isnan(out["place_rate"].iloc[0]) and out["place_rate"].iloc[1] == 0.5


def test_rank_hotspots():
    df = frame([
        ("a", "hotspot_opened", 0, {"hotspotId": "h2"}), ("a", "hotspot_opened", 1, {"hotspotId": "h2"}),
        ("b", "hotspot_opened", 0, {"hotspotId": "h2"}), ("b", "hotspot_opened", 1, {"hotspotId": "h1"}),
        ("c", "hotspot_opened", 0, {"hotspotId": "h3"}), ("c", "variant_selected", 0, {"variantId": "x"}),
    ])
    out = rank(df)
    assert out.to_dict("list") == {"rank": [1, 2, 3], "hotspotId": ["h2", "h1", "h3"], "count": [3, 1, 1],
                                   "sessions": [2, 1, 1], "share": [0.6, 0.2, 0.2]}
    assert len(rank(df, "cta_clicked", "target")) == 0


def test_events_over_time():
    df = frame([("a", "x", 0), ("a", "y", 59.9), ("a", "x", 60), ("a", "x", 185)])
    out = events_over_time(df, freq="1h")
    assert out.index.tolist() == [T0, T0 + pd.Timedelta("1h"), T0 + pd.Timedelta("2h"), T0 + pd.Timedelta("3h")]
    assert out["x"].tolist() == [1, 1, 0, 1]
    assert out["y"].tolist() == [1, 0, 0, 0]
    assert events_over_time(df, freq="1D", by=None)["events"].tolist() == [4]
    assert len(events_over_time(frame([]))) == 0


def test_viewer_kpis():
    df = pd.concat([
        frame([("a", "viewer_loaded", 0, {"loadTimeMs": 100}), ("a", "ar_session_started", 4, {"platform": "ios"}),
               ("a", "viewer_closed", 10, {"durationMs": 1}),
               ("a", "viewer_loaded", 120, {"loadTimeMs": 300}),
               ("b", "viewer_loaded", 0, {"loadTimeMs": 500})]),
        frame([("c", "viewer_loaded", 0, {"loadTimeMs": 7})]).assign(viewerToken="v2"),
    ], ignore_index=True)
    out = viewer_kpis(df)
    assert out["viewerToken"].tolist() == ["v1", "v2"]
    assert out["sessions"].tolist() == [2, 1]
    assert out["visits"].tolist() == [3, 1]
    assert out["events"].tolist() == [5, 1]
    assert out["median_load_ms"].tolist() == [300.0, 7.0]
    assert out["ar_rate"].tolist() == [pytest.approx(1 / 3), 0.0]
    # visits of v1: 600 s, 0 s, 0 s
    assert out["mean_dwell_s"].tolist() == [200.0, 0.0]


def test_functions_do_not_change_their_input():
    df = frame([("a", "viewer_loaded", 0, {"loadTimeMs": 1, "device": "mobile"}), ("a", "ar_requested", 1,
                                                                                  {"platform": "ios"})])
    before = df.copy(deep=True)
    for fn in (sessionize, dwell_times, viewer_kpis, load_times, ar_conversion, rank, events_over_time):
        fn(df)
    funnel(df, STEPS)
    pd.testing.assert_frame_equal(df, before)


def test_plots_return_axes():
    import matplotlib
    matplotlib.use("Agg", force=False)
    from workbench.tracking.analysis import plot_events_over_time, plot_funnel, plot_load_times, plot_rank

    df = frame([("a", "viewer_loaded", 0, {"loadTimeMs": 1, "device": "mobile"}),
                ("a", "hotspot_opened", 1, {"hotspotId": "h"})])
    for ax in (plot_funnel(funnel(df, STEPS)), plot_load_times(df), plot_events_over_time(df), plot_rank(rank(df))):
        assert hasattr(ax, "figure")


def test_plots_draw_on_the_axes_of_a_subfigure():
    """An Axes given may sit in a panel of a figure a person composed (``fig.subfigures``), which has no layout of its
    own to tighten: the chart is drawn there all the same (it raised AttributeError, found by mypy)."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from workbench.tracking.analysis import plot_funnel

    panel = plt.figure().subfigures(1, 2)[0]
    ax = panel.subplots()
    steps = pd.DataFrame({"step": ["interaction_start", "interaction_end_after_a_while"], "count": [4, 1]})
    assert plot_funnel(steps, ax=ax) is ax and ax.get_ylabel() == "visits reaching the step"
    plt.close("all")


def test_categorical_columns_give_the_same_answers():
    df = frame([("a", "viewer_loaded", 0), ("a", "hotspot_opened", 10), ("b", "viewer_loaded", 0),
                ("a", "cta_clicked", 50), ("b", "hotspot_opened", 45)])
    cat = df.assign(sessionId=pd.Categorical(df["sessionId"], categories=["zz", "b", "a"]),
                    key=pd.Categorical(df["key"]))
    cat.loc[4, "sessionId"] = np.nan
    plain = df.assign(sessionId=df["sessionId"].where(df.index != 4))
    assert sessionize(cat)["visit"].astype(object).tolist() == sessionize(plain)["visit"].astype(object).tolist()
    assert sessionize(cat)["visit"].astype(object).tolist()[:4] == ["a#1", "a#1", "b#1", "a#2"]
    # a: load 0, hotspot 10, cta 50 (within 1h); b lost its hotspot to the missing sessionId
    assert counts(cat) == counts(plain) == [2, 1, 1]
    # by visit: a#1 = {0, 10}, a#2 = {50}, b#1 = {0}
    assert counts(sessionize(cat), by="visit") == [2, 1, 0]


def test_events_frame_datetime_objects_and_missing_timestamps():
    import datetime as dt

    df = events_frame([
        {"key": "b", "timestamp": "2026-01-01T00:00:01Z"},
        {"key": "a", "timestamp": dt.datetime(2026, 1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=1)))},
        {"key": "c", "timestamp": None},
    ])
    # 01:00+01:00 is midnight UTC: a sorts first; NaT sorts last
    assert df["key"].tolist() == ["a", "b", "c"]
    assert df["timestamp"].iloc[0] == pd.Timestamp("2026-01-01T00:00:00Z") and pd.isna(df["timestamp"].iloc[2])


def test_charts_name_what_they_count_and_keep_outliers_readable():
    import matplotlib

    matplotlib.use("Agg")
    from workbench.tracking.analysis import plot_funnel, plot_load_times

    ax = plot_funnel(pd.DataFrame({"step": ["viewer_loaded", "interaction_start", "hotspot_opened", "cta_clicked"],
                                   "count": [10, 8, 4, 1]}))
    assert ax.get_ylabel() == "visits reaching the step" and ax.get_xlabel() == ""
    fig = ax.figure
    fig.canvas.draw()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    assert box.x0 >= -1 and box.y0 >= -1, "tick labels cut off"  # tight_layout keeps tilted labels in
    loads = [100.0] * 50 + [150.0] * 50 + [20_000.0]
    df = pd.DataFrame({"key": ["viewer_loaded"] * len(loads),
                       "payload": [{"loadTimeMs": v, "device": "mobile"} for v in loads]})
    ax = plot_load_times(df)
    assert ax.get_yscale() == "log" and "log scale" in ax.get_ylabel()
    ax = plot_load_times(df.iloc[:-1])
    assert ax.get_yscale() == "linear"
