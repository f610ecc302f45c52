"""PostHog's definitions where analysts compare numbers with it (issue 47 item 2), each worked out by hand against
both definitions a function offers, on pandas, on Dask in several partitions, and (lifecycle) on a lake read in part:

- funnel correlation's odds ratio adds 1 to every cell (PostHog's prior) unless ``definition="table2x2"``;
- time to convert with ``order="any"`` reads a chain's events in time order (PostHog's unordered funnel) unless
  ``definition="all_done"``;
- lifecycle's *new* is a unit's first period with any event (PostHog's person creation) unless
  ``definition="first_active"``.
"""

from __future__ import annotations

import math

import dask.dataframe as dd
import pandas as pd
import pytest

from workbench.tracking import analysis as A
from workbench.tracking.lake import LakeWriter, read_events
from workbench.tracking.schema import from_records, lake_note

T0 = pd.Timestamp("2026-11-02T10:00:00Z")  # a Monday


def frame(rows, by="sessionId") -> pd.DataFrame:
    """(group, key, seconds after T0[, payload]) rows, each its own event id."""
    return pd.DataFrame({by: [r[0] for r in rows], "key": [r[1] for r in rows],
                         "timestamp": [T0 + pd.Timedelta(seconds=r[2]) for r in rows],
                         "payload": [r[3] if len(r) > 3 else {} for r in rows],
                         "id": [f"e{i}" for i in range(len(rows))]})


def on_every_side(df, call):
    """``call`` on pandas and on Dask in 1, 2 and 3 partitions: the same table each time."""
    expected = call(df, {})
    for n in (1, 2, 3):
        got = call(dd.from_pandas(df, npartitions=n, sort=False), {"client": "sync"})
        pd.testing.assert_frame_equal(got, expected)
    return expected


# ------------------------------------------------------------------------------------------------
# Funnel correlation: PostHog's prior of 1 in every cell
# ------------------------------------------------------------------------------------------------

STEPS = ["viewer_loaded", "cta_clicked"]


def correlation_table(success_with, failure_with, success_without, failure_without) -> pd.DataFrame:
    """Groups that entered the funnel; those that converted clicked a minute later; ``hotspot_opened`` 30 s in."""
    rows, n = [], 0
    for converted, with_it, count in ((True, True, success_with), (False, True, failure_with),
                                      (True, False, success_without), (False, False, failure_without)):
        for _ in range(count):
            g = f"g{n}"
            n += 1
            rows.append((g, "viewer_loaded", 0))
            if with_it:
                rows.append((g, "hotspot_opened", 30))
            if converted:
                rows.append((g, "cta_clicked", 60))
    return frame(rows)


def _z_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def test_odds_ratio_adds_one_to_every_cell_as_posthog_and_table2x2_keeps_the_counts():
    df = correlation_table(2, 1, 1, 2)
    call = lambda d, kw, definition: A.funnel_correlation(d, STEPS, definition=definition, **kw)  # noqa: E731
    posthog = on_every_side(df, lambda d, kw: call(d, kw, "posthog"))
    table = on_every_side(df, lambda d, kw: call(d, kw, "table2x2"))
    for out in (posthog, table):
        assert out[["name", "success_with", "failure_with", "success_without", "failure_without"]].values.tolist() == [
            ["hotspot_opened", 2, 1, 1, 2]]
    # PostHog: (2 + 1)(2 + 1) / ((1 + 1)(1 + 1)) = 9 / 4; as counted: 2 x 2 / (1 x 1) = 4
    assert posthog.loc[0, "odds_ratio"] == 2.25 and table.loc[0, "odds_ratio"] == 4.0
    # Woolf's interval and the Wald test on the table read: log 2.25 +- 1.959964 sqrt(1/3 + 1/2 + 1/2 + 1/3)
    se = math.sqrt(1 / 3 + 1 / 2 + 1 / 2 + 1 / 3)
    assert posthog.loc[0, ["odds_ratio_low", "odds_ratio_high"]].tolist() == pytest.approx(
        [math.exp(math.log(2.25) - 1.959964 * se), math.exp(math.log(2.25) + 1.959964 * se)], rel=1e-6)
    assert posthog.loc[0, "p_value"] == pytest.approx(_z_p(math.log(2.25) / se))
    se = math.sqrt(1 / 2 + 1 + 1 + 1 / 2)
    assert table.loc[0, "p_value"] == pytest.approx(_z_p(math.log(4) / se))


