"""Events into frames: exported records (lists, JSON lines) as pandas, and lakes (local or in object storage) as Dask.

>>> events_frame([{"sessionId": "s", "key": "heartbeat", "timestamp": 1793491200000}])["timestamp"].dt.year.tolist()
[2026]
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pandas as pd

from .common import EVENT_COLUMNS, payload_dict
from .times import to_utc

if TYPE_CHECKING:
    import dask.dataframe as dd


__all__ = ["events_frame", "read_events"]


def events_frame(records: Any, flatten_payload: bool = False, tz: str | None = None) -> pd.DataFrame:
    """Exported events as a tidy frame, sorted by time (stable).

    ``records``: a list of dicts, a JSON-lines path, or a DataFrame, with the service's
    export fields ``viewerToken, sessionId, key, timestamp`` (epoch ms or ISO 8601; a time
    without a zone is in ``tz``, else UTC with a warning: :func:`~.times.to_utc`),
    ``payload`` (dict or JSON string) and ``id``.

    Output columns: ``viewerToken, sessionId, key, timestamp`` (datetime64[ns, UTC]),
    ``payload`` (dict, ``{}`` when absent), ``id``; with ``flatten_payload=True`` also one
    ``payload.<field>`` column per payload field seen. The index is 0..n-1.

    >>> events_frame([{"sessionId": "s", "key": "heartbeat", "timestamp": 1793491200000,
    ...                "payload": {"visible": True}}], flatten_payload=True).iloc[0].to_dict()["payload.visible"]
    True
    """
    if isinstance(records, pd.DataFrame):
        df = records.copy()
    elif isinstance(records, (str, os.PathLike)):
        with open(records, encoding="utf-8") as fh:
            df = pd.DataFrame.from_records([json.loads(line) for line in fh if line.strip()])
    else:
        df = pd.DataFrame.from_records(list(records))
    for col in EVENT_COLUMNS:
        if col not in df.columns:
            df[col] = None
    extra = [c for c in df.columns if c not in EVENT_COLUMNS]
    df = df[list(EVENT_COLUMNS) + extra]
    df["timestamp"] = to_utc(df["timestamp"], tz=tz)
    df["payload"] = [payload_dict(p) for p in df["payload"]]
    df = df.sort_values("timestamp", kind="stable").reset_index(drop=True)
    if flatten_payload:
        flat = pd.DataFrame.from_records(list(df["payload"]), index=df.index)
        flat = flat.drop(columns=[c for c in flat.columns if f"payload.{c}" in df.columns])
        df = pd.concat([df, flat.add_prefix("payload.")], axis=1)
    return df


def read_events(path: str | os.PathLike[str], columns: Iterable[str] | None = None,
                storage_options: dict[str, Any] | None = None) -> dd.DataFrame:
    """A lake folder, ``.parquet`` or ``.jsonl`` file as a Dask DataFrame (see :func:`workbench.tracking.lake.read_events`).

    ``path`` may be a local path or an fsspec URL (``s3://bucket/lake``, through ``s3fs``;
    ``storage_options`` go to the filesystem, e.g. ``{"endpoint_url": ...}``).

    >>> import tempfile, pathlib
    >>> from workbench.tracking.lake import write_synth_lake
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "lake", 2_000, seed=4)
    >>> read_events(lake).npartitions  # one bucket: 2,000 events are one chunk of the writer
    1
    """
    from ..lake import read_events as _read

    return _read(path, columns=columns, storage_options=storage_options)

