"""Fault injection: failures armed through the control API, consumed one per call of their operation.

Every fault check of the service goes through :class:`Faults`: the operations
the HTTP layer answers (``check`` raises the injected answer) and the internal
steps (``take`` tells the step to fail). State is in memory, for demonstrations.

>>> f = Faults()
>>> f.arm({"operation": "animations.list", "count": 1, "status": 429})["status"]
429
>>> try:
...     f.check("animations.list")
... except ServiceError as e:
...     print(e.status, e.code)
429 injected_fault
>>> f.check("animations.list")  # consumed
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from workbench import options as opts
from workbench.service import spec
from workbench.service.errors import ServiceError

# The interface's operations, named as in /openapi.json and the client (workbench.service.spec).
HTTP_FAULT_OPERATIONS = spec.interface_names()
INTERNAL_FAULT_OPERATIONS = {
    "model.generate": "GET /model fails with 500 model_generation_failed",
    "preview.render": "GET /preview fails with 500 preview_generation_failed",
    "viewers.job": "the next regeneration job fails and keeps the previous files",
    "spaces.finalize": "finish-upload with success=true fails with 500 finalization_failed",
}
FAULT_FIELDS = ("operation", "count", "status", "retryAfter")


@dataclass
class Fault:
    operation: str
    remaining: int
    status: int = 503
    retry_after: float | None = None


class Faults:
    """Armed failures by operation name."""

    def __init__(self):
        self._lock = threading.Lock()
        self._armed: dict[str, Fault] = {}

    def arm(self, body: Any) -> dict:
        """Arm a fault from the control API's body ``{operation, count?, status?, retryAfter?}``."""
        if not isinstance(body, dict):
            raise ServiceError.bad_request("invalid_fault", "Send a JSON object {operation, count, status?, retryAfter?}.")
        unknown = [k for k in body if k not in FAULT_FIELDS]
        if unknown:
            raise ServiceError.invalid([opts.Problem(k, "unknown_field", "is not a field of a fault") for k in unknown], "fault")
        operation, count = body.get("operation"), body.get("count", 1)
        status, retry_after = body.get("status"), body.get("retryAfter")
        known = HTTP_FAULT_OPERATIONS + tuple(INTERNAL_FAULT_OPERATIONS)
        problems = []
        if operation not in known:
            problems.append(opts.Problem("operation", "not_allowed", f"must be one of {', '.join(known)}; got {operation!r}"))
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 1000:
            problems.append(opts.Problem("count", "out_of_range", "must be an integer from 0 to 1000"))
        if status is not None and (isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599):
            problems.append(opts.Problem("status", "out_of_range", "must be an HTTP error status from 400 to 599"))
        if retry_after is not None and (isinstance(retry_after, bool) or not isinstance(retry_after, (int, float)) or not 0 <= retry_after <= 3600):
            problems.append(opts.Problem("retryAfter", "out_of_range", "must be a number of seconds from 0 to 3600"))
        if problems or operation is None:   # (None is no known operation: among the problems)
            raise ServiceError.invalid(problems, "fault")
        fault = Fault(operation, count, status or (500 if operation in INTERNAL_FAULT_OPERATIONS else 503), retry_after)
        with self._lock:
            self._armed[operation] = fault
        return {"operation": fault.operation, "count": fault.remaining, "status": fault.status, "retryAfter": fault.retry_after}

    def take(self, operation: str) -> Fault | None:
        """The armed fault of ``operation`` (consuming one), or None."""
        with self._lock:
            f = self._armed.get(operation)
            if f is None or f.remaining <= 0:
                return None
            f.remaining -= 1
            return Fault(f.operation, 1, f.status, f.retry_after)

    def check(self, operation: str) -> None:
        """Raise the injected answer when a fault of this HTTP operation is armed."""
        fault = self.take(operation)
        if fault is None:
            return
        headers = None
        if fault.retry_after is not None:
            ra = fault.retry_after
            headers = {"Retry-After": str(int(ra) if float(ra).is_integer() else ra)}
        raise ServiceError(fault.status, "injected_fault",
                           f"The control API asked {operation} to fail with {fault.status}.", headers=headers)

    def clear(self) -> None:
        with self._lock:
            self._armed.clear()

    def listing(self) -> dict:
        with self._lock:
            armed = {k: {"remaining": f.remaining, "status": f.status, "retryAfter": f.retry_after}
                     for k, f in self._armed.items() if f.remaining > 0}
        return {"http": list(HTTP_FAULT_OPERATIONS), "internal": INTERNAL_FAULT_OPERATIONS, "armed": armed}
