"""Analysis of tracking events on pandas or Dask: visits, funnels, retention, paths, experiments and viewer KPIs.

One module per question, each function taking a DataFrame and column names and returning
a new pandas DataFrame that states its input and output columns (none sets a pandas
option):

- :mod:`.loading`: :func:`events_frame` (exported records as a frame), :func:`read_events`
  (a lake, local or ``s3://``, as a Dask frame);
- :mod:`.sessions`: :func:`sessionize` (visits), :func:`dwell_times`;
- :mod:`.funnels`: :func:`funnel` (ordered, strict or any order, exclusions, drop-off,
  times to convert, breakdowns), :func:`ar_conversion`;
- :mod:`.retention`: :func:`retention` (N-day, unbounded, bracket; rolling or calendar
  periods), :func:`retention_curve`;
- :mod:`.paths`: :func:`paths` (most frequent sequences from a start or to an end key),
  :func:`transitions` (key -> next key);
- :mod:`.conversion_times`: :func:`time_to_convert` (per funnel step: mean, median and
  percentiles of the time from the step before);
- :mod:`.correlation`: :func:`funnel_correlation` (odds ratios of converting with each event
  and property value);
- :mod:`.lifecycle`: :func:`lifecycle` (new, returning, resurrecting, dormant per period);
- :mod:`.stickiness`: :func:`stickiness` (units by the days of a week they were active);
- :mod:`.experiments`: :func:`compare_variants` (conversions, means and ratios per variant,
  fixed or always-valid intervals, CUPED, the sample-ratio check; statistics in
  :mod:`.experiment_stats` and :mod:`.experiment_readout`);
- :mod:`.metrics`: :func:`load_times`, :func:`rank`, :func:`events_over_time`,
  :func:`viewer_kpis`;
- :mod:`.plots`: charts of those tables.

Every function also takes a Dask DataFrame and gives the same pandas answer, computed
where ``client=`` or ``WORKBENCH_DASK_SCHEDULER`` says, else on this process's threads for
a lake that fits in memory (up to ``cluster.IN_PROCESS_ROWS`` events, any size on 2 cores) and on an embedded
LocalCluster for a larger one: :mod:`.dispatch` is the one place that decides, and says
how groups are kept whole per partition. Every function reads times, durations, event ids
and payload fields one way (:mod:`.common`): integers are epoch milliseconds, a duration
carries its unit, a repeated ``id`` is one event (:mod:`.copies` says which copy), and events of one
millisecond are ordered by ``id``. Imports run one way: times <- copies <- common <- dispatch <- sessions <- funnels,
metrics, retention, paths, experiments, lifecycle <- conversion_times, correlation,
stickiness <- plots <- this package.

The hot paths work on numpy arrays of integer nanoseconds and factorized codes, so 10
million events take seconds (``bench/analysis.py``, ``bench/scale.py``). Payload fields are
read from a ``payload.<field>`` column when there is one (``events_frame(...,
flatten_payload=True)``, ``synth.generate(..., flat=True)`` or a lake), else from the
``payload`` dicts or JSON text.

>>> df = events_frame([
...     {"viewerToken": "v", "sessionId": "s", "key": "viewer_loaded",
...      "timestamp": 1793491200000, "payload": {"loadTimeMs": 800, "device": "mobile"}},
...     {"viewerToken": "v", "sessionId": "s", "key": "ar_requested",
...      "timestamp": "2026-11-01T00:00:05Z", "payload": '{"platform": "ios"}'},
... ])
>>> funnel(df, ["viewer_loaded", "ar_requested"])["count"].tolist()
[1, 1]
"""

from __future__ import annotations

from .common import EVENT_COLUMNS, check_event_keys
from .conversion_times import time_to_convert
from .correlation import funnel_correlation
from .experiments import compare_variants
from .funnels import AR_STEPS, ar_conversion, funnel
from .lifecycle import lifecycle
from .loading import events_frame, read_events
from .metrics import events_over_time, load_times, rank, viewer_kpis
from .paths import paths, transitions
from .plots import (
                    plot_correlation,
                    plot_events_over_time,
                    plot_funnel,
                    plot_lifecycle,
                    plot_load_times,
                    plot_paths,
                    plot_rank,
                    plot_retention,
                    plot_stickiness,
                    plot_variants,
)
from .retention import retention, retention_curve
from .sessions import dwell_times, sessionize
from .stickiness import stickiness

__all__ = [
    "EVENT_COLUMNS",
    "AR_STEPS",
    "check_event_keys",
    "events_frame",
    "read_events",
    "sessionize",
    "dwell_times",
    "funnel",
    "ar_conversion",
    "retention",
    "retention_curve",
    "paths",
    "transitions",
    "compare_variants",
    "time_to_convert",
    "funnel_correlation",
    "lifecycle",
    "stickiness",
    "load_times",
    "rank",
    "events_over_time",
    "viewer_kpis",
    "plot_funnel",
    "plot_load_times",
    "plot_events_over_time",
    "plot_rank",
    "plot_retention",
    "plot_paths",
    "plot_lifecycle",
    "plot_stickiness",
    "plot_correlation",
    "plot_variants",
]
