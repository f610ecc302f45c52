"""Lifecycle, stickiness, time to convert and funnel correlation: hand-computed tables (ties, period and window edges,
a zone), statsmodels' numbers where it computes them, refusals, empty and one-event inputs; then pandas = Dask for
every new question on a synthetic lake bucketed by workbench and on one dealt round-robin."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from workbench.tracking import analysis as A

MS = pd.Timedelta(milliseconds=1)


def events(rows, by="visitorId") -> pd.DataFrame:
    """(unit, key, ISO time[, payload]) rows as an event table."""
    return pd.DataFrame({by: [r[0] for r in rows], "key": [r[1] for r in rows],
                         "timestamp": pd.to_datetime([r[2] for r in rows], utc=True, format="ISO8601"),
                         "payload": [r[3] if len(r) > 3 else {} for r in rows],
                         "id": [f"e{i}" for i in range(len(rows))]})


# ------------------------------------------------------------------------------------------------
# Lifecycle
# ------------------------------------------------------------------------------------------------

ACTIVE = events([
    ("a", "interaction_start", "2026-11-01T10:00:00Z"), ("a", "interaction_start", "2026-11-02T23:59:59.999Z"),
    ("a", "interaction_start", "2026-11-04T00:00:00Z"),
    ("b", "interaction_start", "2026-11-02T00:00:00Z"), ("b", "interaction_start", "2026-11-03T12:00:00Z"),
    ("c", "interaction_start", "2026-11-04T12:00:00Z"),
    ("d", "heartbeat", "2026-11-01T08:00:00Z"), ("d", "heartbeat", "2026-11-05T12:00:00Z"),  # never active
])
COLUMNS = ["new", "returning", "resurrecting", "dormant", "active"]


def test_lifecycle_by_hand_in_utc():
    out = A.lifecycle(ACTIVE, event="interaction_start", by="visitorId")
    assert out["period"].dt.strftime("%m-%d").tolist() == ["11-01", "11-02", "11-03", "11-04", "11-05"]
    assert out[COLUMNS].values.tolist() == [
        [1, 0, 0, 0, 1],    # 11-01 a's first
        [1, 1, 0, 0, 2],    # 11-02 b's first at midnight sharp; a back (23:59:59.999 is still 11-02)
        [0, 1, 0, -1, 1],   # 11-03 b again; a not: dormant
        [1, 0, 1, -1, 2],   # 11-04 c's first; a back after a gap (midnight sharp is 11-04); b gone
        [0, 0, 0, -2, 0],   # 11-05, the data's last day (d's heartbeat): a and c gone
    ]


def test_lifecycle_counts_days_in_the_zone_given():
    out = A.lifecycle(ACTIVE, event="interaction_start", by="visitorId", tz="America/New_York")
    # New York (EDT to 11-01 02:00, then EST): a 11-01 06:00, 11-02 18:59, 11-03 19:00; b 11-01 19:00,
    # 11-03 07:00; c 11-04 07:00; d's last 11-05 07:00
    assert str(out["period"][0]) == "2026-11-01 00:00:00-04:00"
    assert out[COLUMNS].values.tolist() == [[2, 0, 0, 0, 2], [0, 1, 0, -1, 1], [0, 1, 1, 0, 2],
                                            [1, 0, 0, -2, 1], [0, 0, 0, -1, 0]]
    weekly = A.lifecycle(ACTIVE, event="interaction_start", by="visitorId", period="7D")
    # weeks from Monday: 10-26 (a on Sunday 11-01), 11-02 (all of a, b, c; a returning)
    assert weekly["period"].dt.strftime("%m-%d").tolist() == ["10-26", "11-02"]
    assert weekly[COLUMNS].values.tolist() == [[1, 0, 0, 0, 1], [2, 1, 0, 0, 3]]


# ------------------------------------------------------------------------------------------------
# Stickiness
# ------------------------------------------------------------------------------------------------

def test_active_pairs_marked_slice_by_slice_are_unique_pairs(monkeypatch):
    """lifecycle's and stickiness's (unit, period) pairs, marked a slice at a time, are ``unique_pairs`` of the hits:
    slices that cut a unit's rows, missing units and times, hits left out, days, weeks and hours; and the same when
    the table of possible pairs is bounded by the ends of all rows with a unit and a time (``ends``, as
    ``active_periods`` passes them: no reduction masked by the interleaved hits)."""
    import sys

    from workbench.tracking.analysis.common import unique_pairs
    from workbench.tracking.analysis.times import NAT, period_number

    lifecycle_module = sys.modules["workbench.tracking.analysis.lifecycle"]
    monkeypatch.setattr(lifecycle_module, "_CHUNK", 1000)  # many slices on a small table
    rng = np.random.default_rng(7)
    for _ in range(30):
        n = int(rng.integers(1, 5000))
        g = rng.integers(-1, int(rng.integers(1, 800)), n).astype(np.int32)
        t = rng.integers(1_790_000_000_000, 1_790_000_000_000 + int(rng.integers(1, 30)) * 86_400_000, n)
        t[rng.random(n) < 0.02] = NAT
        hit = (g >= 0) & (t != NAT) & (rng.random(n) < 0.7)
        ok = (g >= 0) & (t != NAT)
        # active_periods' ends: the least and greatest time of the rows with a unit and a time (hits among them)
        ends = np.array([t.min(where=ok, initial=np.iinfo(np.int64).max), t.max(where=ok, initial=NAT)])
        for p in (86_400 * 10**9, 7 * 86_400 * 10**9, 3_600 * 10**9):
            want = unique_pairs(g[hit], period_number(t[hit], p, None), counts=False)[:2]
            for got in (lifecycle_module._pairs(g, t, hit, p, None), lifecycle_module._pairs(g, t, hit, p, None, ends=ends)):
                assert [x.tolist() for x in got] == [x.tolist() for x in want]


def test_stickiness_by_hand_with_window_edges():
    df = events([("a", "interaction_start", "2026-11-02T00:00:00Z"), ("a", "interaction_start", "2026-11-02T09:00:00Z"),
                 ("a", "interaction_start", "2026-11-03T09:00:00Z"),                 # a: 2 days of the week
                 ("b", "interaction_start", "2026-11-08T23:59:59.999Z"),             # b: Sunday, the week's last ms
                 ("c", "interaction_start", "2026-11-09T00:00:00Z")])                # c: the next week
    out = A.stickiness(df, event="interaction_start", by="visitorId")
    week = out[out["window"].dt.strftime("%m-%d") == "11-02"]
    assert week["periods_active"].tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert week["count"].tolist() == [1, 1, 0, 0, 0, 0, 0]
    assert week["share"].tolist() == [0.5, 0.5, 0, 0, 0, 0, 0] and week["at_least"].tolist() == [2, 1, 0, 0, 0, 0, 0]
    # the data run from Monday 11-02 00:00 to Monday 11-09 00:00: the first week whole, the second begun only
    assert out.groupby(out["window"].dt.strftime("%m-%d"))["complete"].first().to_dict() == {"11-02": True,
                                                                                           "11-09": False}
    two_days = A.stickiness(df, event="interaction_start", by="visitorId", period="12h", within="2D")
    # 2-day windows from Monday 1970-01-05: 11-01 and 11-02 share one; a's 00:00 and 09:00 are one half-day,
    # its 11-03 09:00 another window's
    first = two_days[two_days["count"] > 0].iloc[0]
    assert (first["window"].strftime("%m-%d"), first["periods_active"], first["count"]) == ("11-01", 1, 1)


# ------------------------------------------------------------------------------------------------
# Time to convert
# ------------------------------------------------------------------------------------------------

def timed(groups) -> pd.DataFrame:
    rows = []
    for g, steps in groups.items():
        rows += [(g, key, pd.Timestamp("2026-11-01", tz="UTC") + pd.Timedelta(seconds=s)) for key, s in steps]
    return pd.DataFrame({"sessionId": [r[0] for r in rows], "key": [r[1] for r in rows],
                         "timestamp": [r[2] for r in rows]})


STEPS = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
TIMED = timed({"s1": [("viewer_loaded", 0), ("hotspot_opened", 10), ("cta_clicked", 40)],
               "s2": [("viewer_loaded", 0), ("hotspot_opened", 20), ("cta_clicked", 30)],
               "s3": [("viewer_loaded", 0), ("hotspot_opened", 60)],
               "s4": [("viewer_loaded", 0)],
               "s5": [("viewer_loaded", 0), ("hotspot_opened", 0)],       # the same millisecond: 0 s
               "s6": [("viewer_loaded", 0), ("hotspot_opened", 7200)]})   # 2 h later: outside the hour


def test_time_to_convert_by_hand():
    out = A.time_to_convert(TIMED, STEPS, percentiles=(0.5, 0.9))
    assert out["step"].tolist() == ["hotspot_opened", "cta_clicked", "(all steps)"]
    assert out["from_step"].tolist() == ["viewer_loaded", "hotspot_opened", "viewer_loaded"]
    assert out["groups"].tolist() == [4, 2, 2]
    # hotspot: 10, 20, 60, 0 s: mean 22.5; sorted 0, 10, 20, 60: median 15, p90 at rank 2.7: 20 + 0.7 * 40 = 48
    # cta: 30, 10: mean 20, median 20, p90 10 + 0.9 * 20 = 28; end to end 40, 30: 35, 35, 30 + 0.9 * 10 = 39
    assert out["mean_s"].tolist() == [22.5, 20.0, 35.0]
    assert out["p50_s"].tolist() == [15.0, 20.0, 35.0]
    assert out["p90_s"].tolist() == pytest.approx([48.0, 28.0, 39.0])
    assert out["min_s"].tolist() == [0.0, 10.0, 30.0] and out["max_s"].tolist() == [60.0, 30.0, 40.0]
    assert out["p50_s"].tolist()[:2] == A.funnel(TIMED, STEPS)["median_s"].tolist()[1:]  # the funnel's medians


# ------------------------------------------------------------------------------------------------
# Funnel correlation
# ------------------------------------------------------------------------------------------------

def correlated() -> pd.DataFrame:
    m = 60  # seconds in a minute
    rows = {"g1": [("viewer_loaded", 0, {"device": "mobile"}), ("hotspot_opened", m), ("cta_clicked", 2 * m)],
            "g2": [("viewer_loaded", 0, {"device": "desktop"}), ("hotspot_opened", m), ("cta_clicked", 3 * m)],
            "g3": [("viewer_loaded", 0, {"device": "mobile"}), ("fullscreen_toggled", m, {"enabled": True})],
            "g4": [("viewer_loaded", 0, {"device": "mobile"}), ("hotspot_opened", 30 * m),
                   ("fullscreen_toggled", 70 * m, {"enabled": True})],        # 70 min: after its window
            "g5": [("viewer_loaded", 0, {"device": "desktop"}), ("heartbeat", 0, {"visible": True})],  # same ms
            "g6": [("hotspot_opened", 0)]}                                      # never entered
    flat = [(g, e[0], e[1], e[2] if len(e) > 2 else {}) for g, es in rows.items() for e in es]
    return pd.DataFrame({"sessionId": [r[0] for r in flat], "key": [r[1] for r in flat],
                         "timestamp": [pd.Timestamp("2026-11-01", tz="UTC") + pd.Timedelta(seconds=r[2]) for r in flat],
                         "payload": [r[3] for r in flat]})


def test_funnel_correlation_by_hand_and_as_statsmodels_computes_it():
    """The table as counted (``definition="table2x2"``); PostHog's, the default, is tested in test_posthog.py."""
    from statsmodels.stats.contingency_tables import Table2x2

    out = A.funnel_correlation(correlated(), ["viewer_loaded", "cta_clicked"], properties=["device"],
                               definition="table2x2")
    # g1, g2 converted; g3, g4, g5 did not. hotspot inside the window: g1, g2 | g4; fullscreen: - | g3 (g4's came
    # after its hour); g5's heartbeat shares the first step's millisecond: not inside. mobile: g1 | g3, g4;
    # desktop: g2 | g5
    assert out[["kind", "name", "value", "success_with", "failure_with", "success_without", "failure_without"]
               ].values.tolist() == [["event", "hotspot_opened", "", 2, 1, 0, 2],
                                     ["property", "device", "desktop", 1, 1, 1, 2],
                                     ["event", "fullscreen_toggled", "", 0, 1, 2, 2],
                                     ["property", "device", "mobile", 1, 2, 1, 1]]
    # hotspot: [[2, 1], [0, 2]], its 0 counted 0.5: 2 * 2 / (1 * 0.5) = 8; desktop 1 * 2 / (1 * 1) = 2;
    # fullscreen 0.5 * 2 / (1 * 2) = 0.5; mobile 1 * 1 / (2 * 1) = 0.5 (ties: events before properties)
    assert out["odds_ratio"].tolist() == [8.0, 2.0, 0.5, 0.5]
    assert out["correlation"].tolist() == ["success", "success", "failure", "failure"]
    # Woolf: ln 8 +- 1.959964 * sqrt(1/2 + 1/1 + 1/0.5 + 1/2) = 2.0794415 +- 3.9199280
    assert out.loc[0, ["odds_ratio_low", "odds_ratio_high"]].tolist() == pytest.approx(
        [math.exp(2.0794415 - 3.9199280), math.exp(2.0794415 + 3.9199280)])
    table = Table2x2(np.array([[2, 1], [0, 2]]))
    assert out.loc[0, "p_value"] == pytest.approx(table.oddsratio_pvalue())  # z = 2.0794415 / 2: 0.2984
    assert out.loc[0, "p_value"] == pytest.approx(0.2984, abs=1e-4)


