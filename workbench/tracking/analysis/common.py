"""What every analysis question shares: column checks, timestamps, integer codes, payload fields, event keys.

>>> check_columns(pd.DataFrame({"key": []}), "key")
>>> quantile_from_counts(np.array([1.0, 2.0, 10.0]), np.array([1, 2, 1]), 0.5)
2.0
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..catalog import CATALOG

EVENT_COLUMNS = ("viewerToken", "sessionId", "key", "timestamp", "payload", "id")
#: NaT as integer nanoseconds
NAT = np.iinfo(np.int64).min


def ns(series: pd.Series, tz: str | None = None, function: str = "analysis") -> np.ndarray:
    """Nanoseconds since the epoch as int64 (NaT is int64 min), read by :func:`to_utc`'s one rule."""
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


def step_list(steps: Any, parameter: str, function: str) -> list:
    """Event keys as a list: a plain string (``"viewer_loaded,cta_clicked"``, as the CLI takes it) would
    otherwise be a funnel of its letters, so it is refused.

    >>> step_list(("viewer_loaded", "cta_clicked"), "steps", "funnel")
    ['viewer_loaded', 'cta_clicked']
    """
    if isinstance(steps, str):
        raise ValueError(f"{function}: {parameter}: give a list of event keys, not one string {steps!r}; "
                         f"e.g. {steps.split(',') if ',' in steps else [steps]!r}")
    return list(steps)


def first_events(frame: pd.DataFrame, id_column: str = "id", time: str = "timestamp",
                 scope: str | None = None) -> pd.DataFrame:
    """``frame`` without repeated event ids, keeping each id's first (earliest, then first in the frame).

    The contract says a repeated id is one event (a client retries a batch; Amplitude likewise
    de-duplicates on its insert id), so every analysis counts it once. An id repeats only within
    its session (``sessionId``; else the question's group, ``scope``): two sessions whose clients
    happen to reuse ids keep each other's events, as Amplitude scopes its insert id to a device or
    user. Rows without an id are kept. Copies of an id are taken to be the same event (a retry
    resends it unchanged); were they to differ, the earliest wins, and among copies at one time the
    first row. A frame whose ``attrs["unique_ids"]`` is set (a lake whose note promises it) is taken
    as it is: hashing every id costs about as much as the rest of a question.

    >>> t = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta([2, 1, 3, 3], unit="s")
    >>> first_events(pd.DataFrame({"id": ["a", "a", None, None], "timestamp": t}))["timestamp"].dt.second.tolist()
    [1, 3, 3]
    >>> len(first_events(pd.DataFrame({"sessionId": ["s", "t"], "id": ["a", "a"], "timestamp": t[:2]})))
    2
    """
    if id_column not in frame.columns or not len(frame) or frame.attrs.get("unique_ids"):
        return frame
    ids, _ = pd.factorize(frame[id_column], use_na_sentinel=True)
    within = "sessionId" if "sessionId" in frame.columns else scope
    if within is not None and within in frame.columns and within != id_column:
        groups, _ = pd.factorize(frame[within], use_na_sentinel=True)
        # (group, id) pairs as one code; a row without a group keeps its id's own scope
        pair = np.where(ids >= 0, ids.astype(np.int64) * (int(groups.max(initial=-1)) + 2) + groups + 1, -1)
        ids, _ = pd.factorize(pair, use_na_sentinel=False)
        ids = np.where(pair < 0, -1, ids)
    has = ids >= 0
    _, first = np.unique(ids[has], return_index=True)
    if len(first) == int(has.sum()):
        return frame  # every id once
    # among the rows of a repeated id, keep the earliest (the first row among equal times)
    counts = np.bincount(ids[has])
    rows = np.flatnonzero(has & (counts[np.maximum(ids, 0)] > 1))
    t = np.zeros(len(rows), dtype=np.int64)
    if time in frame.columns:
        with warnings.catch_warnings():  # the question reading these times says it once, not this helper
            warnings.simplefilter("ignore", UserWarning)
            t = ns(frame[time].iloc[rows])
    keep = rows[np.lexsort((rows, t, ids[rows]))]
    c = ids[keep]
    out = np.ones(len(frame), dtype=bool)
    out[keep[np.r_[False, c[1:] == c[:-1]]]] = False
    return frame[out]


