"""Two avatar viewers side by side on one camera (``AvatarViewer.compare``).

>>> from workbench.render.testing import tiny_rig_glb
>>> from workbench.widgets.viewer import AvatarViewer
>>> pair = AvatarComparison(AvatarViewer(tiny_rig_glb(), size=32), AvatarViewer(tiny_rig_glb(), size=32))
>>> pair.a.yaw = 30
>>> pair.b.yaw
30.0
"""

from __future__ import annotations

import ipywidgets

from .still import ShowsStill, no_page, with_still

# The traitlets two linked viewers share: the camera.
CAMERA_TRAITS = ("yaw", "elevation", "zoom", "target")


class AvatarComparison(ShowsStill, ipywidgets.GridBox):
    """Two AvatarViewers in two equal columns with their cameras linked (``a`` and ``b``); its still is
    both views side by side, updated when either page sends its picture."""

    def __init__(self, a, b, *, link_clip: bool = True, link_time: bool = False):
        # A layout is a widget of its own: where no page draws (still.no_page), none is made.
        layout = {} if no_page() else {"layout": ipywidgets.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))",
                                                                     grid_gap="8px", width="100%")}
        super().__init__([a, b], **layout)
        self.a, self.b = a, b
        # In the page, the two views share one camera every frame; in the kernel, code and the
        # mouse's end results (which reach the kernel) move both.
        a.link_group = b.link_group = a.viewer_id or f"pair-{id(a)}"
        a.link_time = b.link_time = link_time
        names = list(CAMERA_TRAITS) + ["dragging"]
        if link_clip and set(a.clips) == set(b.clips):
            names += ["clip", "playing", "speed", "loop"]
        if link_time:
            names += ["time"]
        self.links = [ipywidgets.link((a, name), (b, name)) for name in names]
        a._follow_still(self._still_changed)
        b._follow_still(self._still_changed)
        # Both viewers closed (their page's output cleared): the comparison's own widgets go too.
        for side in (a, b):
            side._when_closed(lambda: self.close() if a.comm is None and b.comm is None else None)

    def close(self):
        """Close the comparison with its two viewers, their links and its layout."""
        links, self.links = self.links, []  # once: ipywidgets closes again when the object goes
        for link in links:
            link.unlink()
        for widget in (self.a, self.b, self.layout):
            widget.close()
        super().close()

    def still_alt(self) -> str:
        """Both pictures' words, left then right."""
        return f"Two views side by side. Left: {self.a.still_alt()}. Right: {self.b.still_alt()}"

    def snapshot(self):
        """Both views side by side, one PIL image."""
        from PIL import Image

        left, right = self.a.snapshot(), self.b.snapshot()
        out = Image.new("RGBA", (left.width + right.width, max(left.height, right.height)), (255, 255, 255, 0))
        out.paste(left, (0, 0))
        out.paste(right, (left.width, 0))
        return out

    def _repr_mimebundle_(self, **kwargs):
        return with_still(self._widget_bundle(**kwargs), self.snapshot())
