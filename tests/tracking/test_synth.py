"""Tests of the synthetic traffic generator: determinism, catalog validity and journey shape."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pandas as pd
import pytest

from workbench.tracking.analysis import events_frame, funnel, sessionize
from workbench.tracking.catalog import check_batch, check_event
from workbench.tracking.synth import HOTSPOTS, generate, to_records, write_events

# a week from 2026-11-01 plus returning visits: well inside 24 h of this "now"
NOW = datetime(2026, 11, 12, tzinfo=UTC)
COLUMNS = ["viewerToken", "sessionId", "key", "timestamp", "payload", "id", "visitorId"]


@pytest.fixture(scope="module")
def events():
    return generate(30_000, seed=7)


def test_exact_size_columns_and_order(events):
    assert len(events) == 30_000
    assert list(events.columns) == COLUMNS
    assert str(events["timestamp"].dtype) == "datetime64[ns, UTC]"
    assert events["timestamp"].is_monotonic_increasing
    assert events["id"].is_unique
    assert len(generate(0)) == 0
    assert len(generate(1, seed=5)) == 1


def test_same_seed_same_frame_other_seed_other_frame(events):
    pd.testing.assert_frame_equal(generate(30_000, seed=7), events)
    other = generate(30_000, seed=8)
    assert not other["sessionId"].astype(str).head(50).equals(events["sessionId"].astype(str).head(50))
    flat = generate(3_000, seed=7, flat=True)
    pd.testing.assert_frame_equal(flat, generate(3_000, seed=7, flat=True))
    # flat and dict forms describe the same events
    same = generate(3_000, seed=7)
    assert flat["id"].tolist() == same["id"].tolist()
    loads = same["key"] == "viewer_loaded"
    assert flat.loc[loads, "payload.loadTimeMs"].tolist() == [p["loadTimeMs"] for p in same.loc[loads, "payload"]]


def test_every_generated_event_passes_the_catalog(events):
    records = to_records(events)
    n = 0
    for group in records:
        for event in group["events"]:
            _, error = check_event(event, now=NOW)
            assert error is None, (error, event)
            n += 1
    assert n == len(events)
    # and in batches of 100 as a sender would send them
    group = max(records, key=lambda g: len(g["events"]))
    for i in range(0, len(group["events"]), 100):
        result = check_batch({"sessionId": group["sessionId"], "events": group["events"][i:i + 100]}, now=NOW)
        assert result.status == 200 and not result.duplicate_indexes


def test_flat_form_round_trips_through_records():
    flat = generate(2_000, seed=11, flat=True)
    records = to_records(flat)
    for group in records:
        for event in group["events"]:
            assert check_event(event, now=NOW)[1] is None, event
    dicts = to_records(generate(2_000, seed=11))
    assert records == dicts


def test_journeys_look_like_traffic(events):
    keys = events["key"].astype(str)
    counts = keys.value_counts()
    # every catalog key the model uses shows up
    for key in ("viewer_loaded", "model_loaded", "load_error", "interaction_start", "hotspot_opened",
                "variant_selected", "animation_played", "ar_requested", "ar_session_started", "ar_object_placed",
                "ar_session_ended", "fullscreen_toggled", "cta_clicked", "zone_entered", "avatar_spawned",
                "heartbeat", "viewer_closed", "custom.add_to_cart"):
        assert counts.get(key, 0) > 0, key
    payloads = events["payload"]
    # AR only on mobile and tablet sessions
    device_of = {}
    for s, k, p in zip(events["sessionId"], keys, payloads, strict=True):
        if k == "viewer_loaded" and "device" in p:
            device_of[s] = p["device"]
    ar_sessions = set(events.loc[keys == "ar_requested", "sessionId"])
    assert ar_sessions and all(device_of.get(s) != "desktop" for s in ar_sessions)
    # the AR funnel drops off at each step
    c = funnel(events, ["ar_requested", "ar_session_started", "ar_object_placed"])["count"].tolist()
    assert c[0] > c[1] > c[2] > 0
    # load times: long right tail (p99 far above the median), mobile slower than desktop
    load = pd.DataFrame([p for p, k in zip(payloads, keys, strict=True) if k == "viewer_loaded"])
    ms = load["loadTimeMs"]
    assert ms.min() >= 0 and ms.quantile(0.99) > 3 * ms.median()
    by_device = load.groupby("device")["loadTimeMs"].median()
    assert by_device["mobile"] > by_device["desktop"]
    # hotspot popularity is skewed: the top one at least 3 times the 6th
    hs = pd.Series([p["hotspotId"] for p, k in zip(payloads, keys, strict=True) if k == "hotspot_opened"]).value_counts()
    assert set(hs.index) <= set(HOTSPOTS) and hs.iloc[0] > 3 * hs.iloc[5]
    # day/night: the busiest hour of day has over twice the quietest
    per_hour = events["timestamp"].dt.hour.value_counts()
    assert per_hour.max() > 2 * per_hour.min()
    # some sessions return after a pause: more visits than sessions
    assert sessionize(events)["visit"].nunique() > 1.1 * events["sessionId"].nunique()


def test_write_events_jsonl_and_parquet(tmp_path):
    path = write_events(tmp_path / "e.jsonl", 500, seed=4)
    lines = open(path, encoding="utf-8").read().splitlines()
    assert len(lines) == 500
    first = json.loads(lines[0])
    # the service's export form: the interface carries no visitor, so the lines have none
    assert set(first) == set(COLUMNS) - {"visitorId"} and isinstance(first["timestamp"], int)
    df = events_frame(path)
    expected = generate(500, seed=4)
    assert df["id"].tolist() == expected["id"].tolist()
    assert df["timestamp"].equals(expected["timestamp"])
    pq = write_events(tmp_path / "e.parquet", 500, seed=4)
    back = pd.read_parquet(pq)
    assert back["id"].tolist() == expected["id"].tolist()
    assert "payload.loadTimeMs" in back.columns
    with pytest.raises(ValueError):
        write_events(tmp_path / "e.csv", 5)


def test_sample_file_is_made_by_the_generator():
    """data/sample_events.jsonl is write_events(path, 3000, seed=0): regenerate it if this fails."""
    import pathlib

    sample = pathlib.Path(__file__).resolve().parents[2] / "data" / "sample_events.jsonl"
    df = events_frame(sample)
    expected = generate(3000, seed=0)
    assert len(df) == 3000
    assert df["id"].tolist() == expected["id"].tolist()
    assert df["payload"].tolist() == expected["payload"].tolist()
