"""When and how long to wait before repeating a request.

Only requests that are safe to repeat are retried: on a connection error or a
timeout, on 429 (honouring ``Retry-After``) and on 5xx. The wait grows
exponentially with full jitter, capped, so many clients do not retry in step.

>>> policy = RetryPolicy(retries=3, backoff=0.5, max_backoff=4.0)
>>> [policy.should_retry(attempt=0, status=s) for s in (200, 404, 429, 503)]
[False, False, True, True]
>>> parse_retry_after("2")
2.0
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass
from typing import overload

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass(frozen=True)
class RetryPolicy:
    """retries: repeats after the first try (0 turns retrying off).
    backoff: the first wait's upper bound in seconds, doubled each time up to max_backoff.
    max_retry_after: the longest Retry-After the client will honour before giving up.
    """

    retries: int = 3
    backoff: float = 0.25
    max_backoff: float = 8.0
    max_retry_after: float = 60.0

    def should_retry(self, attempt: int, status: int | None = None) -> bool:
        if attempt >= self.retries:
            return False
        return status is None or status in RETRY_STATUSES

    @overload
    def delay(self, attempt: int, retry_after: None = None, rng: random.Random | None = None) -> float: ...
    @overload
    def delay(self, attempt: int, retry_after: str | None, rng: random.Random | None = None) -> float | None: ...
    def delay(self, attempt: int, retry_after: str | None = None, rng: random.Random | None = None) -> float | None:
        """How long to wait before try ``attempt + 1``; None when Retry-After asks for too long."""
        wanted = parse_retry_after(retry_after)
        if wanted is not None:
            return wanted if wanted <= self.max_retry_after else None
        cap = min(self.max_backoff, self.backoff * (2 ** attempt))
        return (rng or random).uniform(0, cap)
