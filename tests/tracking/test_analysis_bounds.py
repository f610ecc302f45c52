"""Options that would make an analysis table past any memory, and zones nobody has (issue 45, item 5): a clear
ValueError naming the parameter, at once, instead of MemoryError after seconds or zoneinfo's KeyError."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.tracking.analysis import events_frame, lifecycle, retention, stickiness

TIMES = pd.to_datetime(["2026-11-01 10:00", "2026-11-02 10:00", "2026-11-04 10:00", "2026-11-02 11:00"], utc=True)
EVENTS = pd.DataFrame({"visitorId": ["a", "a", "a", "b"], "key": "interaction_start", "timestamp": TIMES})


@pytest.mark.parametrize("call, parameter", [
    (lambda: lifecycle(EVENTS, event="interaction_start", by="visitorId", period="1ns"), "period"),
    (lambda: retention(EVENTS, start_key="interaction_start", by="visitorId", periods=10**9), "periods"),
    (lambda: retention(EVENTS, start_key="interaction_start", by="visitorId", kind="bracket",
                       brackets=[(1, 2), (3, 10**9)]), "brackets"),
], ids=["lifecycle-1ns", "retention-a-billion-periods", "retention-a-billion-wide-bracket"])
def test_periods_past_the_stated_bound_are_a_value_error_naming_the_parameter(call, parameter):
    with pytest.raises(ValueError, match=rf"^(lifecycle|retention): {parameter}: .*(100,000|1,000)"):
        call()


def test_periods_within_the_bound_still_make_their_table():
    assert len(lifecycle(EVENTS, event="interaction_start", by="visitorId", period="1min")) == 3 * 1440 + 1
    assert retention(EVENTS, start_key="interaction_start", by="visitorId", periods=1000).shape == (2, 1 + 2 * 1001)


@pytest.mark.parametrize("call", [
    lambda tz: lifecycle(EVENTS, event="interaction_start", by="visitorId", tz=tz),
    lambda tz: retention(EVENTS, start_key="interaction_start", by="visitorId", tz=tz),
    lambda tz: stickiness(EVENTS, event="interaction_start", by="visitorId", tz=tz),
    lambda tz: events_frame([{"key": "heartbeat", "timestamp": "2026-11-01T10:00:00", "sessionId": "s"}], tz=tz),
], ids=["lifecycle", "retention", "stickiness", "events_frame"])
@pytest.mark.parametrize("tz", ["Mars/Olympus", "Europe/Pariss", 5])
def test_an_unknown_zone_is_a_value_error_naming_tz(call, tz):
    with pytest.raises(ValueError, match=r": tz: .* is not a time zone"):
        call(tz)
