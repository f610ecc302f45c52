"""Times as every analysis question reads them: one strict rule for timestamps, durations with their unit, ticks.

>>> to_utc(pd.Series([1793491200000])).dt.strftime("%Y-%m-%d").tolist()
['2026-11-01']
"""

from __future__ import annotations

import datetime
import warnings
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["NAT", "EARLIEST", "ns", "to_utc", "duration", "ms_floor", "ms_ticks", "floor_period", "wall_clock",
           "instant", "check_tz", "MAX_PERIODS"]

#: NaT as integer nanoseconds
NAT = np.iinfo(np.int64).min


#: The most periods a table of periods may have (lifecycle's rows, retention's columns): past it, a period of
#: "1ns" over a day of data asked for 86 trillion rows and ended in MemoryError after seconds (issue 45, item 5).
MAX_PERIODS = 100_000


def check_tz(tz: Any, function: str) -> None:
    """A ValueError naming ``tz`` unless it is None or a time zone pandas knows (``"UTC"``, ``"Europe/Paris"``).

    >>> check_tz("Mars/Olympus", "lifecycle")
    Traceback (most recent call last):
    ...
    ValueError: lifecycle: tz: 'Mars/Olympus' is not a time zone; give an IANA name such as 'UTC' or 'Europe/Paris'
    """
    if tz is None or _known_zone(tz):
        return
    raise ValueError(f"{function}: tz: {tz!r} is not a time zone; give an IANA name such as 'UTC' or 'Europe/Paris'")


def _known_zone(tz: Any) -> bool:
    if not isinstance(tz, (str, datetime.tzinfo)):   # (pandas would take 5 as an offset of 5 seconds)
        return False
    if tz not in _ZONES:
        try:
            pd.DatetimeIndex([0]).tz_localize(tz)
            _ZONES[tz] = True
        except Exception:  # zoneinfo's KeyError, pytz's, a TypeError for a number: all say "not a zone"
            _ZONES[tz] = False
    return _ZONES[tz]


_ZONES: dict = {}


def ns(series: pd.Series, tz: str | None = None, function: str = "analysis") -> np.ndarray:
    """Nanoseconds since the epoch as int64 (NaT is int64 min), read by :func:`to_utc`'s one rule."""
    check_tz(tz, function)
    if not (pd.api.types.is_datetime64_any_dtype(series.dtype) and getattr(series.dt, "tz", None) is not None):
        series = to_utc(series, tz=tz, function=function)
    return pd.DatetimeIndex(series).as_unit("ns").asi8


#: The contract's lower bound on timestamps: earlier integers are most likely seconds, not milliseconds.
EARLIEST = pd.Timestamp("2000-01-01", tz="UTC")


def to_utc(values: pd.Series, tz: str | None = None, function: str = "events_frame",
           column: str = "timestamp") -> pd.Series:
    """Timestamps as datetime64[ns, UTC], read one strict way by every function.

    - integers and floats are epoch **milliseconds** (the contract's form), never nanoseconds;
    - strings must be ISO 8601 (``2026-11-06T13:00:00Z``); anything else (``06/11/2026 13:00``,
      which could be day-first or month-first) raises ValueError naming the column;
    - a time without a zone (a naive string or datetime) is in ``tz`` when given, else UTC with a
      UserWarning (once per call) saying so;
    - times before 2000 (the contract's lower bound) warn that the numbers look like seconds.

    >>> to_utc(pd.Series([1793491200000, "2026-11-01T00:00:05Z"])).dt.strftime("%H:%M:%S").tolist()
    ['00:00:00', '00:00:05']
    >>> to_utc(pd.Series(["2026-11-01 21:30"]), tz="America/New_York").dt.strftime("%d %H:%M").tolist()
    ['02 02:30']
    """

    check_tz(tz, function)
    naive = False
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        naive = getattr(values.dt, "tz", None) is None
        out = values.dt.tz_localize(tz or "UTC") if naive else values
        out = out.dt.tz_convert("UTC").dt.as_unit("ns")
    elif pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        out = pd.to_datetime(values, unit="ms", utc=True).dt.as_unit("ns")
    else:
        out = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns, UTC]")
        values = values.astype(object)  # pandas' ``str`` dtype (an empty filter's result) compares as objects
        is_num = values.map(lambda v: isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool))
        is_num = is_num.astype(bool)
        if is_num.any():
            out[is_num] = pd.to_datetime(values[is_num].astype("float64"), unit="ms", utc=True).dt.as_unit("ns")
        is_str = values.map(lambda v: isinstance(v, str)).astype(bool)
        if is_str.any():
            text = values[is_str]
            zoned = text.map(_zoned).astype(bool)
            # each string is read with its own offset (``+01:00`` beside ``Z``); the zone-less ones are in ``tz``
            if zoned.any():
                out[zoned[zoned].index] = _parse(text[zoned], column, function, utc=True)
            if not zoned.all():
                naive = True
                local = _parse(text[~zoned], column, function, utc=False)
                out[zoned[~zoned].index] = local.dt.tz_localize(tz or "UTC").dt.tz_convert("UTC").dt.as_unit("ns")
        other = ~is_num & ~is_str & values.notna().astype(bool)
        if other.any():  # datetime or Timestamp objects
            stamps = [pd.Timestamp(v) for v in values[other]]
            naive = naive or any(s.tz is None for s in stamps)
            out[other] = [(s.tz_localize(tz or "UTC") if s.tz is None else s).tz_convert("UTC") for s in stamps]
    if naive and tz is None:
        warnings.warn(f"{function}: {column}: times without a zone are taken as UTC; say where they were "
                      "recorded with tz= (events_frame, retention) or Series.dt.tz_localize('Europe/Paris')", UserWarning, stacklevel=3)
    valid = out.dropna()
    if len(valid) and valid.min() < EARLIEST:
        warnings.warn(f"{function}: {column}: times before 2000 ({valid.min():%Y-%m-%d}); integers are epoch "
                      "milliseconds, and these look like seconds (multiply by 1000)", UserWarning, stacklevel=3)
    return out


