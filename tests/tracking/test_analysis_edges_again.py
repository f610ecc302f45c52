"""The edges an independent check found after the product analytics landed (issue 38's list, items 1 to 9), each worked
out by hand; each failed before its fix, but the test of breakdown values compared as text, a rule the code kept and
its docstring now states."""

from __future__ import annotations

import itertools
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from helpers import event_table as events  # (group, key, ms[, id[, payload]]) rows

from workbench.tracking import analysis as A

# ------------------------------------------------------------------------------------------------
# 1. Retention in a zone: zone-less times, rolling cohorts, an ambiguous midnight
# ------------------------------------------------------------------------------------------------

def test_zone_less_times_are_in_tz_without_a_warning():
    # 23:00 and 01:00 in New York, on either side of its midnight: two calendar days there (read as UTC they
    # would be 18:00 and 20:00 New York time, one day)
    df = pd.DataFrame({"visitorId": "v", "key": "viewer_loaded", "timestamp": ["2026-11-01T23:00:00", "2026-11-02T01:00:00"]})
    kw = dict(start_key="viewer_loaded", by="visitorId", periods=1, calendar=True, end="2026-11-05")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # tz is given: nothing to warn about
        for times in (df, df.assign(timestamp=pd.to_datetime(df["timestamp"]))):  # text, and naive datetimes
            assert A.retention(times, tz="America/New_York", **kw)["count"].iloc[0].tolist() == [1, 1]


def test_rolling_cohorts_are_days_of_tz_and_reached_by_their_own_length():
    # 02:30 UTC on 11-02 is 21:30 on 11-01 in New York: the cohort is New York's 11-01 (UTC's would be 11-02)
    df = pd.DataFrame({"visitorId": "v", "key": "viewer_loaded", "timestamp": pd.to_datetime(["2026-11-02T02:30Z"])})
    kw = dict(start_key="viewer_loaded", by="visitorId", periods=1)
    assert str(A.retention(df, end="2026-11-10", **kw).index[0]) == "2026-11-02 00:00:00+00:00"
    ny = A.retention(df, tz="America/New_York", end="2026-11-10", **kw)
    assert str(ny.index[0]) == "2026-11-01 00:00:00-04:00"
    # New York's 11-01 is 25 hours long (the clock turns back at 02:00): it ends 11-02 05:00 UTC, so every
    # member's period 1 has begun by 11-03 05:00 UTC and not a millisecond before
    assert ny["rate"].iloc[0].tolist() == [1.0, 0.0]
    early = A.retention(df, tz="America/New_York", end="2026-11-03T04:59:59.999Z", **kw)
    assert np.isnan(early["rate"].iloc[0][1])
    assert A.retention(df, tz="America/New_York", end="2026-11-03T05:00Z", **kw)["rate"].iloc[0][1] == 0.0


def test_a_cohort_at_an_ambiguous_midnight_is_labelled_at_its_first_instant():
    # Havana turns its clocks back from 01:00 to 00:00 on 2026-11-01: that midnight comes twice
    df = pd.DataFrame({"visitorId": "v", "key": "viewer_loaded", "timestamp": pd.to_datetime(["2026-11-01T12:00Z"])})
    for calendar in (True, False):
        out = A.retention(df, start_key="viewer_loaded", by="visitorId", periods=1, calendar=calendar,
                          tz="America/Havana", end="2026-11-05")
        assert str(out.index[0]) == "2026-11-01 00:00:00-04:00"  # the first 00:00, still on summer time


# ------------------------------------------------------------------------------------------------
# 2. Exclusions in any-order funnels
# ------------------------------------------------------------------------------------------------

def test_an_any_order_funnel_honours_exclude():
    steps = ["viewer_loaded", "cta_clicked"]
    broken = events([("s", "cta_clicked", 0), ("s", "load_error", 1), ("s", "viewer_loaded", 2)])
    assert A.funnel(broken, steps, order="any", exclude=["load_error"])["count"].tolist() == [1, 0]
    assert A.funnel(broken, steps, order="any")["count"].tolist() == [1, 1]
    after = events([("s", "cta_clicked", 0), ("s", "viewer_loaded", 2), ("s", "load_error", 3)])
    assert A.funnel(after, steps, order="any", exclude=["load_error"])["count"].tolist() == [1, 1]
    tied = events([("s", "load_error", 0), ("s", "viewer_loaded", 0), ("s", "cta_clicked", 1)])
    assert A.funnel(tied, steps, order="any", exclude=["load_error"])["count"].tolist() == [1, 1]  # not between


