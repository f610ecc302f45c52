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
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    # What a type checker and an editor see: the names __getattr__ loads on first use (_LAZY), with their types.
    from .analysis import (
        ar_conversion as ar_conversion,
    )
    from .analysis import (
        compare_variants as compare_variants,
    )
    from .analysis import (
        dwell_times as dwell_times,
    )
    from .analysis import (
        events_frame as events_frame,
    )
    from .analysis import (
        events_over_time as events_over_time,
    )
    from .analysis import (
        funnel as funnel,
    )
    from .analysis import (
        funnel_correlation as funnel_correlation,
    )
    from .analysis import (
        lifecycle as lifecycle,
    )
    from .analysis import (
        load_times as load_times,
    )
    from .analysis import (
        paths as paths,
    )
    from .analysis import (
        plot_correlation as plot_correlation,
    )
    from .analysis import (
        plot_events_over_time as plot_events_over_time,
    )
    from .analysis import (
        plot_funnel as plot_funnel,
    )
    from .analysis import (
        plot_lifecycle as plot_lifecycle,
    )
    from .analysis import (
        plot_load_times as plot_load_times,
    )
    from .analysis import (
        plot_paths as plot_paths,
    )
    from .analysis import (
        plot_rank as plot_rank,
    )
    from .analysis import (
        plot_retention as plot_retention,
    )
    from .analysis import (
        plot_stickiness as plot_stickiness,
    )
    from .analysis import (
        plot_variants as plot_variants,
    )
    from .analysis import (
        rank as rank,
    )
    from .analysis import (
        read_events as read_events,
    )
    from .analysis import (
        retention as retention,
    )
    from .analysis import (
        retention_curve as retention_curve,
    )
    from .analysis import (
        sessionize as sessionize,
    )
    from .analysis import (
        stickiness as stickiness,
    )
    from .analysis import (
        time_to_convert as time_to_convert,
    )
    from .analysis import (
        transitions as transitions,
    )
    from .analysis import (
        viewer_kpis as viewer_kpis,
    )
    from .explorer import Explorer as Explorer
    from .explorer import explore as explore
    from .lake import LakeWriter as LakeWriter
    from .lake import write_synth_lake as write_synth_lake
    from .synth import generate as generate
    from .synth import to_records as to_records
    from .synth import write_events as write_events

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


def __getattr__(name: str) -> object:
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
