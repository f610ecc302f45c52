"""Seeded synthetic visitor traffic for the tracking catalog: realistic journeys, fast enough for 10M events.

The model, per session (one ``sessionId``, one viewer, one device):

1. Arrival: a day drawn uniformly from ``days``, a minute of the day from a day/night
   cycle (rate ``1 + 0.85 sin`` peaking at 20:00 UTC, lowest at 08:00 UTC).
2. Visits: 1 + a geometric number of returns (about one session in four comes back),
   each return 31 min to several hours after the previous visit ended, so
   :func:`~workbench.tracking.analysis.sessionize` has real splits to find.
3. A visit: 1.5 % fail with ``load_error``; the rest start with ``viewer_loaded``
   (``loadTimeMs`` lognormal with a device-dependent median, a 4 % slow tail ×3 to ×10),
   then ``model_loaded``, ``interaction_start`` and ``hotspot_opened`` (Zipf-like
   popularity over 12 hotspots) in proportion to the visit's lognormal length,
   ``variant_selected`` (skewed over 6 variants), ``animation_played``,
   ``fullscreen_toggled``, ``cta_clicked``, a ``custom.add_to_cart``; space viewers get
   ``zone_entered`` and ``avatar_spawned`` instead of hotspots and AR.
4. AR on mobile and tablet only: ``ar_requested`` (iOS/Android by device, WebXR on some
   tablets) → 70 % ``ar_session_started`` → 75 % ``ar_object_placed``, and
   ``ar_session_ended`` with its ``durationMs``.
5. ``heartbeat`` every 30 s (visible 92 %), then 85 % send ``viewer_closed`` with the
   visit's ``durationMs`` (the others closed the tab too fast).
6. Visitors (``visitorId``): 45 % of sessions are a returning visitor's new session on a
   later day: its visitor is the one of the latest earlier session of the same viewer
   that began at least a gap before it (gap: half a day plus an exponential of mean 1.8
   days), so visitors come back over days, less and less often, and the early days'
   cohorts have the most returns to show.
7. An experiment: each visitor is in ``control`` or ``treatment`` (half each, for all its
   sessions); a product session's first visit sends ``custom.experiment``
   ``{"experiment": "cta_copy", "variant": ...}`` 1 ms after ``viewer_loaded``, and
   treatment makes ``cta_clicked`` :data:`CTA_LIFT` times as likely in every visit
   (12 % after a hotspot and 4 % otherwise in control): a real, known effect.

8. With ``experiment_start`` (off by default: the same seed then gives the same events as
   before it existed), the experiment starts then: sessions before it send no exposure, a
   session from it on sends one in its first product visit at or after the start (so a
   visitor's exposure is its first such visit, often after earlier visits that make its
   pre-exposure history), and treatment lifts ``cta_clicked`` from the start on. Each
   visitor then also has an *engagement* (lognormal, mean 1, :data:`ENGAGEMENT` the sigma
   of its log) that multiplies its rates of ``interaction_start`` and ``hotspot_opened`` in
   every visit: behaviour before the experiment predicts behaviour during it, as CUPED needs.

Visitors and the experiment draw from their own stream (``rng.spawn``), so the events of
steps 1 to 5 draw the same numbers as before visitors existed.

Everything is drawn per block of events with numpy's ``default_rng(seed)``, so a seed
gives the same frame on every run. Sessions are drawn until there are at least
``n_events`` events, then taken in random order until exactly ``n_events`` (the last
session taken loses its latest events, as if cut by the export window).

>>> df = generate(200, seed=1)
>>> len(df), list(df.columns)
(200, ['viewerToken', 'sessionId', 'key', 'timestamp', 'payload', 'id', 'visitorId'])
>>> df.equals(generate(200, seed=1))
True
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pandas as pd

from workbench.tracking.catalog import CATALOG

__all__ = ["generate", "to_records", "write_events", "HOTSPOTS", "VARIANTS", "ZONES", "CTA_LIFT", "ARMS",
           "RETURN_SHARE"]

HOTSPOTS = tuple(f"hs_{n}" for n in ("front", "logo", "sole", "laces", "heel", "tongue", "stitching",
                                    "insole", "material", "size_chart", "care", "warranty"))
VARIANTS = ("black", "white", "red", "navy", "olive", "sand")
ZONES = ("lobby", "gallery", "stage", "garden", "rooftop")
_REASONS = ("network", "timeout", "webgl_unavailable", "decode_failed")
_ANIMATIONS = ("idle", "walk", "wave", "dance", "nod", "clap")
_TARGETS = ("buy", "details", "share")
_REFERRERS = ("https://www.google.com/", "https://shop.example.com/products/runner",
              "https://www.instagram.com/", "https://news.example.org/review")


def _allowed(key: str, field: str) -> tuple[str, ...]:
    """The values the catalog allows in ``key``'s enumerated ``field``, which synth draws from."""
    allowed = CATALOG[key].fields_by_name[field].allowed
    if allowed is None:
        raise LookupError(f"{key}'s {field} is free text: there is no set of values to draw from")
    return allowed


