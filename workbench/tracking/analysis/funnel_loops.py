"""The funnel's search on numpy arrays: for every group, the furthest step it reached and when it reached each.

:func:`chains` is the one entry point; :mod:`.funnels` turns its answer into tables, per
pandas frame or per Dask partition of whole groups. Events are sorted by (group, time)
once, on integer codes; a *run* is a stretch of events of one group at the same time,
and the events of a run may be taken in any order (Amplitude's rule for events at the
same millisecond).

- ``ordered``: each first-step event is tried as a start; from a start, the earliest
  possible event of each next step (at or after the previous one's time, within the
  window, never an event already used, and with no ``exclude`` event strictly between
  the two steps' times) is taken. From a given start the earliest choice is optimal
  when no excluded event shares a millisecond with a step's event, and a chain can never
  straddle an excluded event, so trying every start finds any chain there is. With
  ``exclude`` a group with a run of several events goes to :func:`_exact`: there a later
  event at the excluded event's own millisecond can keep a chain the earliest one loses.
- ``strict``: the steps' events must follow each other with no other event of the group
  between them, in some order of each run's events. Without ties (every run one event)
  that is a plain walk from every start; a group with a run of several events goes to
  :func:`_exact`, which tries every way to split the steps over runs (a chain takes any
  part of its first and last run and the whole of every run between).
- ``any``: steps 1..k are all done (each key as many times as it appears among them)
  within one window, with no ``exclude`` event strictly between the first and the last of
  them; every step event is tried as the window's first event (the earliest events of
  each key from there end the window soonest, so they are the best choice).

>>> import numpy as np
>>> g, k, t = np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([0, 5, 3])
>>> r = chains(g, k, t, [0, 1], within_ns=10)
>>> r.groups.tolist(), r.depth.tolist(), r.times[:, 1].tolist() == [5, NAT]
([0, 1], [2, 1], True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .common import stable_order
from .times import NAT

ORDERS = ("ordered", "strict", "any")
#: How the times of an ``any`` chain's steps are read: PostHog's (its events in time order) or when steps 1..k were
#: all done.
TIMES = ("posthog", "all_done")


@dataclass
class Chains:
    """Per group that did the first step (``any``: any step): its code, the depth it reached (1..m)
    and the time of the event that filled each step reached (``NAT`` beyond ``depth``), shape (groups, m):
    for ``any`` not in time order (:func:`step_times` reads them as times to convert)."""

    groups: np.ndarray
    depth: np.ndarray
    times: np.ndarray


def _sorted(g_all: np.ndarray, k_all: np.ndarray, t_all: np.ndarray, rows: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows ordered by (group, time), ties in input order, with each run's first and last position."""
    order = rows[stable_order(g_all[rows], t_all[rows])]
    g, t, k = g_all[order], t_all[order], k_all[order]
    n = len(order)
    pos = np.arange(n)
    new_run = np.ones(n, dtype=bool)
    new_run[1:] = (g[1:] != g[:-1]) | (t[1:] != t[:-1])
    run_start = np.maximum.accumulate(np.where(new_run, pos, 0))
    end_run = np.ones(n, dtype=bool)
    end_run[:-1] = new_run[1:]
    run_end = np.minimum.accumulate(np.where(end_run, pos, n - 1)[::-1])[::-1]
    return g, t, k, run_start, run_end, new_run


def _best(groups_of_candidates: np.ndarray, depth: np.ndarray, times: np.ndarray) -> Chains:
    """Each group with its best candidate: the deepest, the earliest (first in order) among equals."""
    if not len(depth):
        return Chains(np.empty(0, np.int64), np.empty(0, np.int64), np.empty((0, times.shape[1]), np.int64))
    order = np.lexsort((np.arange(len(depth)), -depth, groups_of_candidates))
    gs = groups_of_candidates[order]
    first = np.r_[True, gs[1:] != gs[:-1]]
    pick = order[first]
    return Chains(groups_of_candidates[pick], depth[pick], times[pick])