def test_an_empty_cell_and_an_odds_ratio_of_one():
    # with 0 in two cells: PostHog (2 + 1)(2 + 1) / (1 x 1) = 9; as counted, 0.5 in each empty cell: 2 x 2 / 0.25 = 16
    df = correlation_table(2, 0, 0, 2)
    assert A.funnel_correlation(df, STEPS)["odds_ratio"].tolist() == [9.0]
    assert A.funnel_correlation(df, STEPS, definition="table2x2")["odds_ratio"].tolist() == [16.0]
    # 1, 1, 1, 1: an odds ratio of 1 either way; PostHog calls it failure (success only above 1), table2x2 success
    df = correlation_table(1, 1, 1, 1)
    assert A.funnel_correlation(df, STEPS)[["odds_ratio", "correlation"]].values.tolist() == [[1.0, "failure"]]
    assert A.funnel_correlation(df, STEPS, definition="table2x2")["correlation"].tolist() == ["success"]
    with pytest.raises(ValueError, match="funnel_correlation: definition: 'woolf' is not one of 'posthog', 'table2x2'"):
        A.funnel_correlation(df, STEPS, definition="woolf")


# ------------------------------------------------------------------------------------------------
# Time to convert, order="any": PostHog's unordered funnel
# ------------------------------------------------------------------------------------------------

def test_any_order_times_follow_the_events_in_time_order():
    """a: model_loaded, then viewer_loaded 5 minutes later (the issue's case); b: viewer_loaded, model_loaded at 2
    minutes. PostHog: a converts in 300 s; all_done: a's steps were both done at 300 s, so 0 s."""
    df = frame([("a", "model_loaded", 0), ("a", "viewer_loaded", 300),
                ("b", "viewer_loaded", 0), ("b", "model_loaded", 120)])
    steps = ["viewer_loaded", "model_loaded"]

    def call(definition):
        return lambda d, kw: A.time_to_convert(d, steps, order="any", definition=definition, **kw)

    posthog = on_every_side(df, call("posthog"))
    done = on_every_side(df, call("all_done"))
    assert posthog[["step", "groups", "min_s", "max_s", "mean_s"]].values.tolist() == [
        ["model_loaded", 2, 120.0, 300.0, 210.0], ["(all steps)", 2, 120.0, 300.0, 210.0]]
    assert done[["step", "groups", "min_s", "max_s", "mean_s"]].values.tolist() == [
        ["model_loaded", 2, 0.0, 120.0, 60.0], ["(all steps)", 2, 0.0, 120.0, 60.0]]
    # the funnel's median is the same time, by the same definition
    assert A.funnel(df, steps, order="any")["median_s"].tolist()[1] == 210.0
    assert A.funnel(df, steps, order="any", definition="all_done")["median_s"].tolist()[1] == 60.0


def test_three_steps_in_reverse_order():
    """cta_clicked at 0, model_loaded at 60 s, viewer_loaded at 180 s, steps named viewer, model, cta. PostHog: the
    events in time order are 0, 60, 180: 60 s then 120 s, 180 s end to end. all_done: every step was done at 180 s:
    0 s throughout. Ordered, the same events reach only the first step."""
    df = frame([("a", "cta_clicked", 0), ("a", "model_loaded", 60), ("a", "viewer_loaded", 180)])
    steps = ["viewer_loaded", "model_loaded", "cta_clicked"]
    posthog = on_every_side(df, lambda d, kw: A.time_to_convert(d, steps, order="any", **kw))
    assert posthog[["groups", "mean_s"]].values.tolist() == [[1, 60.0], [1, 120.0], [1, 180.0]]
    done = A.time_to_convert(df, steps, order="any", definition="all_done")
    assert done["mean_s"].tolist() == [0.0, 0.0, 0.0]
    ordered = A.time_to_convert(df, steps, definition="all_done")  # ordered: the definition changes nothing
    pd.testing.assert_frame_equal(ordered, A.time_to_convert(df, steps))
    assert ordered["groups"].tolist() == [0, 0, 0]
    # breakdown attribution by the last touch still finds the chain's latest event (viewer_loaded's device)
    df["payload"] = [{}, {}, {"device": "mobile"}]
    out = A.funnel(df, steps, order="any", breakdown="device", attribution="last_touch")
    assert out.loc[out["count"] > 0, "device"].unique().tolist() == ["mobile"]
    with pytest.raises(ValueError, match="time_to_convert: definition: 'sorted' is not one of 'posthog', 'all_done'"):
        A.time_to_convert(df, steps, order="any", definition="sorted")