# Keys, payload fields and value sets come from the catalog (its order is the contract's);
# key codes index _KEYS, and draws index the value tuples, so the order fixes the bytes.
_DEVICES = _allowed("viewer_loaded", "device")
_KINDS = _allowed("interaction_start", "kind")
_PLATFORMS = _allowed("ar_requested", "platform")
# The custom keys synth writes, with their free-form payloads' fields.
_CUSTOM = {"custom.add_to_cart": ("sku", "qty"), "custom.experiment": ("experiment", "variant")}
ARMS = ("control", "treatment")
CTA_LIFT = 1.5          # treatment's cta_clicked probability over control's
RETURN_SHARE = 0.45     # sessions that are a returning visitor's
ENGAGEMENT = 1.0        # spread (sigma of the log) of a visitor's engagement, with an experiment's start
_EXPERIMENTS = ("cta_copy",)
_FIELDS = {**{k: tuple(f.name for f in s.fields) for k, s in CATALOG.items() if not s.free_form}, **_CUSTOM}
_KEYS = tuple(_FIELDS)
_K = {k: i for i, k in enumerate(_KEYS)}
_ALL_FIELDS = tuple(dict.fromkeys(f for fs in _FIELDS.values() for f in fs))
_MS_PER_DAY = 86_400_000


def _zipf(n: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1) ** s
    return w / w.sum()


class _Events:
    """Columns of events under construction, appended block by block."""

    def __init__(self):
        self.blocks: list[dict[str, np.ndarray]] = []

    def add(self, visit: np.ndarray, offset_ms: np.ndarray, key: str, **fields: np.ndarray):
        if len(visit):
            self.blocks.append({"visit": visit, "offset": np.asarray(offset_ms, dtype=np.int64),
                                "key": np.full(len(visit), _K[key], dtype=np.int8), **fields})

    def column(self, name: str, total: int, fill, dtype) -> np.ndarray:
        out = np.full(total, fill, dtype=dtype)
        start = 0
        for b in self.blocks:
            n = len(b["visit"])
            if name in b:
                out[start:start + n] = b[name]
            start += n
        return out


