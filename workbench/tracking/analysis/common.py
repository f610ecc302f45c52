"""What every analysis question shares: column checks, timestamps, integer codes, payload fields, event keys.

>>> check_columns(pd.DataFrame({"key": []}), "key")
>>> quantile_from_counts(np.array([1.0, 2.0, 10.0]), np.array([1, 2, 1]), 0.5)
2.0
"""

from __future__ import annotations

import json
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..catalog import CATALOG

EVENT_COLUMNS = ("viewerToken", "sessionId", "key", "timestamp", "payload", "id")
#: NaT as integer nanoseconds
NAT = np.iinfo(np.int64).min


def ns(series: pd.Series) -> np.ndarray:
    """Nanoseconds since the epoch (UTC for aware columns) as int64; NaT is int64 min."""
    if not pd.api.types.is_datetime64_any_dtype(series.dtype):
        series = pd.to_datetime(series, utc=True)
    return pd.DatetimeIndex(series).as_unit("ns").asi8


def to_utc(values: pd.Series) -> pd.Series:
    """Epoch milliseconds, ISO strings, or a mix, as datetime64[ns, UTC]."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        out = values if getattr(values.dt, "tz", None) is not None else values.dt.tz_localize("UTC")
        return out.dt.tz_convert("UTC").dt.as_unit("ns")
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return pd.to_datetime(values, unit="ms", utc=True).dt.as_unit("ns")
    out = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns, UTC]")
    is_num = values.map(lambda v: isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool))
    if is_num.any():
        out[is_num] = pd.to_datetime(values[is_num].astype("float64"), unit="ms", utc=True).dt.as_unit("ns")
    is_str = values.map(lambda v: isinstance(v, str))
    if is_str.any():
        out[is_str] = pd.to_datetime(values[is_str], format="ISO8601", utc=True).dt.as_unit("ns")
    other = ~is_num & ~is_str & values.notna()
    if other.any():  # datetime or Timestamp objects
        out[other] = pd.to_datetime(values[other], utc=True).dt.as_unit("ns")
    return out


def codes(series: pd.Series) -> tuple[np.ndarray, Any]:
    """Integer codes (-1 for missing) and the values they stand for.

    A categorical already holds its codes; hashing them again took a third of
    sessionize's time on 10M rows.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.cat.codes.to_numpy().astype(np.int64), series.cat.categories
    return pd.factorize(series, use_na_sentinel=True)


def payload_dict(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        parsed = json.loads(value)
        return parsed if isinstance(parsed, dict) else {}
    return {}


def payload_field(df: pd.DataFrame, field: str, payload: str = "payload") -> pd.Series:
    """One payload field as a Series (missing values as None/NaN)."""
    flat = f"{payload}.{field}"
    if flat in df.columns:
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
    import warnings

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
