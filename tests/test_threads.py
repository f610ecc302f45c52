"""workbench.threads: a piece of work's two halves side by side, and the cases where they run one after the other."""

from __future__ import annotations

import threading

import pytest

from workbench import threads


def test_the_two_halves_run_on_two_threads_at_once():
    # Each half waits for the other to have started: on one thread this could never finish.
    started = threading.Barrier(2, timeout=10)
    names = {}

    def half(key):
        started.wait()
        names[key] = threading.current_thread().name
        return key

    if threads.cores() < 2:
        pytest.skip("one core: the halves run one after the other")
    assert threads.beside(lambda: half("here"), lambda: half("there")) == ("here", "there")
    assert names["here"] != names["there"] and names["there"].startswith("wb-helper")


def test_work_on_a_helper_runs_its_own_halves_there_and_never_waits_for_another_helper():
    # Every helper busy with work that itself asks for halves: were they queued for a helper, none would end.
    def outer(k):
        inner = threads.beside(lambda: threading.current_thread().name, lambda: threading.current_thread().name)
        return k, inner

    futures = [threads.start(lambda k=k: outer(k)) for k in range(4 * threads.cores())]
    results = [f.result(timeout=30) for f in futures]
    for _k, (a, b) in results:
        assert a == b   # both halves on the helper that asked for them


def test_an_error_of_either_half_reaches_the_caller_after_both_ended():
    ended = []

    def slow():
        ended.append("there")

    def boom():
        raise KeyError("here")

    with pytest.raises(KeyError):
        threads.beside(boom, slow)
    assert ended == ["there"]
    with pytest.raises(ValueError, match="there"):
        threads.beside(lambda: 1, lambda: (_ for _ in ()).throw(ValueError("there")))
