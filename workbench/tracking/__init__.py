"""Visitor tracking: the event catalog and its checks, synthetic traffic, the event lake, and analysis on pandas or Dask.

The catalog is imported at once (the service and client need it, and it needs no
pandas); the analysis, lake and synthetic-traffic names load pandas, numpy, pyarrow
(and dask, for Dask frames) on first use.
Sending events is the client's job (``client.tracking.send``, in ``workbench.client``):
this package imports nothing from the client or the service.

>>> from workbench.tracking import CATALOG, check_event
>>> "viewer_loaded" in CATALOG
True
"""

from __future__ import annotations

import importlib

from .catalog import (
    BATCH_ERROR_CODES,
    CATALOG,
    EVENT_ERROR_CODES,
    MAX_EVENTS,
    MAX_PAYLOAD_BYTES,
    BatchCheck,
    BatchRejected,
    EventSpec,
    FieldSpec,
    catalog_frame,
    check_batch,
    check_event,
)

_LAZY = {
    **{name: ".analysis" for name in (
        "events_frame", "read_events", "sessionize", "funnel", "load_times", "dwell_times", "ar_conversion", "rank",
        "events_over_time", "viewer_kpis", "retention", "retention_curve", "paths", "transitions", "compare_variants",
        "time_to_convert", "funnel_correlation", "lifecycle", "stickiness",
        "plot_funnel", "plot_load_times", "plot_events_over_time", "plot_rank", "plot_retention", "plot_paths",
        "plot_lifecycle", "plot_stickiness", "plot_correlation", "plot_variants")},
    **{name: ".synth" for name in ("generate", "to_records", "write_events")},
    **{name: ".lake" for name in ("write_synth_lake", "LakeWriter")},
    **{name: ".explorer" for name in ("explore", "Explorer")},
}
# Names that lived here before the batch sender moved into the client.
_MOVED = {"send_events": "client.tracking.send(viewer_token, events)",
          "asend_events": "await async_client.tracking.send(viewer_token, events)",
          "SendReport": "workbench.client.SendReport"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if name in _MOVED:
        raise AttributeError(f"workbench.tracking.{name} moved with the batch sender into the client: use {_MOVED[name]}")
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "BATCH_ERROR_CODES",
    "CATALOG",
    "EVENT_ERROR_CODES",
    "MAX_EVENTS",
    "MAX_PAYLOAD_BYTES",
    "BatchCheck",
    "BatchRejected",
    "EventSpec",
    "FieldSpec",
    "catalog_frame",
    "check_batch",
    "check_event",
    *_LAZY,
]