def test_a_misspelt_property_is_named_and_ignore_leaves_keys_out():
    df = correlated()
    with pytest.warns(UserWarning, match="funnel_correlation: properties: no event has 'devcie'.*did you mean 'device'"):
        out = A.funnel_correlation(df, ["viewer_loaded", "cta_clicked"], properties=["devcie"])
    assert "devcie" not in out["name"].tolist()
    out = A.funnel_correlation(df, ["viewer_loaded", "cta_clicked"], ignore=["hotspot_opened"])
    assert out["name"].tolist() == ["fullscreen_toggled"]


# ------------------------------------------------------------------------------------------------
# Refusals, empty and one-event inputs
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda df: A.lifecycle(df, event="interactoin_start"), "lifecycle: event: 'interactoin_start' is not an event key"),
    (lambda df: A.lifecycle(df, event="interaction_start", period=86400), "lifecycle: period: 86400 is a bare number"),
    (lambda df: A.stickiness(df, event="interaction_start", within="30h"), "stickiness: within: '30h' is not a whole"),
    (lambda df: A.stickiness(df, event="heartbaet"), "stickiness: event: 'heartbaet' is not an event key"),
    (lambda df: A.time_to_convert(df, STEPS, percentiles=(0.5, 90)), "time_to_convert: percentiles"),
    (lambda df: A.time_to_convert(df, "viewer_loaded,cta_clicked"), "funnel: steps: give a list"),
    (lambda df: A.funnel_correlation(df, ["viewer_loaded"]), "funnel_correlation: steps: give at least two"),
    (lambda df: A.funnel_correlation(df, STEPS, properties="device"), "funnel_correlation: properties: give a list"),
    (lambda df: A.funnel_correlation(df, STEPS, level=95), "funnel_correlation: level: 95"),
])
def test_bad_options_are_refused_naming_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call(ACTIVE.rename(columns={"visitorId": "sessionId"}))


