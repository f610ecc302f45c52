"""What every analysis question shares: column checks, integer codes, payload fields, event keys (times: .times;
which copy of a repeated event counts: .copies).

>>> check_columns(pd.DataFrame({"key": []}), "key")
>>> quantile_from_counts(np.array([1.0, 2.0, 10.0]), np.array([1, 2, 1]), 0.5)
2.0
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..catalog import CATALOG
from .copies import VISITOR, copy_order, first_events  # noqa: F401  (where every question finds them)

if TYPE_CHECKING:
    import dask.dataframe as dd


EVENT_COLUMNS = ("viewerToken", "sessionId", "key", "timestamp", "payload", "id")


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


def tie_order(g: np.ndarray, t: np.ndarray, rows: np.ndarray, frame: pd.DataFrame, id_column: str = "id") -> np.ndarray:
    """``rows`` ordered by (group, time, id): events at the same millisecond are ordered by their event id, so
    the answer does not depend on the order of the rows (which a shuffle across partitions does not keep).
    Ids are compared only for rows that share a group and a time (few, in millisecond data).

    >>> f = pd.DataFrame({"id": ["b", "a", "c"]})
    >>> tie_order(np.array([0, 0, 0]), np.array([5, 5, 1]), np.arange(3), f).tolist()
    [2, 1, 0]
    """
    order = rows[stable_order(g[rows], t[rows])]
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


def stable_order(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """``np.lexsort((minor, major))``, the same permutation (stable: equal pairs in input order), for integer arrays.

    Both packed into one int64 key when their spans allow and sorted by numpy's default sort (vectorized, about
    five times as fast as a stable sort), then each run of equal keys put back in input order (few: events of one
    group at the same millisecond); ``minor`` already in order (times read from a lake) packs ``major`` with the
    position instead. On a 1M lake's 700,000 events: 52 ms for lexsort, 38 ms packed, 10 ms in time order.

    >>> stable_order(np.array([1, 0, 1, 0]), np.array([5, 9, 5, 2])).tolist()
    [3, 1, 0, 2]
    """
    major, minor = np.asarray(major), np.asarray(minor)
    n = len(major)
    if n < 2:
        return np.arange(n)
    m0, n0 = int(major.min()), int(minor.min())
    if (int(major.max()) - m0 + 1) * n < 2**62 and bool(np.all(minor[1:] >= minor[:-1])):
        # already in ``minor`` order (a lake bucket's events, day files in order, each in time order): ordered by
        # (major, position), every key distinct, so no run to mend
        return np.argsort((major.astype(np.int64) - m0) * n + np.arange(n, dtype=np.int64))
    span = int(minor.max()) - n0 + 1
    if (int(major.max()) - m0 + 1) * span >= 2**62:  # too wide to pack
        return np.lexsort((minor, major))
    key = (major.astype(np.int64) - m0) * span + (minor.astype(np.int64) - n0)
    order = np.argsort(key)
    key = key[order]
    same = key[1:] == key[:-1]
    if same.any():
        tied = np.zeros(len(order), dtype=bool)
        tied[1:] |= same
        tied[:-1] |= same
        at = np.flatnonzero(tied)
        run = np.cumsum(np.r_[True, ~same])[at]  # which run of equal keys each tied position is in
        order[at] = order[at][np.lexsort((order[at], run))]
    return order


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


def as_text(values: Any) -> np.ndarray:
    """Values as the text every question compares and names them by (variants, breakdowns, property values):
    ``1`` and ``"1"`` are one value, and a whole number held as a float is its integer, ``1.0`` is ``"1"``: a column
    of integer variant ids with a missing value is a float column, and its variants are still ``"0"`` and ``"1"``
    (on every Dask partition alike, with or without a missing value). Missing values are None.

    >>> as_text(pd.Series([1.0, None, 2.5, "b", 7, True, float("nan")])).tolist()
    ['1', None, '2.5', 'b', '7', 'True', None]
    """
    array = values.to_numpy(dtype=object) if hasattr(values, "to_numpy") else np.asarray(values, dtype=object)
    out = np.empty(len(array), dtype=object)
    for i, v in enumerate(array):
        out[i] = _label(v)
    return out


def _label(value: Any) -> str | None:
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return None
        if np.isfinite(value) and value == int(value):
            return str(int(value))
    return str(value)


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
    column = df[payload]
    if not pd.api.types.is_object_dtype(column.dtype) or not any(isinstance(p, dict) for p in column.head(64)):
        # JSON text (a lake's free-form payloads): each distinct text parsed once (the exposures of an experiment
        # are a handful of texts repeated; parsing them one by one took most of a readout's time)
        try:
            text, distinct = pd.factorize(column, use_na_sentinel=True)
        except TypeError:  # dicts after all, further down
            text = None
        if text is not None:
            values = np.array([payload_dict(p).get(field) for p in distinct] + [None], dtype=object)
            return pd.Series(values[text], index=df.index, dtype=object)
    return pd.Series([payload_dict(p).get(field) if p is not None else None for p in column],  # dicts
                     index=df.index, dtype=object)


def check_event_keys(keys: Sequence[str], parameter: str, function: str, df: pd.DataFrame | dd.DataFrame | None = None,
                     column: str = "key",
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


def warn_unseen(field: str, parameter: str, function: str, columns: Iterable[Any], consequence: str) -> None:
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


def unique_pairs(a: np.ndarray, b: np.ndarray, counts: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (a, b) pairs of two integer arrays, sorted by a then b, and how often each occurs: the two
    packed into one int64 and sorted once (``np.unique(..., axis=0)`` sorts rows as records, ten times slower).
    With ``counts=False`` the third array is empty and, where the possible pairs are few enough, each is marked in
    one byte, not counted in eight (a table of visitors by days: an eighth of the fresh pages).

    >>> [x.tolist() for x in unique_pairs(np.array([2, 1, 2, 1]), np.array([5, 7, 5, -3]))]
    [[1, 1, 2], [-3, 7, 5], [1, 1, 2]]
    >>> [x.tolist() for x in unique_pairs(np.array([2, 1, 2, 1]), np.array([5, 7, 5, -3]), counts=False)]
    [[1, 1, 2], [-3, 7, 5], []]
    >>> [x.tolist() for x in unique_pairs(np.array([2**61, 0, 2**61]), np.array([9, 2**40, 9]))]  # too wide to pack
    [[0, 2305843009213693952], [1099511627776, 9], [1, 2]]
    """
    a, b = np.asarray(a), np.asarray(b, dtype=np.int64)
    a = a if a.dtype.kind in "iu" else a.astype(np.int64)  # integers as they are: an int32 unit code is widened once
    if not len(a):
        return a.astype(np.int64), b.astype(np.int64), np.empty(0, np.int64)
    a_values = b_values = None
    if (int(a.max()) - int(a.min()) + 1) * (int(b.max()) - int(b.min()) + 1) >= 2**62:  # their values, numbered
        a, a_values = pd.factorize(np.asarray(a, dtype=np.int64), sort=True)
        b, b_values = pd.factorize(np.asarray(b, dtype=np.int64), sort=True)
    a0, b0 = int(a.min()), int(b.min())
    span = int(b.max()) - b0 + 1
    # (a - a0) * span + (b - b0) in one new array, not four: at 10M events each is 25 MB of fresh pages
    key = np.subtract(a, a0, dtype=np.int64)
    key *= span
    key += b
    key -= b0
    cells = (int(a.max()) - a0 + 1) * span
    if not counts and cells <= 8 * len(key) + 4096:  # a byte per possible pair: no larger than the keys
        seen = np.zeros(cells, dtype=bool)
        seen[key] = True
        key, n = np.flatnonzero(seen), np.empty(0, np.int64)
    elif cells <= 4 * len(key) + 4096:  # few enough possible pairs to count them all: no sort (5 times faster)
        n = np.bincount(key, minlength=cells)
        key = np.flatnonzero(n)
        n = n[key]
    else:
        key, n = np.unique(key, return_counts=True)
    out_a, out_b = key // span + a0, key % span + b0
    if a_values is not None:
        out_a, out_b = np.asarray(a_values, dtype=np.int64)[out_a], np.asarray(b_values, dtype=np.int64)[out_b]
    return out_a, out_b, n


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
    return quantiles_from_counts(values, counts, [q])[0]


def quantiles_from_counts(values: np.ndarray, counts: np.ndarray, qs: Sequence[float]) -> list[float]:
    """:func:`quantile_from_counts` for each of ``qs``, the sample sorted once.

    >>> quantiles_from_counts(np.array([10.0, 1.0, 2.0]), np.array([1, 1, 2]), [0, 0.5, 1])
    [1.0, 2.0, 10.0]
    """
    values, counts = np.asarray(values, dtype=np.float64), np.asarray(counts, dtype=np.int64)
    keep = counts > 0
    values, counts = values[keep], counts[keep]
    n = int(counts.sum())
    if n == 0:
        return [float("nan")] * len(qs)
    order = np.argsort(values, kind="stable")
    values, cum = values[order], np.cumsum(counts[order])
    out = []
    for q in qs:
        pos = q * (n - 1)
        lo, frac = int(np.floor(pos)), pos - np.floor(pos)
        v_lo = values[np.searchsorted(cum, lo + 1)]
        v_hi = values[np.searchsorted(cum, min(lo + 2, n))]
        out.append(float(v_lo + (v_hi - v_lo) * frac))
    return out