def _reference_any(evs, steps, within, exclude) -> int:
    """The furthest step of an any-order funnel with exclusions, by trying every choice of distinct events."""
    best = 0
    for k in range(1, len(steps) + 1):
        ok = False
        for chosen in itertools.permutations(range(len(evs)), k):
            keys, times = [evs[i][0] for i in chosen], [evs[i][1] for i in chosen]
            if sorted(keys) == sorted(steps[:k]) and max(times) - min(times) <= within and not any(
                    min(times) < e[1] < max(times) for e in evs if e[0] in exclude):
                ok = True
                break
        if not ok:
            break
        best = k
    return best


@pytest.mark.filterwarnings("ignore:funnel. (steps|exclude)")
def test_any_order_with_exclude_agrees_with_an_exhaustive_search():
    rng = np.random.default_rng(38)
    steps, rows, groups = ["a", "b", "a"], [], []
    for g in range(300):
        evs = [(str(rng.choice(list("abx"))), int(rng.integers(0, 6))) for _ in range(int(rng.integers(1, 6)))]
        groups.append(evs)
        rows += [(f"g{g}", k, t) for k, t in evs]
    got = A.funnel(events(rows), steps, within=pd.Timedelta(milliseconds=4), order="any", exclude=["x"])
    depths = [_reference_any(evs, steps, 4, {"x"}) for evs in groups]
    assert got["count"].tolist() == [sum(d >= k for d in depths) for k in (1, 2, 3)]
    assert 0 < got["count"].iloc[-1] < got["count"].iloc[0]


# ------------------------------------------------------------------------------------------------
# 3. Empty frames, text-typed empty frames, and Dask partitions a filter left empty
# ------------------------------------------------------------------------------------------------

def test_empty_frames_are_answered():
    typed = events([]).assign(viewerToken=pd.Series([], dtype=object))
    assert len(A.dwell_times(typed)) == 0 and list(A.dwell_times(typed).columns)[:2] == ["visit", "viewerToken"]
    assert len(A.viewer_kpis(typed)) == 0
    text = pd.DataFrame({c: pd.Series([], dtype="str") for c in ("viewerToken", "sessionId", "visitorId", "key",
                                                                 "timestamp")})
    assert A.funnel(text, ["viewer_loaded", "cta_clicked"])["count"].tolist() == [0, 0]
    assert len(A.retention(text, start_key="viewer_loaded", by="visitorId")) == 0
    assert len(A.sessionize(text)) == 0 and len(A.paths(text)) == 0
    assert len(A.dwell_times(text)) == 0 and len(A.viewer_kpis(text)) == 0


def test_a_dask_partition_left_empty_by_a_filter_is_answered():
    import dask.dataframe as dd

    df = pd.DataFrame({"sessionId": ["a", "a", "b", "b"], "visitorId": ["u", "u", "w", "w"],
                       "key": ["viewer_loaded", "cta_clicked", "heartbeat", "heartbeat"],
                       "timestamp": ["2026-11-01T10:00:00Z", "2026-11-01T10:01:00Z", "2026-11-01T10:00:00Z",
                                     "2026-11-01T10:02:00Z"]})
    kept = dd.from_pandas(df, npartitions=2)
    kept = kept[kept["key"] != "heartbeat"]  # the second partition keeps nothing (its columns text-typed)
    assert [len(p) for p in kept.partitions] == [2, 0]
    assert A.funnel(kept, ["viewer_loaded", "cta_clicked"])["count"].tolist() == [1, 1]
    assert A.retention(kept, start_key="viewer_loaded", by="visitorId", periods=1)["count"].iloc[0].tolist() == [1, 0]
    assert A.paths(kept, by="sessionId")["path"].tolist() == ["viewer_loaded → cta_clicked"]


# ------------------------------------------------------------------------------------------------
# 4. ISO strings with different offsets
# ------------------------------------------------------------------------------------------------