@pytest.mark.parametrize("name, call", [
    ("lifecycle", lambda df: A.lifecycle(df, event="interaction_start")),
    ("stickiness", lambda df: A.stickiness(df, event="interaction_start")),
    ("time_to_convert", lambda df: A.time_to_convert(df, STEPS)),
    ("funnel_correlation", lambda df: A.funnel_correlation(df, STEPS, properties=["device"])),
])
def test_empty_and_one_event_inputs_are_answered(name, call):
    empty = pd.DataFrame({"sessionId": pd.Series([], dtype="str"), "key": pd.Series([], dtype="str"),
                          "timestamp": pd.Series([], dtype="str")})  # what a filter that kept nothing leaves
    assert len(call(empty)) == 0 or name == "time_to_convert"
    one = pd.DataFrame({"sessionId": ["s"], "key": ["interaction_start"], "timestamp": ["2026-11-01T10:00:00Z"]})
    got = call(one)
    expected = {"lifecycle": [[1, 0, 0, 0, 1]], "stickiness": [1, 0, 0, 0, 0, 0, 0]}.get(name)
    if name == "lifecycle":
        assert got[COLUMNS].values.tolist() == expected
    elif name == "stickiness":
        assert got["count"].tolist() == expected
    elif name == "time_to_convert":
        assert got["groups"].tolist() == [0, 0, 0] and got["mean_s"].isna().all()
    else:
        assert len(got) == 0


