"""A widget's picture for wherever widgets do not run (a notebook saved, converted or shown without a
kernel, the tour's report): its output carries a PNG still as ``image/png`` beside the widget view.

A widget that ``ShowsStill`` is displayed with a display id, and when its picture changes (a viewer's
page sent the view the person had) the outputs showing it are updated in place: the notebook then
keeps that picture, not the one the kernel drew before any page had drawn.

In a kernel started by a program that runs notebooks with no page at all (``jupyter nbconvert
--execute``, ``jupyter execute``, papermill: ``no_page()``), such a widget is its still alone: it opens
no comm, so the notebook saves no widget state for it, and nbconvert's HTML shows the still (nbconvert
shows a widget's other outputs when its state is not saved; with the state saved it would draw the
widget with scripts from a CDN, and show a blank offline).

A widget that ``ShowsStill`` is closed when no output shows it any more, so a session that runs its
viewer cells again and again keeps one of each, not all of them (their models, stages and GLBs): when
the cell that displayed it runs again or is deleted (JupyterLab and Notebook 7 name the cell in each
run's request, ``cellId`` and ``deletedCells``), and when its page says its last view is gone (the
output cleared: ``page_link``'s ``gone``). Displayed again after that, it opens again.

>>> from PIL import Image
>>> sorted(with_still({"text/plain": "a viewer"}, Image.new("RGBA", (4, 4))))
['image/png', 'text/plain']
"""

from __future__ import annotations

import base64
import functools
import html
import os
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.render.stage import encode

# The programs that run a notebook's kernel with no page to draw widgets (the launcher's command line).
HEADLESS_RUNNERS = ("jupyter-nbconvert", "nbconvert", "jupyter-execute", "papermill")


@functools.lru_cache(maxsize=1)
def no_page() -> bool:
    """Whether this kernel was started by a program that runs notebooks with no page (``HEADLESS_RUNNERS``,
    found from ``JPY_PARENT_PID``, the process jupyter_client says launched the kernel).

    >>> isinstance(no_page(), bool)
    True
    """
    pid = os.environ.get("JPY_PARENT_PID", "")
    if not pid.isdigit():
        return False
    try:
        import psutil

        command = psutil.Process(int(pid)).cmdline()
    except Exception:  # no such process any more, or no right to read it: a page may draw
        return False
    names = [Path(arg).name for arg in command[:3]]
    return any(name in HEADLESS_RUNNERS or name.startswith(HEADLESS_RUNNERS[0]) for name in names)


def with_still(bundle, image) -> dict:
    """``bundle`` (a dict, or a (data, metadata) pair) with ``image`` as ``image/png`` beside it;
    ``image`` is a PIL image, PNG bytes, or None for none."""
    data = dict((bundle[0] if isinstance(bundle, tuple) else bundle) or {})
    if image is not None:
        data["image/png"] = image if isinstance(image, bytes) else encode(image, "png")
    return data


# The widgets each cell's last run displayed, by the cell's id; the hook that closes them is registered
# with the first one.
_SHOWN: dict[str, weakref.WeakSet] = {}
_HOOKED: list = []


def _running_cell():
    """(the IPython shell, the id of the cell running now), or None for what is not known: the id comes
    from the execute request the kernel is answering (JupyterLab and Notebook 7 send it)."""
    try:
        from IPython import get_ipython

        shell = get_ipython()
        kernel = getattr(shell, "kernel", None)
        parent = kernel.get_parent() if kernel is not None else None
    except Exception:  # no IPython, or a kernel without get_parent: nothing to remember
        return None, None
    cell = ((parent or {}).get("metadata") or {}).get("cellId")
    return shell, cell if isinstance(cell, str) and cell else None


def _remember(widget) -> None:
    shell, cell = _running_cell()
    if shell is None or cell is None:
        return
    if not _HOOKED:
        shell.events.register("pre_run_cell", _cell_runs)
        _HOOKED.append(shell)
    _SHOWN.setdefault(cell, weakref.WeakSet()).add(widget)
    widget.__dict__.setdefault("_shown_in", set()).add(cell)