def test_iso_strings_with_different_offsets_are_each_read_with_their_own():
    df = pd.DataFrame({"sessionId": "s", "key": ["viewer_loaded", "cta_clicked", "hotspot_opened"],
                       "timestamp": ["2026-11-01T11:00:00+01:00", "2026-11-01T10:20:00Z", "2026-11-01T05:30:00-05:00"]})
    # 10:00, 10:20 and 10:30 UTC
    out = A.events_frame(df)
    assert out["timestamp"].dt.strftime("%H:%M").tolist() == ["10:00", "10:20", "10:30"]
    assert A.funnel(df, ["viewer_loaded", "cta_clicked", "hotspot_opened"], within="30min")["count"].tolist() == [1, 1, 1]
    mixed = df.assign(timestamp=["2026-11-01T11:00:00+01:00", "2026-11-01T05:20:00", "2026-11-01T10:30:00Z"])
    # the zone-less one is New York's 05:20 (EST): 10:20 UTC
    assert A.events_frame(mixed, tz="America/New_York")["timestamp"].dt.strftime("%H:%M").tolist() == [
        "10:00", "10:20", "10:30"]


# ------------------------------------------------------------------------------------------------
# 5. A session first anonymous, then identified, stays in one lake bucket
# ------------------------------------------------------------------------------------------------

def test_a_session_identified_part_way_stays_whole_in_the_lake(tmp_path):
    from workbench.tracking.lake import LakeWriter, read_events
    from workbench.tracking.schema import from_records

    def batch(session, visitor, keys, start):
        return from_records([{"sessionId": session, "key": k, "timestamp": 1_793_491_200_000 + (start + i) * 1000,
                              "id": f"{session}-{start + i}", **({"visitorId": visitor} if visitor else {}),
                              "payload": {"loadTimeMs": 10} if k == "viewer_loaded" else {}}
                             for i, k in enumerate(keys)])

    with LakeWriter(tmp_path / "lake", buckets=8) as w:
        for n in range(12):
            # anonymous first (a bucket by session), the visitor named in a later table (a bucket by visitor)
            w.write(batch(f"s{n}", None, ["viewer_loaded", "hotspot_opened"], 0))
        for n in range(12):
            w.write(batch(f"s{n}", f"u{n}", ["cta_clicked"], 10))
    note = json.loads((tmp_path / "lake" / "_workbench_lake.json").read_text())
    assert note["session_buckets"] is True and note["visitor_buckets"] is False  # sessions whole, visitors not promised
    ddf = read_events(tmp_path / "lake")
    per_part = ddf[["sessionId"]].map_partitions(lambda p: p.drop_duplicates()).compute()
    assert per_part["sessionId"].is_unique
    pdf = ddf.compute().reset_index(drop=True)
    steps = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
    assert A.funnel(ddf, steps)["count"].tolist() == A.funnel(pdf, steps)["count"].tolist() == [12, 12, 12]
    pd.testing.assert_frame_equal(A.retention(ddf, start_key="viewer_loaded", by="visitorId", periods=1),
                                  A.retention(pdf, start_key="viewer_loaded", by="visitorId", periods=1))


# ------------------------------------------------------------------------------------------------
# 6. Dask: dwell times without viewerToken, payload dicts through from_pandas
# ------------------------------------------------------------------------------------------------

def test_dask_dwell_times_and_breakdowns_take_what_pandas_takes():
    import dask.dataframe as dd

    df = events([("s", "viewer_loaded", 0, "v", {"device": "mobile", "loadTimeMs": 5}),
                 ("s", "cta_clicked", 90_000, "c"), ("t", "viewer_loaded", 0, "w", {"device": "desktop"})])
    ddf = dd.from_pandas(df, npartitions=2)  # no viewerToken; Dask turns the payload dicts into their text
    got = A.dwell_times(ddf).compute().sort_values("visit").reset_index(drop=True)
    expected = A.dwell_times(df)
    assert got["duration_s"].tolist() == expected["duration_s"].tolist() == [90.0, 0.0]
    by_device = A.funnel(ddf, ["viewer_loaded", "cta_clicked"], breakdown="device")
    pd.testing.assert_frame_equal(by_device, A.funnel(df, ["viewer_loaded", "cta_clicked"], breakdown="device"))
    assert by_device.loc[by_device["device"] == "mobile", "count"].tolist() == [1, 1]


# ------------------------------------------------------------------------------------------------
# 7. A misspelt breakdown is named
# ------------------------------------------------------------------------------------------------

def test_a_misspelt_breakdown_warns_naming_the_column():
    df = events([("s", "viewer_loaded", 0), ("s", "cta_clicked", 6)]).assign(Device="mobile")
    with pytest.warns(UserWarning, match="funnel: breakdown: no event has 'device'.*did you mean 'Device'"):
        A.funnel(df, ["viewer_loaded", "cta_clicked"], breakdown="device")
    with pytest.warns(UserWarning, match="load_times: by: no event has 'device'.*did you mean 'Device'"):
        A.load_times(df)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert A.funnel(df, ["viewer_loaded"], breakdown="Device")["Device"].tolist() == ["mobile"]


