"""workbench.body.outfit.garments.dressed: a garment fitted once however many threads ask for it at once (a build's
hair reads the clothes on its helper thread while its own thread makes the clothes' pieces: before, both fitted them)."""

from __future__ import annotations

import threading

from workbench.body.mesh import body_mesh
from workbench.body.outfit import garments
from workbench.options import normalize_avatar_settings


class _Watched(dict):
    """``garments._FITTING`` that tells when ``askers`` lookups have found a fit under way."""

    def __init__(self, askers: int):
        super().__init__()
        self.found, self.askers, self.all_waiting = 0, askers, threading.Event()

    def get(self, key, default=None):
        value = super().get(key, default)
        if value is not None:
            self.found += 1
            if self.found >= self.askers:
                self.all_waiting.set()
        return value


def test_threads_asking_for_one_fit_at_once_share_it(monkeypatch):
    mesh = body_mesh(normalize_avatar_settings({"gender": "masculine", "height": 183.3}))   # (no other test's body)
    fitting = _Watched(2)
    monkeypatch.setattr(garments, "_FITTING", fitting)
    fits, fit = [], garments._fit

    def held_fit(*args):
        fits.append(args[1:])
        if args[1:] == ("tee", "trousers"):
            # (the first fit held open until both other threads have found it under way: a condition, not a time)
            assert fitting.all_waiting.wait(60)
        return fit(*args)

    monkeypatch.setattr(garments, "_fit", held_fit)
    start = threading.Barrier(3, timeout=30)
    got = []

    def ask():
        start.wait()
        got.append(garments.dressed(mesh, "tee", "trousers"))

    threads = [threading.Thread(target=ask) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(got) == 3 and got[0] is got[1] is got[2]
    assert sorted(fits) == [("tee", "trousers"), ("trousers", None)], fits     # each fitted once


def test_a_failed_fit_is_fitted_again_by_the_next_asker(monkeypatch):
    mesh = body_mesh(normalize_avatar_settings({"gender": "feminine", "height": 151.9}))
    fit, calls = garments._fit, []

    def failing_once(*args):
        calls.append(args[1:])
        if len(calls) == 1:
            raise RuntimeError("the first fit")
        return fit(*args)

    monkeypatch.setattr(garments, "_fit", failing_once)
    try:
        garments.dressed(mesh, "skirt")
    except RuntimeError:
        pass
    assert garments.dressed(mesh, "skirt").piece is not None and calls == [("skirt", None), ("skirt", None)]
