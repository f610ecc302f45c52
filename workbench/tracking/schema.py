"""The event lake's schema, written down once: columns, types and layout shared by synth, export and readers.

An *event lake* is a folder of Parquet files partitioned by day, hive style::

    LAKE/_workbench_lake.json              layout note (readers that do not know it ignore it)
    LAKE/_visitor_numbers.arrow            each visitor's number in the lake (see below)
    LAKE/_visitor_numbers.lock             the lock its writers take to append to it (no reader opens it)
    LAKE/date=2026-11-01/part-00000.parquet
    LAKE/date=2026-11-01/part-00001.parquet
    LAKE/date=2026-11-02/part-00000.parquet
    ...

Dask, DuckDB, Spark and pandas all read it. One file holds one day's events of one
*session bucket*: every event of a session is in files with the same part number,
whatever the day, so :func:`workbench.tracking.read_events` can hand each bucket to one
Dask partition and sessions are never split (no shuffle). ``_workbench_lake.json``
records that promise (``"session_buckets": true``); a lake written by another tool is
read all the same, and the analysis then shuffles by session itself.

Columns (:data:`SCHEMA`), one row per event:

- ``viewerToken`` (dictionary string), ``sessionId`` (string; a lake's reader takes it as a
  dictionary too, :data:`workbench.tracking.lake.READ_SCHEMA`), ``id`` (string, null when
  the sender gave none), ``key`` (dictionary string);
- ``timestamp`` and ``receivedAt``: ``timestamp[ms, UTC]`` (the contract's precision;
  ``receivedAt`` is null for synthetic events);
- ``visitorId`` (dictionary string: read as a categorical, its integer codes are what
  retention groups by): the visitor a session belongs to, the same on all its events.
  The interface carries no visitor (a viewer's ``sessionId`` is what it sends), so the
  service's export leaves it null; synthetic traffic fills it, with visitors who come
  back in new sessions on later days, so retention by visitor has something to find;
- ``payload.<field>``: one column per payload field that the catalog
  (:data:`workbench.tracking.catalog.CATALOG`) knows, typed from its ``FieldSpec``
  (number: float64, string: string, or dictionary string when the catalog lists the
  allowed values, boolean: bool), null where the event's key has no such field;
- ``payload``: the JSON text of whatever the columns above do not hold (``custom.NAME``
  payloads), else null.

The ``date`` partition column is the UTC day of ``timestamp``; it is in the path, not in
the files. Every file a workbench writer writes (``write_synth_lake``, ``LakeWriter``,
``lake_from_parquet``, ``workbench export``) holds one more column beside ``visitorId``,
not in :data:`SCHEMA` nor in the frames ``read_events`` makes: ``visitorNumber`` (int32,
uncompressed), the visitor's one number in the lake (null where the visitor is), from the
lake's table ``LAKE/_visitor_numbers.arrow`` (:mod:`~workbench.tracking.visitor_numbers`).
Each such file's footer holds a stamp (key ``workbench.visitor_numbers``): the state of that
table its numbers came from, one of the stamps the table lists.
A question that only counts visitors (stickiness, lifecycle) reads the numbers instead of
the ids when every file of the lake holds them with a stamp its table lists; a lake
with one file without them (written before them, dropped in by hand) or stamped by another
lake's table (a file copied from it) is read by the ids.

>>> [f.name for f in SCHEMA][:6]
['viewerToken', 'sessionId', 'id', 'key', 'timestamp', 'receivedAt']
>>> str(SCHEMA.field("payload.loadTimeMs").type), str(SCHEMA.field("payload.platform").type)
('double', 'dictionary<values=string, indices=int32, ordered=0>')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pyarrow as pa

from .catalog import CATALOG
from .fields import kind_of

__all__ = ["SCHEMA", "PAYLOAD_FIELDS", "LAKE_NOTE", "PART_FORMAT", "to_table", "from_records", "empty_frame"]

LAKE_NOTE = "_workbench_lake.json"
PART_FORMAT = "part-{:05d}.parquet"
SCHEMA_VERSION = 1

_STRING_DICT = pa.dictionary(pa.int32(), pa.string())


def _arrow_type(spec) -> pa.DataType:
    return kind_of(spec).arrow_type(spec)  # one entry per field kind: workbench.tracking.fields


def _payload_fields() -> dict[str, pa.DataType]:
    out: dict[str, pa.DataType] = {}
    for spec in CATALOG.values():
        for f in spec.fields:
            t = _arrow_type(f)
            if out.setdefault(f.name, t) != t:  # the catalog would have to give one name two types
                raise TypeError(f"schema: payload field {f.name!r} has two types in the catalog")
    return out


#: Payload field name -> Arrow type, for every field of the catalog, in catalog order.
PAYLOAD_FIELDS: Mapping[str, pa.DataType] = _payload_fields()

#: The lake's columns (the ``date`` partition column lives in the path).
SCHEMA = pa.schema(
    [("viewerToken", _STRING_DICT), ("sessionId", pa.string()), ("id", pa.string()), ("key", _STRING_DICT),
     ("timestamp", pa.timestamp("ms", tz="UTC")), ("receivedAt", pa.timestamp("ms", tz="UTC")),
     ("visitorId", _STRING_DICT)]
    + [(f"payload.{name}", t) for name, t in PAYLOAD_FIELDS.items()]
    + [("payload", pa.string())]
)


def to_table(columns: Mapping[str, Any]) -> pa.Table:
    """A table in :data:`SCHEMA` from column arrays (anything ``pa.array`` takes); absent columns are null.

    >>> t = to_table({"sessionId": ["s"], "key": ["heartbeat"], "timestamp": [0], "payload.visible": [True]})
    >>> t.schema == SCHEMA, t.column("viewerToken").null_count
    (True, 1)
    """
    n = None
    arrays = []
    for f in SCHEMA:
        if f.name in columns:
            arr = columns[f.name]
            if not isinstance(arr, (pa.Array, pa.ChunkedArray)):
                if pa.types.is_floating(f.type) and isinstance(arr, (list, tuple)):
                    # the catalog takes any JSON number: an integer past int64 (1e20 written out) is a float here
                    arr = [float(v) if type(v) is int else v for v in arr]
                arr = pa.array(arr, from_pandas=True)
            if pa.types.is_dictionary(f.type) and not pa.types.is_dictionary(arr.type):
                arr = arr.cast(pa.string()).dictionary_encode() if arr.type != pa.string() else arr.dictionary_encode()
            arrays.append(arr.cast(f.type))
            n = len(arr)
        else:
            arrays.append(None)
    if n is None:
        n = 0
    arrays = [a if a is not None else pa.nulls(n, f.type) for a, f in zip(arrays, SCHEMA, strict=True)]
    return pa.Table.from_arrays(arrays, schema=SCHEMA)


def from_records(records: Iterable[Mapping[str, Any]]) -> pa.Table:
    """Exported events (the service's JSON-lines form) as a table in :data:`SCHEMA`.

    ``timestamp``/``receivedAt`` may be epoch ms or ISO 8601; ``payload`` a dict or JSON
    text; catalog fields go to their columns and the rest stays in ``payload``.

    >>> t = from_records([{"viewerToken": "v", "sessionId": "s", "key": "custom.cart", "timestamp": 5,
    ...                    "payload": {"sku": "a"}}, {"sessionId": "s", "key": "viewer_loaded",
    ...                    "timestamp": "2026-11-01T00:00:00Z", "payload": {"loadTimeMs": 9}}])
    >>> t.column("payload").to_pylist(), t.column("payload.loadTimeMs").to_pylist()
    (['{"sku":"a"}', None], [None, 9.0])
    """
    import pandas as pd

    cols: dict[str, list] = {f.name: [] for f in SCHEMA}
    for r in records:
        for name in ("viewerToken", "sessionId", "id", "key", "visitorId"):
            cols[name].append(r.get(name))
        cols["timestamp"].append(r.get("timestamp"))
        cols["receivedAt"].append(r.get("receivedAt"))
        payload = r.get("payload")
        if isinstance(payload, str):
            payload = json.loads(payload)
        payload = dict(payload or {})
        for name in PAYLOAD_FIELDS:
            cols[f"payload.{name}"].append(payload.pop(name, None))
        cols["payload"].append(json.dumps(payload, separators=(",", ":"), sort_keys=True) if payload else None)
    for name in ("timestamp", "receivedAt"):
        values = pd.Series(cols[name], dtype=object)
        stamps = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ms, UTC]")
        numeric = values.map(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool))
        text = values.map(lambda v: isinstance(v, str))
        if numeric.any():
            stamps[numeric] = pd.to_datetime(values[numeric].astype("int64"), unit="ms", utc=True)
        if text.any():
            stamps[text] = pd.to_datetime(values[text], format="ISO8601", utc=True).dt.as_unit("ms")
        cols[name] = pa.array(stamps, type=pa.timestamp("ms", tz="UTC"), from_pandas=True)
    return to_table(cols)


def empty_frame():
    """A zero-row pandas frame with the lake's columns and dtypes (Dask's ``meta``).

    >>> empty_frame()["timestamp"].dtype
    datetime64[ms, UTC]
    """
    return SCHEMA.empty_table().to_pandas()


def lake_note(session_buckets: bool, visitor_buckets: bool = False, unique_ids: bool = False) -> str:
    """The text of ``_workbench_lake.json``: ``session_buckets`` promises that each session's events share
    one part number; ``visitor_buckets`` that each visitor's do (a visitor's sessions with it);
    ``unique_ids`` that no event ``id`` repeats (the analysis then skips looking for repeats)."""
    note = {"format": "workbench event lake", "schemaVersion": SCHEMA_VERSION,
            "partitioning": "date=YYYY-MM-DD (UTC day of timestamp)",
            "session_buckets": bool(session_buckets), "visitor_buckets": bool(visitor_buckets)}
    if unique_ids:
        note["unique_ids"] = True
    return json.dumps(note, indent=1, sort_keys=True) + "\n"