# ------------------------------------------------------------------------------------------------
# pandas = Dask, on a synthetic lake bucketed by workbench and on the same events dealt round-robin
# ------------------------------------------------------------------------------------------------

NEW_QUESTIONS = {
    "lifecycle": lambda d: A.lifecycle(d, event="interaction_start", by="visitorId"),
    "lifecycle weekly in a zone": lambda d: A.lifecycle(d, event="hotspot_opened", by="visitorId", period="7D",
                                                       tz="America/New_York"),
    "stickiness": lambda d: A.stickiness(d, event="interaction_start", by="visitorId"),
    "stickiness of sessions by hour": lambda d: A.stickiness(d, event="heartbeat", period="1h", within="1D"),
    "time to convert": lambda d: A.time_to_convert(d, STEPS),
    "time to convert, any order": lambda d: A.time_to_convert(d, STEPS, order="any", by="visitorId", within="1D"),
    "correlation": lambda d: A.funnel_correlation(d, STEPS, properties=["device", "platform"], ignore=["heartbeat"]),
    "variants: a mean with CUPED": lambda d: A.compare_variants(d, variant_field="variant", metric="mean",
                                                                value="hotspot_opened", by="visitorId", covariate=True),
    "variants: a ratio, sequential": lambda d: A.compare_variants(d, variant_field="variant", metric="ratio",
                                                                  numerator="hotspot_opened", by="visitorId",
                                                                  denominator="viewer_loaded", interval="sequential"),
    "variants: a conversion with CUPED": lambda d: A.compare_variants(d, variant_field="variant", by="visitorId",
                                                                      success_key="cta_clicked", covariate="3D"),
    "variants: a field's mean": lambda d: A.compare_variants(d, variant_field="variant", metric="mean", by="visitorId",
                                                             value=("viewer_closed", "durationMs")),
}


