"""Retention, funnel options, paths and experiments: hand-made tables with answers worked out by hand, an
exhaustive search as an independent funnel reference, and DuckDB SQL versions of the same definitions.

(pandas against Dask on a million events: tests/tracking/test_dask.py.)
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from helpers import reference_funnel_depth

from workbench.tracking import analysis as A
from workbench.tracking import synth

T0 = pd.Timestamp("2026-11-01", tz="UTC")


def frame(rows, by="visitorId") -> pd.DataFrame:
    """(group, key, hours after 2026-11-01 00:00 UTC[, payload]) rows as an event table."""
    return pd.DataFrame({by: [r[0] for r in rows], "key": [r[1] for r in rows],
                         "timestamp": [T0 + pd.Timedelta(hours=r[2]) for r in rows],
                         "payload": [r[3] if len(r) > 3 else {} for r in rows]})


# ------------------------------------------------------------------------------------------------
# Retention, by hand
# ------------------------------------------------------------------------------------------------

# a: first on day 0 at 10:00, back 30 h later (rolling period 1, calendar day 1) and on day 3 at 09:00
#    (71 h: rolling period 2, calendar day 3);
# b: first on day 0 at 23:00, back on day 1 at 01:00 (2 h: rolling period 0, calendar day 1);
# c: first on day 1 at 12:00, never back; d: only a cta_clicked, no start event: in no cohort.
RETENTION = frame([("a", "viewer_loaded", 10), ("a", "viewer_loaded", 40), ("a", "cta_clicked", 81),
                   ("b", "viewer_loaded", 23), ("b", "viewer_loaded", 25),
                   ("c", "viewer_loaded", 36), ("d", "cta_clicked", 50)])
END = "2026-11-06"  # day 0 cohort reaches periods up to 4 (rolling: start + (N+1) days <= end)


def test_retention_n_day_rolling_by_hand():
    out = A.retention(RETENTION, start_key="viewer_loaded", by="visitorId", periods=4, end=END)
    assert out.index.strftime("%m-%d").tolist() == ["11-01", "11-02"]
    assert out[("size", "")].tolist() == [2, 1]
    assert out["count"].to_numpy().tolist() == [[2, 1, 1, 0, 0], [1, 0, 0, 0, 0]]
    # a came back in period 1 and, with a cta_clicked (return_key=None: an event of any kind), in period 2;
    # b's return 2 h after its start is still period 0
    rates = out["rate"].to_numpy()
    assert rates[0].tolist() == [1.0, 0.5, 0.5, 0.0, 0.0]
    # cohort 11-02 reached period N when 11-02 + (N+1) days <= 11-06: N <= 3
    assert rates[1][:4].tolist() == [1.0, 0.0, 0.0, 0.0] and math.isnan(rates[1][4])


def test_retention_any_event_calendar_unbounded_and_brackets_by_hand():
    kw = dict(start_key="viewer_loaded", by="visitorId", periods=4, end=END)
    any_event = A.retention(RETENTION, return_key=None, **kw)
    assert any_event["count"].iloc[0].tolist() == [2, 1, 1, 0, 0]  # return_key=None is any event
    loaded = A.retention(RETENTION, return_key="viewer_loaded", **kw)
    assert loaded["count"].iloc[0].tolist() == [2, 1, 0, 0, 0]  # a's day-3 event was no viewer_loaded
    cta = A.retention(RETENTION, return_key="cta_clicked", **kw)
    assert cta["count"].iloc[0].tolist() == [2, 0, 1, 0, 0]  # a's cta 71 h after its start: period 2
    cal = A.retention(RETENTION, calendar=True, **kw)
    # calendar days: a back on day 1 and day 3, b back on day 1 (2 h later, but after midnight)
    assert cal["count"].iloc[0].tolist() == [2, 2, 0, 1, 0]
    unb = A.retention(RETENTION, calendar=True, kind="unbounded", return_key="cta_clicked", **kw)
    # a's last cta on calendar day 3: counted in periods 1, 2 and 3
    assert unb["count"].iloc[0].tolist() == [2, 1, 1, 1, 0]
    br = A.retention(RETENTION, calendar=True, kind="bracket", brackets=[(1, 1), (2, 4)],
                     return_key="cta_clicked", start_key="viewer_loaded", by="visitorId", end=END)
    assert br["count"].columns.tolist() == [0, 1, "2-4"] and br["count"].iloc[0].tolist() == [2, 0, 1]


def test_retention_curve_counts_only_cohorts_that_reached_the_period():
    out = A.retention(RETENTION, start_key="viewer_loaded", by="visitorId", periods=4, end=END)
    curve = A.retention_curve(out)
    assert curve["cohorts"].tolist() == [2, 2, 2, 2, 1]
    assert curve["size"].tolist() == [3, 3, 3, 3, 2]
    assert curve["rate"].round(4).tolist() == [1.0, round(1 / 3, 4), round(1 / 3, 4), 0.0, 0.0]


@pytest.mark.parametrize("kw, field", [({"kind": "sometimes"}, "kind"), ({"periods": 0}, "periods"),
                                       ({"kind": "bracket"}, "brackets"), ({"period": "-1D"}, "period"),
                                       ({"kind": "bracket", "brackets": [(3, 2)]}, "brackets")])
def test_retention_refuses_bad_options_naming_them(kw, field):
    with pytest.raises(ValueError, match=f"retention: {field}"):
        A.retention(RETENTION, start_key="viewer_loaded", by="visitorId", **kw)


# ------------------------------------------------------------------------------------------------
# Funnels: options by hand
# ------------------------------------------------------------------------------------------------

def test_funnel_orders_exclusions_and_ties_by_hand():
    m = 1 / 60  # a minute in hours
    df = frame([
        # s1: loaded, heartbeat, hotspot, cta: ordered yes; strict no (heartbeat between loaded and hotspot)
        ("s1", "viewer_loaded", 0), ("s1", "heartbeat", m), ("s1", "hotspot_opened", 2 * m), ("s1", "cta_clicked", 3 * m),
        # s2: cta before hotspot: ordered reaches hotspot only... no: cta then hotspot, so ordered stops at step 2
        ("s2", "viewer_loaded", 0), ("s2", "cta_clicked", m), ("s2", "hotspot_opened", 2 * m),
        # s3: hotspot and cta at the same millisecond, written cta first: either order, so ordered and strict
        ("s3", "viewer_loaded", 0), ("s3", "cta_clicked", m), ("s3", "hotspot_opened", m),
        # s4: a load_error between hotspot and cta: with exclude, stops at step 2
        ("s4", "viewer_loaded", 0), ("s4", "hotspot_opened", m), ("s4", "load_error", 2 * m), ("s4", "cta_clicked", 3 * m),
    ], by="sessionId")
    steps = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
    assert A.funnel(df, steps)["count"].tolist() == [4, 4, 3]               # s1, s3, s4
    assert A.funnel(df, steps, order="strict")["count"].tolist() == [4, 2, 1]  # s2, s3 reach 2; s3 all
    assert A.funnel(df, steps, order="any")["count"].tolist() == [4, 4, 4]
    assert A.funnel(df, steps, exclude=["load_error"])["count"].tolist() == [4, 4, 2]
    table = A.funnel(df, steps)
    assert table["drop_off"].tolist() == [0, 0, 1] and table["drop_off_rate"].tolist()[1:] == [0.0, 0.25]
    # times from the previous step: hotspot after 1 min (s3, s4) or 2 min (s1, s2): median 90 s, p90 120 s;
    # cta 1 min (s1), 0 (s3, tied) and 2 min (s4) later: median 60 s, p90 60 + 0.8 * 60 = 108 s
    assert table["median_s"].tolist()[1:] == [90.0, 60.0]
    assert table["p90_s"].tolist()[1:] == [pytest.approx(120.0), pytest.approx(108.0)]


@pytest.mark.parametrize("order", ["ordered", "strict", "any"])
def test_a_step_the_data_never_holds_counts_0_even_as_an_unused_category(order):
    df = frame([("a", "viewer_loaded", 0), ("a", "model_loaded", 0.1)], by="sessionId")
    df["key"] = pd.Categorical(df["key"], categories=["viewer_loaded", "model_loaded", "cta_clicked"])
    steps = ["viewer_loaded", "cta_clicked", "model_loaded"]
    assert A.funnel(df, steps, order=order)["count"].tolist()[:2] == [1, 0]


def test_funnel_breakdown_attributes_first_or_last_touch_or_seen_by_hand():
    df = frame([("a", "viewer_loaded", 0, {"device": "mobile"}), ("a", "viewer_loaded", 0.5, {"device": "desktop"}),
                ("a", "cta_clicked", 0.6), ("b", "viewer_loaded", 0, {"device": "desktop"}),
                ("c", "viewer_loaded", 0)], by="sessionId")
    first = A.funnel(df, ["viewer_loaded", "cta_clicked"], breakdown="device")
    assert first[["device", "step", "count"]].values.tolist() == [
        ["desktop", "viewer_loaded", 1], ["desktop", "cta_clicked", 0], ["mobile", "viewer_loaded", 1],
        ["mobile", "cta_clicked", 1], ["unknown", "viewer_loaded", 1], ["unknown", "cta_clicked", 0]]
    # a's counted chain starts at its 0 h load (mobile): first touch; its last event with a device is desktop
    last = A.funnel(df, ["viewer_loaded", "cta_clicked"], breakdown="device", attribution="last_seen")
    assert last.loc[last["device"] == "desktop", "count"].tolist() == [2, 1]
    # last touch is the event of the last step reached: a's cta_clicked has no device
    touch = A.funnel(df, ["viewer_loaded", "cta_clicked"], breakdown="device", attribution="last_touch")
    assert touch[["device", "count"]].values.tolist() == [["desktop", 1], ["desktop", 0], ["unknown", 2],
                                                          ["unknown", 1]]


@pytest.mark.parametrize("kw, field", [({"order": "sideways"}, "order"), ({"attribution": "middle"}, "attribution"),
                                       ({"exclude": ["cta_clicked"]}, "exclude")])
def test_funnel_refuses_bad_options_naming_them(kw, field):
    df = frame([("s", "viewer_loaded", 0)], by="sessionId")
    with pytest.raises(ValueError, match=f"funnel: {field}"):
        A.funnel(df, ["viewer_loaded", "cta_clicked"], **kw)
    with pytest.warns(UserWarning, match="funnel: exclude: 'cta_clikced'.*did you mean cta_clicked"):
        A.funnel(df, ["viewer_loaded"], exclude=["cta_clikced"])


# ------------------------------------------------------------------------------------------------
# Funnels: an exhaustive search over every choice of events, as an independent reference
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("order,exclude", [("ordered", ()), ("ordered", ("x",)), ("strict", ()), ("any", ())])
def test_funnel_agrees_with_an_exhaustive_search(order, exclude):
    rng = np.random.default_rng({"ordered": 1, "strict": 2, "any": 3}[order] + len(exclude))
    steps, within = ["a", "b", "a"], 4
    rows, groups = [], {}
    for g in range(150):
        n = int(rng.integers(1, 6))
        evs = [(str(rng.choice(["a", "b", "c", "x"])), int(rng.integers(0, 6)), f"{g}-{i}") for i in range(n)]
        groups[g] = evs
        rows += [(f"g{g}", k, t / 60, {}) for k, t, _ in evs]
    df = frame(rows, by="sessionId")
    minute = pd.Timedelta(minutes=within)
    # the keys are not event keys of the catalog but they are in the data: funnel takes them as they are
    got = A.funnel(df, steps, within=minute, order=order, exclude=list(exclude))["count"].tolist()
    depths = [reference_funnel_depth(evs, steps, within, order, set(exclude)) for evs in groups.values()]
    assert got == [sum(d >= k for d in depths) for k in range(1, len(steps) + 1)]
    assert got[-1] > 0


# ------------------------------------------------------------------------------------------------
# Paths and transitions, by hand
# ------------------------------------------------------------------------------------------------

PATHS = frame([
    ("v1", "viewer_loaded", 0), ("v1", "heartbeat", 0.1), ("v1", "hotspot_opened", 0.2), ("v1", "hotspot_opened", 0.3),
    ("v1", "cta_clicked", 0.4),
    ("v2", "viewer_loaded", 0), ("v2", "hotspot_opened", 0.2), ("v2", "cta_clicked", 0.3),
    ("v3", "model_loaded", 0), ("v3", "viewer_loaded", 0.1), ("v3", "viewer_closed", 0.2),
], by="visit")


def test_paths_from_a_start_to_an_end_and_collapsed_by_hand():
    start = A.paths(PATHS, start="viewer_loaded", steps=3, exclude=["heartbeat"])
    assert start[["path", "count", "share"]].values.tolist() == [
        ["viewer_loaded → hotspot_opened → cta_clicked", 1, 1 / 3],
        ["viewer_loaded → hotspot_opened → hotspot_opened", 1, 1 / 3],
        ["viewer_loaded → viewer_closed", 1, 1 / 3]]
    collapsed = A.paths(PATHS, start="viewer_loaded", steps=3, exclude=["heartbeat"], collapse=True)
    assert collapsed[["path", "count"]].values.tolist()[0] == ["viewer_loaded → hotspot_opened → cta_clicked", 2]
    end = A.paths(PATHS, end="cta_clicked", steps=2)
    assert end[["path", "count", "share"]].values.tolist() == [["hotspot_opened → cta_clicked", 2, 1.0]]
    both = A.paths(PATHS, start="viewer_loaded", end="cta_clicked", steps=4)
    assert both[["path", "count", "share"]].values.tolist() == [
        ["viewer_loaded → hotspot_opened → cta_clicked", 1, 1 / 3]]  # v1's end is 5 events away
    first = A.paths(PATHS, steps=1)
    assert dict(first[["path", "count"]].values.tolist()) == {"viewer_loaded": 2, "model_loaded": 1}


def test_transitions_by_hand():
    out = A.transitions(PATHS, exclude=["heartbeat"])
    got = {(f, t): (c, round(p, 3)) for f, t, c, p in out[["from", "to", "count", "probability"]].values.tolist()}
    assert got == {("viewer_loaded", "hotspot_opened"): (2, 0.667), ("viewer_loaded", "viewer_closed"): (1, 0.333),
                   ("hotspot_opened", "hotspot_opened"): (1, 0.333), ("hotspot_opened", "cta_clicked"): (2, 0.667),
                   ("model_loaded", "viewer_loaded"): (1, 1.0)}


def test_paths_refuse_bad_steps():
    with pytest.raises(ValueError, match="paths: steps"):
        A.paths(PATHS, steps=11)


# ------------------------------------------------------------------------------------------------
# Experiments, by hand
# ------------------------------------------------------------------------------------------------

def _units(variant, n, converted, offset=0):
    rows = []
    for i in range(n):
        u = f"{variant}{offset + i}"
        rows.append((u, "custom.experiment", 1, {"variant": variant}))
        if i < converted:
            rows.append((u, "cta_clicked", 2))
    return rows


def _wilson(x, n, z=1.959963984540054):
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_compare_variants_wilson_by_hand():
    df = frame(_units("control", 200, 30) + _units("treatment", 200, 50) + _units("tiny", 10, 2)
               # a conversion before exposure does not count
               + [("late", "cta_clicked", 0), ("late", "custom.experiment", 1, {"variant": "control"})],
               by="sessionId")
    # 201, 200 and 10 units where a third each was expected: the split's check flags it
    with pytest.warns(UserWarning, match="sample ratio mismatch"):
        out = A.compare_variants(df, variant_field="variant", success_key="cta_clicked").set_index("variant")
    assert out.loc["control", ["units", "conversions"]].tolist() == [201, 30]
    lo, hi = _wilson(30, 201)
    assert out.loc["control", "rate_low"] == pytest.approx(lo) and out.loc["control", "rate_high"] == pytest.approx(hi)
    assert out.loc["treatment", "difference"] == pytest.approx(50 / 200 - 30 / 201)
    # Newcombe's interval: the difference minus/plus the root of the squared distances to each Wilson limit
    l1, u1 = _wilson(50, 200)
    l0, u0 = _wilson(30, 201)
    d = 50 / 200 - 30 / 201
    assert out.loc["treatment", "difference_low"] == pytest.approx(d - math.hypot(50 / 200 - l1, u0 - 30 / 201))
    assert out.loc["treatment", "difference_high"] == pytest.approx(d + math.hypot(u1 - 50 / 200, 30 / 201 - l0))
    # 2 conversions in 10: the rate and Wilson's interval all the same (it holds at the extremes)
    assert out.loc["tiny", "rate"] == 0.2 and out.loc["tiny", "rate_low"] == pytest.approx(_wilson(2, 10)[0])
    assert out.loc["control", "note"] == "baseline, sample ratio mismatch"


def test_compare_variants_bayes_chance_to_beat():
    df = frame(_units("A", 300, 30) + _units("B", 300, 60), by="sessionId")
    out = A.compare_variants(df, variant_field="variant", success_key="cta_clicked", interval="bayes")
    b = out.set_index("variant").loc["B"]
    # posterior Beta(61, 241) against Beta(31, 271): the credible interval of B's rate from scipy, by hand
    from scipy import stats
    assert b["rate_low"] == pytest.approx(stats.beta.ppf(0.025, 61, 241))
    assert b["chance_to_beat_baseline"] > 0.999 and b["difference_low"] > 0
    assert out.equals(A.compare_variants(df, variant_field="variant", success_key="cta_clicked", interval="bayes"))


def test_compare_variants_finds_the_synthetic_lift_and_no_lift_in_an_a_a_split():
    df = synth.generate(300_000, seed=5, flat=True)
    out = A.compare_variants(df, variant_field="variant", success_key="cta_clicked", by="visitorId")
    t = out.set_index("variant").loc["treatment"]
    assert t["difference_low"] > 0 and t["p_value"] < 0.001
    control = out.set_index("variant").loc["control", "rate"]
    # the generator multiplies treatment's chance of a cta by CTA_LIFT: the rates' ratio is near it
    assert abs(t["rate"] / control - synth.CTA_LIFT) < 0.2
    # an A/A split (by the visitor id's last hex digit) has no effect: its interval covers 0
    df["aa"] = df["visitorId"].astype(str).str[-1].isin(list("01234567")).map({True: "A", False: "B"})
    aa = A.compare_variants(df, variant_field="aa", success_key="cta_clicked", by="visitorId").set_index("variant")
    assert aa.loc["B", "difference_low"] < 0 < aa.loc["B", "difference_high"]


# ------------------------------------------------------------------------------------------------
# DuckDB SQL versions of the same definitions, on synthetic traffic
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def con():
    duckdb = pytest.importorskip("duckdb")
    df = synth.generate(150_000, seed=8, flat=True)
    events = pd.DataFrame({"visitorId": df["visitorId"].astype(str), "sessionId": df["sessionId"].astype(str),
                           "key": df["key"].astype(str), "timestamp": df["timestamp"],
                           "variant": df["payload.variant"].astype(object), "n": np.arange(len(df))})
    c = duckdb.connect()
    c.execute("SET TimeZone = 'UTC'")
    c.register("events", events)
    yield c, df
    c.close()


def test_retention_agrees_with_duckdb(con):
    c, df = con
    for kind in ("n_day", "unbounded"):
        ours = A.retention(df, start_key="viewer_loaded", by="visitorId", periods=6, kind=kind)
        sql = c.execute(f"""
            WITH first AS (SELECT visitorId, min(timestamp) AS t0 FROM events WHERE key = 'viewer_loaded' GROUP BY 1),
            back AS (SELECT f.visitorId, date_trunc('day', f.t0) AS cohort,
                            floor(epoch_ms(e.timestamp - f.t0) / 86400000)::BIGINT AS n
                     FROM events e JOIN first f USING (visitorId) WHERE e.timestamp >= f.t0),
            per AS (SELECT visitorId, cohort, {"n" if kind == "n_day" else "max(n) OVER (PARTITION BY visitorId)"} AS n
                    FROM back)
            SELECT cohort, p.n AS period, count(DISTINCT visitorId) AS c
            FROM per, range(0, 7) p(n)
            WHERE {"per.n = p.n" if kind == "n_day" else "per.n >= p.n"} OR p.n = 0
            GROUP BY 1, 2 ORDER BY 1, 2""").df()
        table = sql.pivot(index="cohort", columns="period", values="c").fillna(0).astype(int)
        assert table.to_numpy().tolist() == ours["count"].to_numpy().tolist()


def test_paths_and_transitions_agree_with_duckdb(con):
    c, df = con
    ours = A.paths(df, start="viewer_loaded", steps=4, by="sessionId", exclude=["heartbeat"], top=1000)
    sql = c.execute("""
        WITH e AS (SELECT sessionId, key, row_number() OVER (PARTITION BY sessionId ORDER BY timestamp, n) AS i
                   FROM events WHERE key <> 'heartbeat'),
        s AS (SELECT sessionId, min(i) AS i0 FROM e WHERE key = 'viewer_loaded' GROUP BY 1)
        SELECT string_agg(key, ' → ' ORDER BY i) AS path, count(*) OVER () AS anchors
        FROM e JOIN s USING (sessionId) WHERE i BETWEEN i0 AND i0 + 3 GROUP BY sessionId""").df()
    counts = sql.groupby("path").size()
    assert dict(zip(ours["path"], ours["count"], strict=True)) == counts.to_dict()
    trans = A.transitions(df, by="sessionId")
    sql = c.execute("""
        SELECT key AS "from", nxt AS "to", count(*) AS c FROM (
            SELECT key, lead(key) OVER (PARTITION BY sessionId ORDER BY timestamp, n) AS nxt FROM events)
        WHERE nxt IS NOT NULL GROUP BY 1, 2""").df()
    assert {(f, t): c_ for f, t, c_ in sql.values.tolist()} == {
        (f, t): c_ for f, t, c_ in trans[["from", "to", "count"]].values.tolist()}


def test_compare_variants_counts_agree_with_duckdb(con):
    c, df = con
    ours = A.compare_variants(df, variant_field="variant", success_key="cta_clicked", by="visitorId")
    sql = c.execute("""
        WITH x AS (SELECT visitorId, arg_min(variant, (timestamp, n)) AS variant, min(timestamp) AS t
                   FROM events WHERE variant IS NOT NULL GROUP BY 1),
        ok AS (SELECT x.visitorId, max(e.key = 'cta_clicked' AND e.timestamp >= x.t) AS converted
               FROM x JOIN events e USING (visitorId) GROUP BY 1)
        SELECT variant, count(*) AS units, sum(converted::INT) AS conversions
        FROM x JOIN ok USING (visitorId) GROUP BY 1 ORDER BY 1""").df()
    assert sql.values.tolist() == ours[["variant", "units", "conversions"]].values.tolist()