def _simulate_sessions(rng: np.random.Generator, n_sessions: int, n_viewers: int, start_ms: int, days: int,
                       experiment_ms: int | None = None):
    """One chunk of sessions; returns per-event arrays (session index local to the chunk). ``experiment_ms``: the
    experiment's start (8. in the module text), or None."""
    S = n_sessions
    # Sessions: viewer (a few viewers get most traffic), device, arrival time.
    viewer = rng.choice(n_viewers, size=S, p=_zipf(n_viewers, 0.9))
    is_space = (viewer % 5) == 4
    device = rng.choice(3, size=S, p=[0.55, 0.35, 0.10])
    minute_weights = 1 + 0.85 * np.sin(2 * np.pi * (np.arange(1440) / 1440 - 14 / 24))
    minute = rng.choice(1440, size=S, p=minute_weights / minute_weights.sum())
    arrival = (start_ms + rng.integers(0, days, size=S) * _MS_PER_DAY + minute * 60_000
               + rng.integers(0, 60_000, size=S))
    # Visits: returns after a pause longer than the 30 min a visit tolerates.
    n_visits = np.minimum(rng.geometric(0.75, size=S), 4)
    V = int(n_visits.sum())
    sess = np.repeat(np.arange(S), n_visits)
    first_visit = np.r_[0, np.cumsum(n_visits)[:-1]]
    is_first = np.zeros(V, dtype=bool)
    is_first[first_visit] = True
    length = np.clip(rng.lognormal(np.log(90_000), 1.0, size=V), 3_000, 2 * 3_600_000).astype(np.int64)
    pause = (31 * 60_000 + rng.lognormal(np.log(2 * 3_600_000), 0.8, size=V)).astype(np.int64)
    step = np.where(is_first, 0, pause) + np.r_[0, length[:-1] + 60_000]
    step[first_visit] = 0
    cum = np.cumsum(step)
    visit_start = arrival[sess] + cum - np.repeat(cum[first_visit], n_visits)

    # 6. visitors and 7. their experiment arm, from a stream of their own
    aux = rng.spawn(1)[0]
    returning = aux.random(S) < RETURN_SHARE
    gap = ((0.5 + aux.exponential(1.8, size=S)) * _MS_PER_DAY).astype(np.int64)
    arm_draw = (aux.random(S) < 0.5).astype(np.int64)
    by_viewer = np.lexsort((arrival, viewer))
    stamp = viewer[by_viewer].astype(np.int64) * 10**13 + arrival[by_viewer]
    j = np.searchsorted(stamp, viewer.astype(np.int64) * 10**13 + arrival - gap, side="right") - 1
    parent = np.arange(S)
    linked = returning & (j >= 0) & (viewer[by_viewer[np.maximum(j, 0)]] == viewer)
    parent[linked] = by_viewer[j[linked]]
    while True:  # each session's first session of its visitor (parents always began earlier)
        up = parent[parent]
        if np.array_equal(up, parent):
            break
        parent = up
    root = parent
    arm = arm_draw[root]
    # 8. each visitor's engagement, drawn after everything else of its stream (the rest draws as before)
    engaged = np.ones(S) if experiment_ms is None else aux.lognormal(-ENGAGEMENT ** 2 / 2, ENGAGEMENT, size=S)[root]

    vdev = device[sess]
    vspace = is_space[sess]
    failed = rng.random(V) < 0.015
    ok = np.flatnonzero(~failed)
    ev = _Events()

    # Failed loads: an error and sometimes a close.
    bad = np.flatnonzero(failed)
    ev.add(bad, rng.integers(2_000, 15_000, size=len(bad)), "load_error",
           reason=rng.choice(len(_REASONS), size=len(bad)))

    # 1. loads: lognormal by device with a slow tail
    median = np.array([850.0, 1700.0, 1300.0])[vdev[ok]]
    load = rng.lognormal(np.log(median), 0.55)
    slow = rng.random(len(ok)) < 0.04
    load[slow] *= rng.uniform(3, 10, size=int(slow.sum()))
    has_device = rng.random(len(ok)) < 0.95
    referrer = np.where(is_first[ok] & (rng.random(len(ok)) < 0.6), rng.choice(len(_REFERRERS), size=len(ok)), -1)
    ev.add(ok, np.zeros(len(ok)), "viewer_loaded", loadTimeMs=np.round(load, 1),
           device=np.where(has_device, vdev[ok], -1), referrer=referrer)
    model_at = rng.lognormal(np.log(600), 0.7, size=len(ok)).astype(np.int64) + 1
    ev.add(ok, model_at, "model_loaded", loadTimeMs=np.round(model_at * rng.uniform(0.8, 1.0, size=len(ok)), 1))
    L = length[ok]

    def spread(visits, lam, key, **fields):
        """Poisson(lam) events per visit at uniform times after the model loaded."""
        counts = rng.poisson(lam)
        rows = np.repeat(visits, counts)
        pos = np.searchsorted(ok, rows)
        lo = model_at[pos]
        at = lo + (rng.random(len(rows)) * np.maximum(length[rows] - lo, 1)).astype(np.int64)
        ev.add(rows, at, key, **{k: f(len(rows)) for k, f in fields.items()})
        return rows, counts

    # 2. interactions and content, in proportion to the visit's length
    spread(ok, np.minimum(1.5 + L / 40_000, 30) * engaged[sess[ok]], "interaction_start",
           kind=lambda n: rng.choice(3, size=n, p=[0.6, 0.25, 0.15]))
    product = ok[~vspace[ok]]
    space = ok[vspace[ok]]
    Lp = length[product]
    hot_rows, hot_counts = spread(product, np.minimum(0.25 + Lp / 120_000, 10) * engaged[sess[product]],
                                  "hotspot_opened",
                                  hotspotId=lambda n: rng.choice(len(HOTSPOTS), size=n, p=_zipf(len(HOTSPOTS), 1.1)))
    spread(product, np.full(len(product), 0.5), "variant_selected",
           variantId=lambda n: rng.choice(len(VARIANTS), size=n, p=_zipf(len(VARIANTS), 0.8)))
    spread(product, np.full(len(product), 0.15), "animation_played",
           name=lambda n: rng.choice(len(_ANIMATIONS), size=n))
    spread(space, np.minimum(1 + length[space] / 60_000, 20), "zone_entered",
           zoneId=lambda n: rng.choice(len(ZONES), size=n, p=_zipf(len(ZONES), 0.7)))
    spread(space, np.full(len(space), 0.6), "animation_played", name=lambda n: rng.choice(len(_ANIMATIONS), size=n))
    spawn = space[rng.random(len(space)) < 0.6]
    ev.add(spawn, model_at[np.searchsorted(ok, spawn)] + rng.integers(500, 5_000, size=len(spawn)), "avatar_spawned",
           modelId=rng.integers(0, 50, size=len(spawn)))
    fs = ok[rng.random(len(ok)) < 0.12]
    fs_at = (length[fs] * rng.uniform(0.1, 0.6, size=len(fs))).astype(np.int64) + 1_000
    ev.add(fs, fs_at, "fullscreen_toggled", enabled=np.ones(len(fs), dtype=np.int8))
    back = rng.random(len(fs)) < 0.5
    ev.add(fs[back], fs_at[back] + rng.integers(5_000, 60_000, size=int(back.sum())), "fullscreen_toggled",
           enabled=np.zeros(int(back.sum()), dtype=np.int8))
    opened_any = np.zeros(V, dtype=bool)
    opened_any[hot_rows] = True
    treated = arm[sess[product]] == 1
    if experiment_ms is not None:  # treatment works from the experiment's start on
        treated &= visit_start[product] >= experiment_ms
    lift = np.where(treated, CTA_LIFT, 1.0)
    cta = product[rng.random(len(product)) < np.where(opened_any[product], 0.12, 0.04) * lift]
    ev.add(cta, (length[cta] * rng.uniform(0.5, 0.95, size=len(cta))).astype(np.int64) + 1_000, "cta_clicked",
           target=rng.choice(3, size=len(cta), p=[0.6, 0.3, 0.1]))
    cart = product[rng.random(len(product)) < 0.03]
    ev.add(cart, (length[cart] * rng.uniform(0.5, 0.95, size=len(cart))).astype(np.int64) + 1_000,
           "custom.add_to_cart", sku=rng.choice(len(VARIANTS), size=len(cart)), qty=rng.integers(1, 4, size=len(cart)))

    # 3. AR: mobile and tablet product visits only, with drop-off at each step
    mobile = product[vdev[product] > 0]
    req = mobile[rng.random(len(mobile)) < 0.3]
    plat = np.where(vdev[req] == 1, rng.choice(2, size=len(req), p=[0.55, 0.45]),
                    rng.choice(3, size=len(req), p=[0.7, 0.2, 0.1]))
    req_at = (length[req] * rng.uniform(0.2, 0.8, size=len(req))).astype(np.int64) + 1_000
    ev.add(req, req_at, "ar_requested", platform=plat)
    st = rng.random(len(req)) < 0.7
    st_at = req_at[st] + rng.integers(1_000, 4_000, size=int(st.sum()))
    ev.add(req[st], st_at, "ar_session_started", platform=plat[st])
    pl = rng.random(len(st_at)) < 0.75
    ev.add(req[st][pl], st_at[pl] + rng.integers(2_000, 10_000, size=int(pl.sum())), "ar_object_placed")
    ar_len = rng.lognormal(np.log(25_000), 0.8, size=len(st_at)).astype(np.int64) + 3_000
    end = rng.random(len(st_at)) < 0.9
    ev.add(req[st][end], st_at[end] + ar_len[end], "ar_session_ended", durationMs=ar_len[end])

    # 7. the experiment's exposure, in each product session's first visit (8.: in every product visit, the
    #    first one at or after the start kept below)
    expo = product[is_first[product]] if experiment_ms is None else product
    # (8.: at the visit's first millisecond, so nothing of the visit comes before the exposure)
    ev.add(expo, np.ones(len(expo)) if experiment_ms is None else np.zeros(len(expo)), "custom.experiment", experiment=np.zeros(len(expo), dtype=np.int64),
           variant=arm[sess[expo]])

    # 4. heartbeats every 30 s while the visit lasts
    beats = length[ok] // 30_000
    hb = np.repeat(ok, beats)
    nth = np.arange(len(hb)) - np.repeat(np.cumsum(beats) - beats, beats) + 1
    ev.add(hb, nth * 30_000, "heartbeat", visible=(rng.random(len(hb)) < 0.92).astype(np.int8))

    # 5. close: after the visit's last event
    total = sum(len(b["visit"]) for b in ev.blocks)
    visit_col = ev.column("visit", total, 0, np.int64)
    offset_col = ev.column("offset", total, 0, np.int64)
    last = np.zeros(V, dtype=np.int64)
    np.maximum.at(last, visit_col, offset_col)
    end_at = np.maximum(last, length) + rng.integers(200, 3_000, size=V)
    closes = np.flatnonzero(rng.random(V) < np.where(failed, 0.5, 0.85))
    ev.add(closes, end_at[closes], "viewer_closed", durationMs=end_at[closes])

    total = sum(len(b["visit"]) for b in ev.blocks)
    visit_col = ev.column("visit", total, 0, np.int64)
    # 6. within the days asked for: a session that runs past the last day moves back by whole days
    #    (its time of day kept; never before the first day); what still lies past the end (a session
    #    on the only day, running past midnight) is left out. So ``days=N`` is exactly N calendar days.
    session_of = sess[visit_col]
    time = visit_start[visit_col] + ev.column("offset", total, 0, np.int64)
    window_end = start_ms + days * _MS_PER_DAY
    last_t = np.full(S, np.iinfo(np.int64).min, dtype=np.int64)
    first_t = np.full(S, np.iinfo(np.int64).max, dtype=np.int64)
    np.maximum.at(last_t, session_of, time)
    np.minimum.at(first_t, session_of, time)
    over_days = -(-np.clip(last_t - (window_end - 1), 0, None) // _MS_PER_DAY)  # ceil
    room_days = np.clip(first_t - start_ms, 0, None) // _MS_PER_DAY
    time = time - (np.minimum(over_days, room_days) * _MS_PER_DAY)[session_of]
    inside = time < window_end
    if experiment_ms is not None:  # 8. exposures from the start on, one per session: its first
        is_expo = ev.column("key", total, 0, np.int8) == _K["custom.experiment"]
        late = is_expo & (time >= experiment_ms)
        order = np.lexsort((time, session_of))
        first = np.zeros(total, dtype=bool)
        first_late = order[late[order]]
        first_late = first_late[np.r_[True, session_of[first_late][1:] != session_of[first_late][:-1]]] \
            if len(first_late) else first_late
        first[first_late] = True
        inside &= ~is_expo | first
    cols = {
        "session": session_of,
        "time": time,
        "key": ev.column("key", total, 0, np.int8),
        "loadTimeMs": ev.column("loadTimeMs", total, np.nan, np.float64),
        "durationMs": ev.column("durationMs", total, -1, np.int64),
        "qty": ev.column("qty", total, -1, np.int64),
    }
    for name in ("device", "referrer", "reason", "kind", "hotspotId", "variantId", "name", "platform",
                 "enabled", "target", "zoneId", "modelId", "visible", "sku", "experiment", "variant"):
        cols[name] = ev.column(name, total, -1, np.int16)
    cols["visitor"] = root[session_of]
    if not inside.all():
        cols = {k: v[inside] for k, v in cols.items()}
    return cols, viewer


def _join_ids(session_ids: np.ndarray, session_code: np.ndarray, seq: np.ndarray):
    """``"{sessionId}-{n}"`` per event; built in Arrow when it is there, because 10M
    Python strings cost about 750 MB and two seconds more."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return [f"{s}-{n}" for s, n in zip(session_ids[session_code], seq.tolist(), strict=True)]
    joined = pc.binary_join_element_wise(pa.array(session_ids.tolist(), pa.string()).take(pa.array(session_code)),
                                         pc.cast(pa.array(seq), pa.string()), "-")
    return pd.Series(joined, dtype="str").array  # zero-copy, unlike pd.array(joined)


def _order(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """Stable argsort by (major, minor), both non-negative int64.

    Packing both into one int64 key and sorting once is about twice as fast as
    ``np.lexsort`` on two keys; lexsort remains for keys too wide to pack.
    """
    if not len(major):
        return np.arange(0)
    bits = int(minor.max()).bit_length()
    if int(major.max()).bit_length() + bits <= 62:
        return np.argsort((major.astype(np.int64) << bits) | minor, kind="stable")
    return np.lexsort((minor, major))


def _hex_ids(rng: np.random.Generator, n: int, prefix: str, digits: int) -> np.ndarray:
    values = rng.integers(0, 2**63 - 1, size=n, dtype=np.int64)
    return np.array([f"{prefix}{v:016x}"[: len(prefix) + digits] for v in values], dtype=object)


def generate(n_events: int, *, seed: int = 0, viewers: int = 5, start: str = "2026-11-01T00:00:00Z", days: int = 7,
             flat: bool = False, experiment_start: str | None = None) -> pd.DataFrame:
    """``n_events`` synthetic events, the same for the same arguments.

    Output columns as :func:`~workbench.tracking.analysis.events_frame`:
    ``viewerToken``, ``sessionId``, ``key`` (categoricals), ``timestamp``
    (datetime64[ns, UTC]), ``payload`` (dict), ``id`` (``"{sessionId}-{n}"``), sorted by
    time. With ``flat=True`` the ``payload`` dicts are replaced by ``payload.<field>``
    columns (NaN where a key has no such field), which is much lighter for millions of
    rows. ``experiment_start`` (an ISO time with its zone): 8. in the module text.

    >>> df = generate(1000, seed=3, viewers=2)
    >>> df["viewerToken"].nunique(), df["timestamp"].is_monotonic_increasing, df["id"].is_unique
    (2, True, True)
    """
    if n_events < 0:
        raise ValueError("n_events must be >= 0")
    rng = np.random.default_rng(seed)
    start_ms = int(pd.Timestamp(start).tz_convert("UTC").value // 1_000_000)
    tokens = _hex_ids(rng, viewers, "vt_", 12)
    return _draw(rng, n_events, tokens, start_ms, days, flat, experiment_ms(experiment_start))


def experiment_ms(experiment_start) -> int | None:
    """An experiment's start (an ISO 8601 time with its zone, or a Timestamp) as epoch ms; None stays None.

    >>> experiment_ms("2026-11-03T00:00:00Z")
    1793664000000
    """
    if experiment_start is None:
        return None
    stamp = pd.Timestamp(experiment_start)
    if stamp.tz is None:
        raise ValueError(f"experiment_start: {experiment_start!r} has no zone; e.g. '2026-11-03T00:00:00Z'")
    return int(stamp.tz_convert("UTC").value // 1_000_000)


def _draw(rng: np.random.Generator, n_events: int, tokens: np.ndarray, start_ms: int, days: int,
          flat: bool, experiment: int | None = None) -> pd.DataFrame:
    """The body of :func:`generate` after the viewer tokens; the lake writer calls it once per chunk."""
    viewers = len(tokens)
    # 1. draw chunks of sessions until there are enough events
    chunks: list[dict[str, np.ndarray]] = []
    have, n_sessions = 0, 0
    per_session = 12.0
    while have < n_events or not chunks:
        want = max(16, int((n_events - have) / per_session * 1.05) + 16)
        cols, viewer = _simulate_sessions(rng, want, viewers, start_ms, days, experiment)
        cols["viewer"] = viewer[cols["session"]]
        cols["session"] += n_sessions
        cols["visitor"] += n_sessions
        chunks.append(cols)
        n_sessions += want
        have += len(cols["key"])
        per_session = max(have / n_sessions, 1.0)
    cols = {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}
    chunks.clear()  # the concatenated copy is all that is needed from here
    # 2. take whole sessions in random order until n_events, the last one cut short
    session_rank = rng.permutation(n_sessions)
    t_rel = cols["time"] - cols["time"].min()
    srank = session_rank[cols["session"]]
    by_session = _order(srank, t_rel)[:n_events]
    # number each session's events in time order, for the ids
    s_sorted = cols["session"][by_session]
    idx = np.arange(len(by_session))
    first = np.maximum.accumulate(np.where(np.r_[True, s_sorted[1:] != s_sorted[:-1]], idx, 0)) if len(idx) else idx
    seq_by_session = idx - first + 1
    # 3. sort by time (ties by session); one gather per column for both steps
    by_time = _order(t_rel[by_session], srank[by_session])
    keep = by_session[by_time]
    seq = seq_by_session[by_time]
    cols = {k: v[keep] for k, v in cols.items()}
    used, session_code = np.unique(cols["session"], return_inverse=True)
    all_ids = _hex_ids(rng, n_sessions, "s_", 16)
    session_ids = all_ids[used]
    roots, visitor_code = np.unique(cols["visitor"], return_inverse=True)
    visitor_ids = ["u_" + s[2:] for s in all_ids[roots]]  # named after the visitor's first session

    df = pd.DataFrame({
        "viewerToken": pd.Categorical.from_codes(cols["viewer"], categories=list(tokens)),
        "sessionId": pd.Categorical.from_codes(session_code, categories=list(session_ids)),
        "key": pd.Categorical.from_codes(cols["key"].astype(np.int64), categories=list(_KEYS)),
        "timestamp": pd.to_datetime(cols["time"], unit="ms", utc=True).as_unit("ns"),
    })
    fields = _field_values(cols, categorical=flat)
    if flat:
        for name in _ALL_FIELDS:
            df[f"payload.{name}"] = fields[name]
    else:
        df["payload"] = _payload_dicts(cols["key"], fields)
    df["id"] = _join_ids(session_ids, session_code, seq)
    df["visitorId"] = pd.Categorical.from_codes(visitor_code, categories=visitor_ids)
    if flat:
        df = df[["viewerToken", "sessionId", "key", "timestamp", "id", "visitorId"]
                + [f"payload.{n}" for n in _ALL_FIELDS]]
    return df


def _pick(names: tuple, codes: np.ndarray, categorical: bool = False):
    """Codes to names (None where the code is -1): an object array, or a Categorical."""
    if categorical:
        return pd.Categorical.from_codes(codes.astype(np.int64), categories=list(names))
    table = np.array(list(names) + [None], dtype=object)
    return table[np.where(codes < 0, len(names), codes)]


_MODEL_IDS = tuple(f"{i:024x}" for i in range(0xA0C0000, 0xA0C0000 + 50))
_SKUS = tuple(f"sku-{v}" for v in VARIANTS)


def _field_values(cols: dict, categorical: bool = False) -> dict[str, Any]:
    """Every payload field as a full-length column (None/NaN where absent)."""
    def number(name):
        v = cols[name].astype(np.float64)
        v[cols[name] < 0] = np.nan
        return v

    def boolean(name):
        c = cols[name]
        if categorical:
            return pd.arrays.BooleanArray(c == 1, c < 0)
        return np.where(c < 0, None, c == 1).astype(object)

    tables = {"device": _DEVICES, "referrer": _REFERRERS, "reason": _REASONS, "kind": _KINDS,
              "hotspotId": HOTSPOTS, "variantId": VARIANTS, "name": _ANIMATIONS, "platform": _PLATFORMS,
              "target": _TARGETS, "zoneId": ZONES, "modelId": _MODEL_IDS, "sku": _SKUS,
              "experiment": _EXPERIMENTS, "variant": ARMS}
    out: dict[str, Any] = {name: _pick(table, cols[name], categorical) for name, table in tables.items()}
    out.update(loadTimeMs=cols["loadTimeMs"], durationMs=number("durationMs"), qty=number("qty"),
               enabled=boolean("enabled"), visible=boolean("visible"))
    return out


def _payload_dicts(keys: np.ndarray, fields: dict[str, np.ndarray]) -> np.ndarray:
    """One payload dict per event, built key by key so each dict has only its key's fields."""
    out = np.empty(len(keys), dtype=object)
    for code, key in enumerate(_KEYS):
        rows = np.flatnonzero(keys == code)
        if not len(rows):
            continue
        names = _FIELDS[key]
        values = []
        for name in names:
            v = fields[name][rows]
            if name in ("durationMs", "qty"):
                v = v.astype(np.int64)
            values.append(v.tolist())
        if not names:
            out[rows] = [{} for _ in range(len(rows))]
        elif key == "viewer_loaded":
            # device and referrer are optional: leave them out rather than send null
            out[rows] = [{k: v for k, v in zip(names, vals, strict=True) if v is not None} for vals in zip(*values, strict=True)]
        else:
            out[rows] = [dict(zip(names, vals, strict=True)) for vals in zip(*values, strict=True)]
    return out


def to_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Batch-ready events grouped by (viewerToken, sessionId).

    Returns one dict per (viewer, session) pair, in order of first appearance:
    ``{"viewerToken", "sessionId", "events": [{"key", "payload", "timestamp" (ISO 8601
    with Z, millisecond precision), "id"}, ...]}``; a sender splits ``events`` into
    batches of at most 100. Input: the columns of :func:`generate` (either form).

    >>> batch = to_records(generate(30, seed=2))[0]
    >>> sorted(batch["events"][0])
    ['id', 'key', 'payload', 'timestamp']
    """
    if "payload" in df.columns:
        payloads = [p if isinstance(p, dict) else (json.loads(p) if isinstance(p, str) else {}) for p in df["payload"]]
    else:
        payloads = _payloads_from_flat(df)
    stamps = pd.DatetimeIndex(df["timestamp"]).tz_convert("UTC").strftime("%Y-%m-%dT%H:%M:%S.%f")
    stamps = [s[:-3] + "Z" for s in stamps]
    groups: dict[tuple, list] = {}
    ids = df["id"].tolist() if "id" in df.columns else [None] * len(df)
    for viewer, session, key, ts, payload, eid in zip(df["viewerToken"].tolist(), df["sessionId"].tolist(),
                                                      df["key"].tolist(), stamps, payloads, ids, strict=True):
        event = {"key": key, "payload": payload, "timestamp": ts}
        if eid is not None and eid == eid:
            event["id"] = eid
        groups.setdefault((viewer, session), []).append(event)
    return [{"viewerToken": v, "sessionId": s, "events": e} for (v, s), e in groups.items()]


def _payloads_from_flat(df: pd.DataFrame) -> list[dict]:
    cols = [c for c in df.columns if c.startswith("payload.")]
    out = []
    for key, *values in zip(df["key"].tolist(), *[df[c].tolist() for c in cols], strict=True):
        wanted = _FIELDS.get(key)
        p = {}
        for c, v in zip(cols, values, strict=True):
            name = c[len("payload."):]
            if (wanted is None or name in wanted) and not pd.isna(v):
                p[name] = int(v) if name in ("durationMs", "qty") else v
        out.append(p)
    return out


def write_events(path: str | os.PathLike, n_events: int, seed: int = 0, **kw) -> str:
    """Generate events and write them as JSON lines (``.jsonl``) or Parquet (``.parquet``).

    JSON lines hold the service's export form, one event a line: ``viewerToken``,
    ``sessionId``, ``key``, ``timestamp`` (epoch ms), ``payload`` (object), ``id`` (no
    ``visitorId``: the interface carries none; a lake and ``generate`` keep it).
    Parquet holds the :func:`generate` frame with ``flat=True`` columns. Returns the path.

    >>> import tempfile, pathlib
    >>> p = write_events(pathlib.Path(tempfile.mkdtemp()) / "e.jsonl", 5, seed=1)
    >>> len(open(p).read().splitlines())
    5
    """
    path = os.fspath(path)
    if path.endswith(".parquet"):
        generate(n_events, seed=seed, flat=True, **kw).to_parquet(path, index=False)
    elif path.endswith(".jsonl"):
        df = generate(n_events, seed=seed, **kw)
        ms = pd.DatetimeIndex(df["timestamp"]).as_unit("ns").asi8 // 1_000_000
        with open(path, "w", encoding="utf-8") as fh:
            for viewer, session, key, t, payload, eid in zip(df["viewerToken"].tolist(), df["sessionId"].tolist(),
                                                           df["key"].tolist(), ms.tolist(), df["payload"], df["id"], strict=True):
                fh.write(json.dumps({"viewerToken": viewer, "sessionId": session, "key": key, "timestamp": t,
                                     "payload": payload, "id": eid}, separators=(",", ":")) + "\n")
    else:
        raise ValueError(f"write_events: {path!r} must end in .jsonl or .parquet")
    return path