def chains(g_all: np.ndarray, k_all: np.ndarray, t_all: np.ndarray, steps: list[int], within_ns: int,
           order: str = "ordered", exclude: Sequence[int] = ()) -> Chains:
    """The funnel search on group codes, key codes and integer times (ns); ``steps`` and
    ``exclude`` are key codes (a step may be -1: a key the data does not hold)."""
    m = len(steps)
    valid = (g_all >= 0) & (t_all != NAT)
    if order == "strict":
        rows = np.flatnonzero(valid)
    else:
        wanted = np.zeros(int(max(k_all.max(initial=-1), *steps, *exclude, 0)) + 2, dtype=bool)  # by key code
        wanted[[s for s in (*steps, *exclude) if s >= 0]] = True  # (code -1, no key, picks the spare last)
        rows = np.flatnonzero(valid & wanted[k_all])
    empty = Chains(np.empty(0, np.int64), np.empty(0, np.int64), np.empty((0, m), np.int64))
    if not len(rows):
        return empty
    g, t, k, run_start, run_end, new_run = _sorted(g_all, k_all, t_all, rows)
    if order == "any":
        return _any(g, t, k, run_start, run_end, steps, within_ns, exclude)
    starts = np.flatnonzero(k == steps[0])
    if not len(starts):
        return empty
    if order == "strict":
        fast = _strict(g, t, k, new_run, starts, steps, within_ns)
    else:
        fast = _ordered(g, t, k, run_start, run_end, starts, steps, within_ns, exclude)
    if order == "strict" or len(exclude):
        return _with_exact(fast, g, t, k, new_run, steps, within_ns, order, exclude)
    return fast


def _with_exact(fast: Chains, g: np.ndarray, t: np.ndarray, k: np.ndarray, new_run: np.ndarray, steps: list[int], within_ns: int, order: str,
                exclude: Sequence[int]) -> Chains:
    """``fast`` with the groups that have a run of several events answered by :func:`_exact` instead."""
    run_id = np.cumsum(new_run) - 1
    sizes = np.bincount(run_id)
    tied_groups = np.unique(g[sizes[run_id] > 1])
    if not len(tied_groups):
        return fast
    group_first = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    bounds = dict(zip(g[group_first].tolist(), zip(group_first.tolist(), np.r_[group_first[1:], len(g)].tolist(), strict=True), strict=True))
    m = len(steps)
    keep = ~np.isin(fast.groups, tied_groups)
    groups, depth, times = [fast.groups[keep]], [fast.depth[keep]], [fast.times[keep]]
    excluded = set(int(x) for x in exclude)
    for grp in tied_groups.tolist():
        lo, hi = bounds[grp]
        found = _exact(k[lo:hi], t[lo:hi], run_id[lo:hi] - run_id[lo], steps, within_ns, order, excluded)
        if found is not None:
            groups.append(np.array([grp]))
            depth.append(np.array([found[0]]))
            row = np.full((1, m), NAT, dtype=np.int64)
            row[0, :found[0]] = found[1]
            times.append(row)
    all_groups, all_depth, all_times = np.concatenate(groups), np.concatenate(depth), np.concatenate(times)
    order_ = np.argsort(all_groups, kind="stable")
    return Chains(all_groups[order_], all_depth[order_], all_times[order_])