@pytest.fixture(scope="module")
def lakes(tmp_path_factory):
    import pyarrow.parquet as pq

    from workbench.tracking.lake import read_events, write_synth_lake

    root = tmp_path_factory.mktemp("engagement")
    lake = write_synth_lake(root / "bucketed", 40_000, seed=6, chunk_events=10_000,
                            experiment_start="2026-11-04T00:00:00Z")
    table = pq.read_table(lake).drop_columns(["date"])
    plain = root / "round_robin"
    plain.mkdir()
    for i in range(3):  # rows dealt round-robin: a visitor's events in every file
        pq.write_table(table.take(np.arange(i, table.num_rows, 3)), plain / f"part-{i}.parquet")
    return table.to_pandas(), {"bucketed": read_events(lake), "round_robin": read_events(plain)}


@pytest.mark.parametrize("name", list(NEW_QUESTIONS))
def test_pandas_equals_dask_for_the_new_questions(lakes, name):
    pdf, frames = lakes
    expected = NEW_QUESTIONS[name](pdf)
    assert len(expected), name
    for layout, ddf in frames.items():
        pd.testing.assert_frame_equal(NEW_QUESTIONS[name](ddf), expected, check_exact=False, rtol=1e-9,
                                      obj=f"{name} on the {layout} lake")