# ------------------------------------------------------------------------------------------------
# 8. Definitions: touches as PostHog's, ids scoped to their session, rates however few, values as text
# ------------------------------------------------------------------------------------------------

def test_last_touch_is_the_last_step_reached():
    df = events([("s", "viewer_loaded", 0, "a", {"device": "mobile"}),
                 ("s", "hotspot_opened", 5, "b", {"device": "tablet"}),   # step 2, its last: tablet
                 ("s", "heartbeat", 9, "c", {"device": "desktop"})])       # not a step
    steps = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
    out = A.funnel(df, steps, breakdown="device", attribution="last_touch")
    assert out[["device", "count"]].values.tolist() == [["tablet", 1], ["tablet", 1], ["tablet", 0]]
    assert A.funnel(df, steps, breakdown="device", attribution="last_seen")["device"].tolist() == ["desktop"] * 3
    assert A.funnel(df, steps, breakdown="device")["device"].tolist() == ["mobile"] * 3  # first touch


def test_an_id_repeats_only_within_its_session():
    # two sessions whose clients both numbered their events from 1; s retried its cta_clicked
    df = events([("s", "viewer_loaded", 0, "1"), ("s", "cta_clicked", 5, "2"), ("s", "cta_clicked", 5, "2"),
                 ("t", "viewer_loaded", 0, "1"), ("t", "cta_clicked", 7, "2")])
    assert A.funnel(df, ["viewer_loaded", "cta_clicked"])["count"].tolist() == [2, 2]
    assert A.funnel(df, ["cta_clicked", "cta_clicked"])["count"].tolist() == [2, 0]  # s's copy is one event
    assert A.events_over_time(df, freq="1D")["cta_clicked"].tolist() == [2]


def test_a_rate_is_shown_however_few_the_conversions():
    rows = [(f"c{i}", "custom.experiment", 0, f"x{i}", {"variant": "control"}) for i in range(4)]
    rows += [(f"t{i}", "custom.experiment", 0, f"y{i}", {"variant": "treatment"}) for i in range(4)]
    rows += [("t0", "cta_clicked", 5, "z")]
    out = A.compare_variants(events(rows), variant_field="variant", success_key="cta_clicked").set_index("variant")
    # 0 of 4: Wilson's interval [0, z^2 / (n + z^2)] = [0, 3.8414588 / 7.8414588] = [0, 0.4898908]
    assert out.loc["control", ["rate", "rate_low"]].tolist() == [0.0, 0.0]
    assert out.loc["control", "rate_high"] == pytest.approx(0.4898908, abs=1e-7)
    assert out.loc["treatment", "rate"] == 0.25 and np.isfinite(out.loc["treatment", "difference_low"])


def test_breakdown_values_are_compared_as_text():
    df = events([("s", "viewer_loaded", 0, "a", {"modelId": 1}), ("t", "viewer_loaded", 0, "b", {"modelId": "1"})])
    assert A.funnel(df, ["viewer_loaded"], breakdown="modelId")[["modelId", "count"]].values.tolist() == [["1", 2]]


# ------------------------------------------------------------------------------------------------
# 9. A lake read whole: the questions read only the columns they need
# ------------------------------------------------------------------------------------------------

def test_questions_on_a_lake_read_whole_read_only_their_columns(tmp_path, monkeypatch):
    from workbench.tracking import lake as lake_module
    from workbench.tracking.lake import write_synth_lake

    lake = write_synth_lake(tmp_path / "lake", 3_000, seed=3)
    read = []
    original = lake_module._read_file

    def recording(fs, path, columns):
        read.append(tuple(columns))
        return original(fs, path, columns)

    monkeypatch.setattr(lake_module, "_read_file", recording)
    steps = ["viewer_loaded", "hotspot_opened"]
    visits = A.sessionize(lake_module.read_events(lake))  # as the README shows: every column
    A.funnel(visits, steps, by="visit", client="sync")
    assert read and all(set(c) <= {"sessionId", "key", "timestamp"} for c in read), read
    read.clear()
    A.retention(lake_module.read_events(lake), start_key="viewer_loaded", by="visitorId", client="sync")
    assert read and all(set(c) <= {"visitorId", "key", "timestamp"} for c in read), read