def _cell_runs(info) -> None:
    """Before a cell runs: the widgets its last run showed (and those of deleted cells) lose that
    output; one no other cell shows is closed."""
    meta = getattr(info, "cell_meta", None) or {}
    cells = [getattr(info, "cell_id", None) or meta.get("cellId"), *(meta.get("deletedCells") or [])]
    for cell in cells:
        for widget in list(_SHOWN.pop(cell, ())) if isinstance(cell, str) else ():
            shown = widget.__dict__.get("_shown_in", set())
            shown.discard(cell)
            if not shown:
                widget.close()


class ShowsStill:
    """A widget displayed with its still beside it (``_repr_mimebundle_``), the still updated in every
    output showing the widget when ``_still_changed()`` is called; with ``no_page()``, its still alone.
    Closed when no output shows it any more (see the module's docstring); displayed again, it opens again."""

    if TYPE_CHECKING:
        # What it reads of the ipywidgets widget it is mixed into (ipywidgets has no types), and the bundle its
        # own class gives (the still beside the widget's view).
        comm: object | None

        def _repr_mimebundle_(self, **kwargs: Any) -> dict: ...

    def open(self):
        if not no_page():
            super().open()

    def close(self):
        """Close the widget: its views go from the page, and the kernel lets go of it."""
        self.__dict__.pop("_still_displays", None)
        for cell in self.__dict__.pop("_shown_in", set()):
            shown = _SHOWN.get(cell)
            if shown is not None:
                shown.discard(self)
        super().close()
        for closed in self.__dict__.pop("_on_close", []):
            closed()

    def _when_closed(self, callback) -> None:
        """Call ``callback`` once this widget is closed (a comparison closes with its two viewers)."""
        self.__dict__.setdefault("_on_close", []).append(callback)

    def _reopen(self) -> None:
        """Open a closed widget again, under a new id (its old views are gone from the page)."""
        self.__dict__.pop("_repr_mimebundle_", None)  # ipywidgets' close() hides the class's
        self._model_id = None  # ipywidgets reuses a closed widget's comm id; a page is sure of a new one
        self.open()

    def _widget_bundle(self, **kwargs) -> dict:
        """The widget's own mimebundle (its view), or its text alone where it opened no comm."""
        if self.comm is None:
            return {"text/plain": f"{type(self).__name__} (its still: no page draws widgets here)"}
        # the widget's own bundle: super() is the ipywidgets class it is mixed into, which a type checker cannot see
        return super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]

    def still_alt(self) -> str:
        """The picture's words (its ``alt`` text in an exported page): what it shows."""
        return f"{type(self).__name__}: its picture"

    def _ipython_display_(self):
        from IPython.display import display

        if self.comm is None and not no_page():
            self._reopen()
        handle = display(self._display_data(), metadata=self._display_metadata(), raw=True, display_id=True)
        if handle is not None:
            self.__dict__.setdefault("_still_displays", []).append(handle)
        if self.comm is not None:
            _remember(self)

    def _display_data(self) -> dict:
        data = self._repr_mimebundle_()
        png = data.get("image/png")
        if isinstance(png, bytes):
            data["image/png"] = base64.b64encode(png).decode("ascii")
        if self.comm is None and "image/png" in data:
            # A still alone (no page draws here: an nbconvert export) is also an <img> with its alt text,
            # which nbconvert's HTML shows first: its lab template, the default, leaves an image output's
            # alt metadata out (and warns "Alternative text is missing").
            data["text/html"] = (f'<img src="data:image/png;base64,{data["image/png"]}" '
                                 f'alt="{html.escape(self.still_alt())}">')
        return data

    def _display_metadata(self) -> dict:
        # The picture's alt text: nbconvert's HTML shows it to whoever cannot see the picture (and warns
        # "Alternative text is missing" without it).
        return {"image/png": {"alt": self.still_alt()}}

    def _still_changed(self) -> None:
        """Show the widget's current still in every output that shows the widget."""
        handles = self.__dict__.get("_still_displays", [])
        if handles:
            data, metadata = self._display_data(), self._display_metadata()
            for handle in handles:
                handle.update(data, metadata=metadata, raw=True)
        for follower in self.__dict__.get("_still_followers", []):
            follower()

    def _follow_still(self, callback) -> None:
        """Call ``callback`` whenever this widget's still changes (a comparison shows both sides' stills)."""
        self.__dict__.setdefault("_still_followers", []).append(callback)
