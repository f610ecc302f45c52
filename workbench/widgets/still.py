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

>>> from PIL import Image
>>> sorted(with_still({"text/plain": "a viewer"}, Image.new("RGBA", (4, 4))))
['image/png', 'text/plain']
"""

from __future__ import annotations

import base64
import functools
import os
from pathlib import Path

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


class ShowsStill:
    """A widget displayed with its still beside it (``_repr_mimebundle_``), the still updated in every
    output showing the widget when ``_still_changed()`` is called; with ``no_page()``, its still alone."""

    def open(self):
        if not no_page():
            super().open()

    def _widget_bundle(self, **kwargs) -> dict:
        """The widget's own mimebundle (its view), or its text alone where it opened no comm."""
        if self.comm is None:
            return {"text/plain": f"{type(self).__name__} (its still: no page draws widgets here)"}
        return super()._repr_mimebundle_(**kwargs)

    def _ipython_display_(self):
        from IPython.display import display

        handle = display(self._display_data(), raw=True, display_id=True)
        if handle is not None:
            self.__dict__.setdefault("_still_displays", []).append(handle)

    def _display_data(self) -> dict:
        data = self._repr_mimebundle_()
        png = data.get("image/png")
        if isinstance(png, bytes):
            data["image/png"] = base64.b64encode(png).decode("ascii")
        return data

    def _still_changed(self) -> None:
        """Show the widget's current still in every output that shows the widget."""
        handles = self.__dict__.get("_still_displays", [])
        if handles:
            data = self._display_data()
            for handle in handles:
                handle.update(data, raw=True)
        for follower in self.__dict__.get("_still_followers", []):
            follower()

    def _follow_still(self, callback) -> None:
        """Call ``callback`` whenever this widget's still changes (a comparison shows both sides' stills)."""
        self.__dict__.setdefault("_still_followers", []).append(callback)