def _parse(text: pd.Series, column: str, function: str, utc: bool) -> pd.Series:
    """ISO 8601 strings as datetimes (UTC for zoned ones); ValueError naming the column and the first bad value."""
    try:
        parsed = pd.to_datetime(text, format="ISO8601", utc=utc)
    except (ValueError, TypeError):
        bad = next((v for v in text if not _iso(v)), text.iloc[0])
        raise ValueError(f"{function}: {column}: {bad!r} is not an ISO 8601 time such as 2026-11-06T13:00:00Z, "
                         "nor epoch milliseconds (a day-first or month-first date is ambiguous)") from None
    return parsed.dt.as_unit("ns") if utc else parsed


def _iso(text: str) -> bool:
    try:
        pd.to_datetime(pd.Series([text]), format="ISO8601", utc=True)
        return True
    except (ValueError, TypeError):
        return False


def _zoned(text: str) -> bool:
    """Whether an ISO 8601 string carries its zone (``Z`` or an offset after the date)."""
    return text.rstrip().endswith(("Z", "z")) or "+" in text[10:] or "-" in text[10:]


def duration(value: Any, parameter: str, function: str, zero: bool = False) -> int:
    """A duration in nanoseconds: a string (``"1h"``, ``"30min"``, ``"7D"``), a ``pd.Timedelta`` or a
    ``datetime.timedelta``; a bare number is refused (seconds? milliseconds?), as is a negative one, and 0
    unless ``zero`` (a funnel's window of 0: the same millisecond).

    >>> duration("1h", "within", "funnel")
    3600000000000
    >>> duration(3600, "within", "funnel")
    Traceback (most recent call last):
    ...
    ValueError: funnel: within: 3600 is a bare number; give a duration with its unit, e.g. '1h', '30min', '7D' or pd.Timedelta(hours=1)
    """
    if isinstance(value, (bool, int, float, np.integer, np.floating)):
        raise ValueError(f"{function}: {parameter}: {value!r} is a bare number; give a duration with its unit, "
                         "e.g. '1h', '30min', '7D' or pd.Timedelta(hours=1)")
    try:
        out = pd.Timedelta(value).value
    except (ValueError, TypeError):
        raise ValueError(f"{function}: {parameter}: {value!r} is not a duration such as '1h', '30min', '7D' "
                         "or pd.Timedelta(hours=1)") from None
    if out is pd.NaT or not isinstance(out, (int, np.integer)) or out < 0 or (out == 0 and not zero):
        raise ValueError(f"{function}: {parameter}: {value!r} must be a positive duration such as '1h'")
    return int(out)