def _exact(k: np.ndarray, t: np.ndarray, run: np.ndarray, steps: list[int], within_ns: int, order: str, excluded: set[int]
           ) -> tuple[int, list[int]] | None:
    """One group's furthest step and its times, by search over (run, first step in it, last step in it).

    A chain puts consecutive steps ``i..j`` in one run when the run holds their keys (as a
    multiset: one event fills one step); it moves on to a later run (``strict``: the next one,
    after taking the whole run unless the chain began there; ``ordered``: the first later run
    holding the next key, or the run of the first excluded event after this one, which is not
    strictly between them) within the window. The deepest chain wins, then the earliest start,
    then the earliest times.
    """
    from collections import Counter

    m = len(steps)
    first = np.flatnonzero(np.r_[True, run[1:] != run[:-1]])
    held = [Counter(k[a:b].tolist()) for a, b in zip(first, np.r_[first[1:], len(k)], strict=True)]
    times = t[first].tolist()
    n_runs = len(held)
    # the first later run holding each step key, and the first later run with an excluded event
    # (looked up, not searched, so a long session costs runs x steps, not runs squared)
    next_with = {key: [n_runs] * (n_runs + 1) for key in set(steps)}
    next_excluded = [n_runs] * (n_runs + 1)
    for r in range(n_runs - 1, -1, -1):
        for key, table in next_with.items():
            table[r] = r if held[r][key] >= 1 else table[r + 1]
        next_excluded[r] = r if excluded & set(held[r]) else next_excluded[r + 1]

    def fits(r: int, i: int, j: int, whole: bool = False) -> bool:
        need = Counter(steps[i:j + 1])
        if whole:
            return need == held[r]
        return all(held[r][key] >= c for key, c in need.items())

    best: tuple[int, list[int]] | None = None
    for a in range(n_runs):
        if held[a][steps[0]] < 1:
            continue
        t0 = times[a]

        @functools.cache
        def go(r: int, i: int, j: int, a: int = a, t0: int = t0) -> tuple[int, tuple[int, ...]]:   # a, t0 bound now: they change with the loop
            """(depth, times of steps j+1..) of the best chain with steps i..j in run r."""
            if j + 1 == m:
                return (j + 1, ())
            options: list[tuple[int, tuple[int, ...]]] = [(j + 1, ())]
            s = steps[j + 1]
            if fits(r, i, j + 1):
                d, ts = go(r, i, j + 1)
                options.append((d, (times[r],) + ts))
            if order == "strict":
                nexts = [r + 1] if r + 1 < n_runs and (r == a or fits(r, i, j, whole=True)) else []
            else:  # the first run holding the key, unless an excluded event comes first; and that event's run
                first, wall = next_with[s][r + 1], next_excluded[r + 1]
                nexts = [q for q in {first if first <= wall else n_runs, wall} if q < n_runs]
            for q in nexts:
                if held[q][s] >= 1 and times[q] - t0 <= within_ns:
                    d, ts = go(q, j + 1, j + 1)
                    options.append((d, (times[q],) + ts))
            return max(options, key=lambda o: (o[0], [-x for x in o[1]]))

        d, ts = go(a, 0, 0)
        if best is None or d > best[0]:
            best = (d, [t0, *ts][:d])
    return best


def _ordered(g: np.ndarray, t: np.ndarray, k: np.ndarray, run_start: np.ndarray, run_end: np.ndarray, starts: np.ndarray, steps: list[int], within_ns: int,
             exclude: Sequence[int]) -> Chains:
    m = len(steps)
    positions = {s: np.flatnonzero(k == s) for s in set(steps) if s >= 0}
    excluded = np.flatnonzero(np.isin(k, list(exclude))) if len(exclude) else np.empty(0, np.int64)
    depth = np.ones(len(starts), dtype=np.int64)
    chain = np.full((len(starts), m), -1, dtype=np.int64)
    chain[:, 0] = starts
    alive = np.arange(len(starts))
    for j in range(1, m):
        targets = positions.get(steps[j])
        if targets is None or not len(targets) or not len(alive):
            break
        prev = chain[alive, j - 1]
        lo = run_start[prev]
        used = [chain[alive, i] for i in range(j) if steps[i] == steps[j]]
        if used:  # the same key filled an earlier step: never reuse that event
            lo = np.maximum(lo, np.max(used, axis=0) + 1)
        idx = np.searchsorted(targets, lo, side="left")
        found = idx < len(targets)
        p = targets[np.minimum(idx, len(targets) - 1)]
        s0 = chain[alive, 0]
        found &= (g[p] == g[s0]) & ((t[p] - t[s0]) <= within_ns)
        if len(excluded):  # an excluded event strictly between the two steps' times
            e = np.searchsorted(excluded, run_end[prev], side="right")
            found &= ~((e < len(excluded)) & (excluded[np.minimum(e, len(excluded) - 1)] < run_start[p]))
        alive, p = alive[found], p[found]
        chain[alive, j] = p
        depth[alive] += 1
    times = np.where(chain >= 0, t[np.maximum(chain, 0)], NAT)
    return _best(g[starts], depth, times)


