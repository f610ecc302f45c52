"""Waits a person would otherwise sit through in silence: a progress bar that shows once a wait passes
two seconds (a shorter one shows nothing), with what is being waited for and how far it has got.

``connect()``'s first local start, every request of the client (a model that takes long to make, a
slow service's answer, a retry's wait), the body assets' first download, ``workbench tour``'s notebooks
and a notebook's slow loops use it. The bar is tqdm's (``tqdm.auto``: a widget in Jupyter, a text bar on a terminal's stderr); it is
made only when the wait passes :data:`AFTER` seconds, by a thread of its own, so a wait blocked in
an import, a subprocess or a socket still shows it, and it goes away when the wait ends.

>>> with Progress("counting", total=3) as p:
...     for step in ("one", "two", "three"):
...         p.step(step)
>>> p.n, p.shown
(3, False)
"""

from __future__ import annotations

import threading
import time

__all__ = ["AFTER", "Progress"]

AFTER = 2.0  # seconds a wait may last without a word


class Progress:
    """A wait for ``what`` (now ``doing`` its first step), in ``total`` units (steps, or bytes with
    ``unit="B"``; ``None``: unknown), shown as a bar once it has lasted ``after`` seconds (default
    :data:`AFTER`). Use it as a context manager and call :meth:`step` (one more step, optionally
    naming the next) or :meth:`update` (how far, of how much). ``quiet``: never a bar."""

    def __init__(self, what: str, total: float | None = None, *, doing: str | None = None, unit: str = "step",
                 after: float | None = None, refresh: float = 0.5, quiet: bool = False):
        self.what, self.total, self.unit, self.every, self.quiet = what, total, unit, refresh, quiet
        self.after = AFTER if after is None else after
        self.n: float = 0
        self.doing = doing
        self.shown = False
        self._bar = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name=f"progress: {what}", daemon=True)

    def __enter__(self) -> Progress:
        self._began = time.monotonic()
        if not self.quiet:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        if not self.quiet:
            self._thread.join()

    def step(self, doing: str | None = None) -> None:
        """One step done; ``doing``: what the next one is."""
        with self._lock:
            self.n += 1
            self.doing = doing

    def say(self, doing: str | None) -> None:
        """What the wait is doing now (the bar's words), however far it has got."""
        with self._lock:
            self.doing = doing

    def update(self, n: float, total: float | None = None) -> None:
        """``n`` units done (of ``total``, when it is known only now)."""
        with self._lock:
            self.n = n
            if total:
                self.total = total

    def _watch(self) -> None:
        if self.after > 0 and self._done.wait(self.after):
            return  # over before it was worth a bar (with after=0, every wait shows one)
        from tqdm.auto import tqdm

        # In a notebook, tqdm's bar is a widget: shown by this class, without its text, and emptied when the
        # wait ends (_Shown), so the cell keeps no trace of it.
        notebook = any(c.__module__ == "tqdm.notebook" for c in tqdm.__mro__)
        with self._lock:
            bar = self._bar = tqdm(total=self.total, desc=self._desc(), unit=self.unit, unit_scale=self.unit == "B",
                                   unit_divisor=1024 if self.unit == "B" else 1000, leave=False, mininterval=0,
                                   **({"display": False} if notebook else {}))
            bar.start_t -= time.monotonic() - self._began  # its clock counts the whole wait, not from now
            shown = _Shown(bar) if notebook else None
            self.shown = True
        while True:
            stop = self._done.wait(self.every)
            with self._lock:
                if self.total and bar.total != self.total:
                    bar.total = self.total
                bar.n = min(self.n, self.total) if self.total else self.n
                bar.set_description_str(self._desc(), refresh=False)
                if stop:
                    bar.n = bar.total or bar.n  # finished: a full bar closes quietly, not as a failure
                bar.refresh()
            if stop:
                bar.close()
                if shown is not None:
                    shown.end()
                return

    def _desc(self) -> str:
        return f"{self.what} ({self.doing})" if self.doing else self.what


class _Shown:
    """A notebook bar's output: the widget's view alone (no text beside it), emptied when the wait ends.

    A bar comes only when a wait passes two seconds, so it must leave no trace: an output compared
    with a saved notebook's (nbval's checked cells) would differ by it on a busy machine, and a saved
    notebook opened again would say its closed widget is missing. Emptied, the output shows nothing.
    """

    def __init__(self, bar):
        from IPython.display import display

        view = bar.container._repr_mimebundle_() or {}
        view = view[0] if isinstance(view, tuple) else view
        key = "application/vnd.jupyter.widget-view+json"
        self.handle = display({key: view[key]}, raw=True, display_id=True) if key in view else None

    def end(self) -> None:
        if self.handle is not None:
            self.handle.update({}, raw=True)