def ms_floor(t: np.ndarray) -> np.ndarray:
    """Integer ns times floored to the millisecond (NaT kept): "the same millisecond" is a tie."""
    return np.where(t == NAT, NAT, t // 1_000_000 * 1_000_000)


def ms_ticks(series: pd.Series, function: str = "analysis", tz: str | None = None) -> np.ndarray:
    """Times as whole milliseconds since the epoch (int64, NaT as ``NAT``), for questions that only order
    events or count them per period: ``ms_floor(ns(series)) // 10**6``, but a lake's column (zoned, in ms) is
    taken as it is, uncopied (three event-sized arrays fewer). Zone-less times are in ``tz``.

    >>> ms_ticks(pd.Series(pd.to_datetime(["2026-11-01 00:00:00.0017", None], utc=True))).tolist()[0]
    1793491200001
    """
    check_tz(tz, function)
    if isinstance(series.dtype, pd.DatetimeTZDtype) and series.dt.unit == "ms":
        return pd.DatetimeIndex(series).asi8
    t = ns(series, tz=tz, function=function)
    return np.where(t == NAT, NAT, t // 1_000_000)


#: Calendar periods of several days start on Mondays (1970-01-05 was one).
MONDAY = pd.Timestamp("1970-01-05").value


def floor_period(t: np.ndarray, p: int) -> np.ndarray:
    """Start of the calendar period of ``p`` ns of each time in ns (periods of a day or less from midnight, longer
    ones from a Monday); wall-clock times give wall-clock starts.

    >>> str(pd.Timestamp(int(floor_period(np.array([pd.Timestamp("2026-11-05 13:00").value]), 7 * 86_400 * 10**9)[0])))
    '2026-11-02 00:00:00'
    """
    origin = 0 if p <= 86_400_000_000_000 else MONDAY
    return (t - origin) // p * p + origin


def period_number(t_ms: np.ndarray, p: int, tz: str | None, scratch: bool = False) -> np.ndarray:
    """The calendar period of ``p`` ns (:func:`floor_period`'s, in the wall clock of ``tz``) of each UTC time in
    whole milliseconds, numbered from the period holding the epoch's wall-clock midnight (``floor_period`` of 0):
    ``(floor_period(wall_clock(t_ms * 10**6, tz), p) - floor_period(0, p)) // p``, the same integers. Without a
    zone and with a period of whole milliseconds the milliseconds are divided as they are: two event-sized
    arrays instead of eight (each a fresh one, its pages faulted in); with ``scratch`` (``t_ms`` is the caller's
    own copy, free to overwrite) in ``t_ms`` itself: none.

    >>> t = np.array([0, 86_399_999, 86_400_000, 5 * 86_400_000 - 1, 11 * 86_400_000], dtype=np.int64)
    >>> week = 7 * 86_400 * 10**9
    >>> period_number(t, week, None).tolist(), period_number(t, 86_400 * 10**9, "Europe/Paris").tolist()
    ([0, 0, 0, 1, 2], [0, 1, 1, 5, 11])
    """
    origin = MONDAY if p > 86_400_000_000_000 else 0
    if tz is None and p % 1_000_000 == 0:
        number = np.subtract(t_ms, origin // 1_000_000, out=t_ms if scratch else None)  # then in place
        number //= p // 1_000_000
        number -= (0 - origin) // p
        return number
    start = int(floor_period(np.array([0]), p)[0])
    return (floor_period(wall_clock(t_ms * 10**6, tz), p) - start) // p


def wall_clock(t: np.ndarray, tz: str | None) -> np.ndarray:
    """UTC ns as the wall clock of ``tz`` in ns (calendar periods are counted there), NaT kept; UTC when no ``tz``.

    >>> str(pd.Timestamp(int(wall_clock(np.array([pd.Timestamp("2026-11-02 02:30", tz="UTC").value]), "America/New_York")[0])))
    '2026-11-01 21:30:00'
    """
    if tz is None:
        return t
    wall = pd.DatetimeIndex(np.asarray(t, dtype=np.int64), tz="UTC").tz_convert(tz).tz_localize(None).asi8
    return np.where(t == NAT, NAT, wall)


def instant(wall: np.ndarray, tz: str | None) -> np.ndarray:
    """Wall-clock ns of ``tz`` as UTC ns: a time that comes twice (the hour a clock turns back) is its first
    instant, one the clock skips is the next that exists (Havana's 2026-11-01 midnight comes twice).

    >>> str(pd.Timestamp(int(instant(np.array([pd.Timestamp("2026-11-01").value]), "America/Havana")[0]), tz="UTC"))
    '2026-11-01 04:00:00+00:00'
    """
    if tz is None:
        return np.asarray(wall, dtype=np.int64)
    index = pd.DatetimeIndex(np.asarray(wall, dtype=np.int64))
    both = [index.tz_localize(tz, ambiguous=np.full(len(index), dst), nonexistent="shift_forward").asi8
            for dst in (True, False)]
    return np.minimum(*both)