def _strict(g: np.ndarray, t: np.ndarray, k: np.ndarray, new_run: np.ndarray, starts: np.ndarray, steps: list[int], within_ns: int) -> Chains:
    m = len(steps)
    run_id = np.cumsum(new_run) - 1
    run_first = np.flatnonzero(new_run)
    run_size = np.diff(np.r_[run_first, len(g)])
    keys = sorted({s for s in steps if s >= 0})
    # how many events of each step key each run holds
    count = {s: np.bincount(run_id[k == s], minlength=len(run_first)) for s in keys}
    n = len(starts)
    run = run_id[starts]
    used = {s: np.zeros(n, dtype=np.int64) for s in keys}
    used[steps[0]] += 1
    taken = np.ones(n, dtype=np.int64)  # chain events in the current run
    entered = np.zeros(n, dtype=bool)   # the chain came into the current run from the one before
    depth = np.ones(n, dtype=np.int64)
    times = np.full((n, m), NAT, dtype=np.int64)
    times[:, 0] = t[starts]
    alive = np.arange(n)
    t0 = t[starts]
    for j in range(1, m):
        s = steps[j]
        if s < 0 or not len(alive):
            break
        r = run[alive]
        stay = count[s][r] - used[s][alive] >= 1
        nxt = np.minimum(r + 1, len(run_first) - 1)
        can_leave = ~entered[alive] | (taken[alive] == run_size[r])
        move = (~stay & can_leave & (r + 1 < len(run_first)) & (g[run_first[nxt]] == g[run_first[r]])
                & (count[s][nxt] >= 1) & (t[run_first[nxt]] - t0[alive] <= within_ns))
        a_stay, a_move = alive[stay], alive[move]
        used[s][a_stay] += 1
        taken[a_stay] += 1
        run[a_move] += 1
        for key in keys:
            used[key][a_move] = 0
        used[s][a_move] = 1
        taken[a_move] = 1
        entered[a_move] = True
        alive = np.sort(np.r_[a_stay, a_move])
        times[alive, j] = t[run_first[run[alive]]]
        depth[alive] += 1
    return _best(g[starts], depth, times)


def _any(g: np.ndarray, t: np.ndarray, k: np.ndarray, run_start: np.ndarray, run_end: np.ndarray, steps: list[int], within_ns: int,
         exclude: Sequence[int] = ()) -> Chains:
    m = len(steps)
    anchors = np.flatnonzero(np.isin(k, [s for s in steps if s >= 0]))
    # the first excluded event strictly after each anchor's time: steps done after it do not count
    wall = np.full(len(anchors), np.iinfo(np.int64).max, dtype=np.int64)
    excluded = np.flatnonzero(np.isin(k, list(exclude))) if len(exclude) else np.empty(0, np.int64)
    if len(excluded) and len(anchors):
        e = np.searchsorted(excluded, run_end[anchors], side="right")
        p = excluded[np.minimum(e, len(excluded) - 1)]
        found = (e < len(excluded)) & (g[p] == g[anchors])
        wall[found] = t[p[found]]
    positions = {s: np.flatnonzero(k == s) for s in set(steps) if s >= 0}
    depth = np.zeros(len(anchors), dtype=np.int64)
    times = np.full((len(anchors), m), NAT, dtype=np.int64)
    reached = np.ones(len(anchors), dtype=bool)
    lo = run_start[anchors]
    for j in range(m):
        s = steps[j]
        need = steps[: j + 1].count(s)  # the key's j-th use needs its need-th event in the window
        targets = positions.get(s)
        if targets is None or not len(targets):
            break
        idx = np.searchsorted(targets, lo, side="left") + need - 1
        ok = idx < len(targets)
        p = targets[np.minimum(idx, len(targets) - 1)]
        ok &= (g[p] == g[anchors]) & (t[p] - t[anchors] <= within_ns) & (t[p] <= wall)
        reached &= ok
        times[reached, j] = t[p][reached]
        depth[reached] += 1
    keep = depth > 0
    return _best(g[anchors][keep], depth[keep], times[keep])


def step_times(found: Chains, order: str, definition: str = "posthog") -> np.ndarray:
    """When each group reached each step, shape (groups, m), ``NAT`` beyond its depth: the times to convert are
    their differences. ``ordered`` and ``strict``: the steps' own events. ``any``: with ``"posthog"`` (PostHog's
    unordered funnel) the chain's events in time order, the k-th step reached at its k-th earliest event, so
    model_loaded at 0 then viewer_loaded at 300 s converts in 300 s whichever step is named first; with
    ``"all_done"``, step k at the time steps 1..k were all done (there, 0 s).

    >>> found = Chains(np.array([0]), np.array([2]), np.array([[300, 0]]))
    >>> step_times(found, "any").tolist(), step_times(found, "any", "all_done").tolist()
    ([[0, 300]], [[300, 300]])
    """
    times = found.times
    if order != "any" or not len(times):
        return times
    m = times.shape[1]
    beyond = np.arange(m)[None, :] >= found.depth[:, None]
    if definition == "all_done":
        out = np.maximum.accumulate(times, axis=1)
    else:
        out = np.sort(np.where(beyond, np.iinfo(np.int64).max, times), axis=1)
    return np.where(beyond, NAT, out)