# ------------------------------------------------------------------------------------------------
# Lifecycle: new is the first period of any event (PostHog's person creation)
# ------------------------------------------------------------------------------------------------

DAY = 86_400
SEEN = frame([
    ("v", "heartbeat", 0), ("v", "interaction_start", 2 * DAY),            # seen 11-02, first active 11-04
    ("w", "interaction_start", 0), ("w", "interaction_start", DAY),        # 11-02 and 11-03
    ("x", "heartbeat", DAY), ("x", "interaction_start", DAY + 60),         # seen and active the same day, 11-03
    ("y", "heartbeat", DAY), ("y", "interaction_start", 2 * DAY),          # seen 11-03, active 11-04
], by="visitorId")
COLUMNS = ["new", "returning", "resurrecting", "dormant"]
# 11-02: w new. 11-03: w returning, x new (its first event that day). 11-04: v and y active after other events only
# (seen 11-02, 11-03): PostHog resurrecting (y too, though seen the day before: not active then); w and x dormant.
POSTHOG = [[1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 2, -2]]
# first_active: v and y new on 11-04
FIRST_ACTIVE = [[1, 0, 0, 0], [1, 1, 0, 0], [2, 0, 0, -2]]


@pytest.mark.parametrize("definition, expected", [("posthog", POSTHOG), ("first_active", FIRST_ACTIVE)])
def test_lifecycle_new_by_hand(definition, expected):
    out = on_every_side(SEEN, lambda d, kw: A.lifecycle(d, event="interaction_start", by="visitorId",
                                                        definition=definition, **kw))
    assert out["period"].dt.strftime("%m-%d").tolist() == ["11-02", "11-03", "11-04"]
    assert out[COLUMNS].values.tolist() == expected


def test_lifecycle_is_posthog_by_default_and_weekly_too():
    pd.testing.assert_frame_equal(A.lifecycle(SEEN, event="interaction_start", by="visitorId"),
                                  A.lifecycle(SEEN, event="interaction_start", by="visitorId", definition="posthog"))
    # weeks from Monday 11-02: everyone in one week, everyone's first event of any key in it: all new
    week = A.lifecycle(SEEN, event="interaction_start", by="visitorId", period="7D")
    assert week[COLUMNS].values.tolist() == [[4, 0, 0, 0]]
    with pytest.raises(ValueError, match="lifecycle: definition: 'new' is not one of 'posthog', 'first_active'"):
        A.lifecycle(SEEN, event="interaction_start", by="visitorId", definition="new")


def test_lifecycle_on_a_lake_read_in_part_sees_each_visitors_first_event(tmp_path):
    """From a lake that promises unique ids only the event's rows and each file's ends are read, and now each
    visitor's first event of each file: v's heartbeat two days before its first interaction makes it resurrecting."""
    records = [{"sessionId": f"s-{r.visitorId}-{i}", "visitorId": r.visitorId, "key": r.key, "id": r.id,
                "timestamp": int(r.timestamp.value // 10**6), "payload": {"visible": True} if r.key == "heartbeat"
                else {}} for i, r in enumerate(SEEN.itertuples())]
    with LakeWriter(tmp_path / "lake", buckets=2) as w:
        w.write(from_records(records))
    (tmp_path / "lake" / "_workbench_lake.json").write_text(
        lake_note(session_buckets=True, visitor_buckets=True, unique_ids=True))
    ddf = read_events(tmp_path / "lake", columns=["visitorId", "key", "timestamp"])
    for definition, expected in (("posthog", POSTHOG), ("first_active", FIRST_ACTIVE)):
        out = A.lifecycle(ddf, event="interaction_start", by="visitorId", definition=definition, client="sync")
        assert out[COLUMNS].values.tolist() == expected
