"""Visitor tracking: the event catalog and its checks, synthetic traffic, and pandas analysis.

>>> from workbench.tracking import CATALOG, check_event
>>> "viewer_loaded" in CATALOG
True
"""

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
    parse_body,
)

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
    "parse_body",
]