def tie_order(g: np.ndarray, t: np.ndarray, rows: np.ndarray, frame: pd.DataFrame, id_column: str = "id") -> np.ndarray:
    """``rows`` ordered by (group, time, id): events at the same millisecond are ordered by their event id, so
    the answer does not depend on the order of the rows (which a shuffle across partitions does not keep).
    Ids are compared only for rows that share a group and a time (few, in millisecond data).

    >>> f = pd.DataFrame({"id": ["b", "a", "c"]})
    >>> tie_order(np.array([0, 0, 0]), np.array([5, 5, 1]), np.arange(3), f).tolist()
    [2, 1, 0]
    """
    order = rows[np.lexsort((t[rows], g[rows]))]
    if id_column not in frame.columns or len(order) < 2:
        return order
    gs, ts = g[order], t[order]
    same = (gs[1:] == gs[:-1]) & (ts[1:] == ts[:-1])
    if not same.any():
        return order
    tied = np.zeros(len(order), dtype=bool)
    tied[1:] |= same
    tied[:-1] |= same
    at = np.flatnonzero(tied)
    run = np.cumsum(np.r_[True, ~same])[at]  # which run of equal (group, time) each tied row is in
    picked, column = order[at], frame[id_column]
    # the usual few tied rows one by one: ``iloc`` on a column of Arrow strings read in several chunks joined
    # the chunks first (the 1M lake's 94 tied ids cost 3 to 80 ms that way)
    ids = (pd.Series([column.array[i] for i in picked], dtype=object) if len(picked) <= 4096
           else column.iloc[picked].astype(object))
    rank = pd.factorize(ids.where(ids.notna(), None), sort=True, use_na_sentinel=True)[0]
    rank = np.where(rank < 0, np.iinfo(np.int64).max, rank)  # rows without an id after those with one
    order[at] = order[at][np.lexsort((rank, run))]
    return order


