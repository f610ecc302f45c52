"""An event's timestamp: integer epoch milliseconds or ISO 8601 with a zone, inside one window, from
2000-01-01T00:00:00Z to 24 h after the server's clock (contract section 7).

>>> in_window(EPOCH_MIN_MS, EPOCH_MIN_MS), in_window(EPOCH_MIN_MS - 1, EPOCH_MIN_MS)
(True, False)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from workbench.tracking.fields import show as _show
from workbench.tracking.fields import type_name as _type_name

EPOCH_MIN_MS = 946_684_800_000  # 2000-01-01T00:00:00Z
AHEAD_MS = 24 * 3600 * 1000


def in_window(ms: int, now_ms: int) -> bool:
    """Whether epoch ms ``ms`` lies in the window the contract accepts, the server's clock being ``now_ms``."""
    return EPOCH_MIN_MS <= ms <= now_ms + AHEAD_MS


def now_ms(now: datetime) -> int:
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware datetime")
    return to_ms(now)


def to_ms(dt: datetime) -> int:
    # Integer arithmetic keeps milliseconds exact where float timestamp() could round.
    delta = dt - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def check_timestamp(value: Any, now_ms: int):
    """Epoch ms of an event's ``timestamp``, or the error ``(code, message, field)``.

    >>> check_timestamp("2026-11-01T00:00:00Z", 1793491200000)
    1793491200000
    >>> check_timestamp(0, 1793491200000)[1]
    'timestamp 0 is before 2000-01-01.'
    """
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        ms = int(value)
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value)
        except (ValueError, OverflowError):
            return ("invalid_timestamp", f"timestamp {_show(value)} is not an ISO 8601 date-time.", "timestamp")
        if dt.tzinfo is None or dt.utcoffset() is None:
            return ("invalid_timestamp", f"timestamp {_show(value)} has no time zone; add Z or an offset.", "timestamp")
        try:
            ms = to_ms(dt)
        except OverflowError:
            return ("invalid_timestamp", f"timestamp {_show(value)} is out of range.", "timestamp")
    else:
        return ("invalid_timestamp",
                f"timestamp must be an ISO 8601 string or integer epoch milliseconds, got {_type_name(value)}.",
                "timestamp")
    if ms < EPOCH_MIN_MS:
        return ("invalid_timestamp", f"timestamp {_show(value)} is before 2000-01-01.", "timestamp")
    if ms > now_ms + AHEAD_MS:
        return ("invalid_timestamp", f"timestamp {_show(value)} is more than 24 h ahead of the server clock.", "timestamp")
    return ms