def ms_floor(t: np.ndarray) -> np.ndarray:
    """Integer ns times floored to the millisecond (NaT kept): "the same millisecond" is a tie."""
    return np.where(t == NAT, NAT, t // 1_000_000 * 1_000_000)


def ms_ticks(series: pd.Series, function: str = "analysis") -> np.ndarray:
    """Times as whole milliseconds since the epoch (int64, NaT as ``NAT``), for questions that only order
    events: ``ms_floor(ns(series)) // 10**6``, but a lake's column (zoned, in ms) is taken as it is, uncopied
    (three event-sized arrays fewer).

    >>> ms_ticks(pd.Series(pd.to_datetime(["2026-11-01 00:00:00.0017", None], utc=True))).tolist()[0]
    1793491200001
    """
    if isinstance(series.dtype, pd.DatetimeTZDtype) and series.dt.unit == "ms":
        return pd.DatetimeIndex(series).asi8
    t = ns(series, function=function)
    return np.where(t == NAT, NAT, t // 1_000_000)


def codes(series: pd.Series, wide: bool = True) -> tuple[np.ndarray, Any]:
    """Integer codes (-1 for missing) and the values they stand for.

    A categorical already holds its codes; hashing them again took a third of
    sessionize's time on 10M rows. They are widened to int64 for numpy's arithmetic;
    ``wide=False`` leaves them in their own type, uncopied, for a pass that only indexes with them.

    >>> codes(pd.Series(["b", "a", None, "b"], dtype="category"), wide=False)[0].dtype
    dtype('int8')
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        c = series.array.codes  # the Categorical's own array: no Series made around it
        return (c.astype(np.int64) if wide else c), series.cat.categories
    return pd.factorize(series, use_na_sentinel=True)


def payload_dict(value: Any) -> dict:
    """A payload as a dict: a dict as it is, JSON text parsed, anything else empty.

    Dask's ``from_pandas`` turns a column of dicts into their Python text (``{'device': 'mobile'}``,
    its ``convert-string`` option), which is not JSON: such text is read as the Python literal it is.

    >>> payload_dict('{"device": "mobile"}') == payload_dict("{'device': 'mobile'}") == {"device": "mobile"}
    True
    """
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            import ast

            try:
                parsed = ast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                raise ValueError(f"payload: {value[:60]!r} is neither a JSON object nor a dict") from None
        return parsed if isinstance(parsed, dict) else {}
    return {}


def payload_field(df: pd.DataFrame, field: str, payload: str = "payload") -> pd.Series:
    """One payload field as a Series (missing values as None/NaN): the flattened ``payload.<field>`` column,
    else a plain ``<field>`` column (a CSV's ``loadTimeMs``), else the ``payload`` dicts or JSON text. Every
    question reads fields here, so a flat column counts everywhere alike.

    >>> payload_field(pd.DataFrame({"loadTimeMs": [800]}), "loadTimeMs").tolist()
    [800]
    """
    for flat in (f"{payload}.{field}", field):
        if flat in df.columns and flat != payload:
            return df[flat]
    if payload not in df.columns:
        return pd.Series(None, index=df.index, dtype=object)
    # dicts (events_frame) or JSON text (a lake's free-form payloads)
    return pd.Series([payload_dict(p).get(field) if p is not None else None for p in df[payload]],
                     index=df.index, dtype=object)


def check_event_keys(keys: Sequence[str], parameter: str, function: str, df=None, column: str = "key",
                     strict: bool = False) -> list[str]:
    """``keys`` as a list, after checking each against the catalog: a misspelt step would otherwise
    count 0 without a word.

    Decided: an event key of the catalog or ``custom.NAME`` always passes (a catalog key the data
    does not hold is a real 0). Any other value passes when the data's ``column`` holds it (a
    funnel over another alphabet); when it does not, ``strict`` raises ValueError naming the keys
    (the CLI, whose steps are event keys) and otherwise a UserWarning says the count will be 0 and
    names the nearest key. On Dask the data is looked at only when a key is unknown to the catalog.

    >>> check_event_keys(["viewer_loaded", "cta_clicked", "custom.cart"], "steps", "funnel", strict=True)
    ['viewer_loaded', 'cta_clicked', 'custom.cart']
    >>> check_event_keys(["cta_clikced"], "steps", "funnel", strict=True)
    Traceback (most recent call last):
    ...
    ValueError: funnel: steps: 'cta_clikced' is not an event key; did you mean cta_clicked? The keys are animation_played, ..., or custom.NAME
    """
    import difflib

    keys = list(keys)
    catalog_keys = {k for k, spec in CATALOG.items() if not spec.free_form}
    odd = [k for k in keys if not (isinstance(k, str) and (k in catalog_keys or (k.startswith("custom.") and len(k) > 7)))]
    if not odd:
        return keys
    present: set = set()
    if df is not None and column in df.columns:
        values = df[column].dropna().unique()
        present = set((values.compute() if hasattr(values, "compute") else values).tolist())
    for k in odd:
        if k in present:
            continue
        known = sorted(catalog_keys | {str(v) for v in present})
        close = difflib.get_close_matches(str(k), known, n=1)
        hint = f"; did you mean {close[0]}?" if close else "."
        if strict:
            raise ValueError(f"{function}: {parameter}: {k!r} is not an event key{hint} The keys are "
                             f"{', '.join(known)}, or custom.NAME")
        warnings.warn(f"{function}: {parameter}: {k!r} is neither an event key nor in the data, so it counts 0{hint}",
                      UserWarning, stacklevel=3)
    return keys


def warn_unseen(field: str, parameter: str, function: str, columns, consequence: str) -> None:
    """Warn that no event has ``field`` (a column, a ``payload.<field>`` column or a payload field), naming the
    nearest column or payload field: a misspelt breakdown would otherwise put every group under one value.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_unseen("device", "breakdown", "funnel", ["Device", "key"], "every group counts under 'unknown'")
    >>> str(w[0].message)
    "funnel: breakdown: no event has 'device' (a column or payload field), so every group counts under 'unknown'; did you mean 'Device'?"
    """
    import difflib

    from ..schema import PAYLOAD_FIELDS

    names = [str(c).removeprefix("payload.") for c in columns] + list(PAYLOAD_FIELDS)
    same = [n for n in names if n.lower() == str(field).lower() and n != field]
    close = same or difflib.get_close_matches(str(field), names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    warnings.warn(f"{function}: {parameter}: no event has {field!r} (a column or payload field), so {consequence}"
                  f"{hint}", UserWarning, stacklevel=3)


def check_columns(df: pd.DataFrame, *names: str) -> None:
    missing = [n for n in names if n not in df.columns]
    if missing:
        raise KeyError(f"missing column(s) {missing}; have {list(df.columns)}")


# --------------------------------------------------------------------------
# Loading


def pct_name(q: float) -> str:
    """The column name of a percentile: 0.5 -> ``p50``, 0.999 -> ``p99_9``."""
    return "p" + f"{q * 100:g}".replace(".", "_")


def quantile_from_counts(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The ``q`` quantile of a sample given as distinct ``values`` with their ``counts``, interpolated
    linearly between ranks exactly as ``numpy.quantile``/pandas do; NaN for an empty sample.

    Summaries computed per Dask partition add up as counts of distinct values (times to convert are
    whole milliseconds in the contract), so the exact quantile needs no event gathered in one place.
    """
    values, counts = np.asarray(values, dtype=np.float64), np.asarray(counts, dtype=np.int64)
    keep = counts > 0
    values, counts = values[keep], counts[keep]
    n = int(counts.sum())
    if n == 0:
        return float("nan")
    order = np.argsort(values, kind="stable")
    values, cum = values[order], np.cumsum(counts[order])
    pos = q * (n - 1)
    lo, frac = int(np.floor(pos)), pos - np.floor(pos)
    v_lo = values[np.searchsorted(cum, lo + 1)]
    v_hi = values[np.searchsorted(cum, min(lo + 2, n))]
    return float(v_lo + (v_hi - v_lo) * frac)
