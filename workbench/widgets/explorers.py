"""Explorers: preview and model options tried live with ipywidgets controls over the client.

Each explorer keeps its last result in ``.current``, so a notebook can also show a
static image or table that stays in the saved file where widgets do not render.

>>> from workbench.widgets.explorers import preview_options_from
>>> preview_options_from(200, "full", "#102030")
{'size': 200, 'camera': 'full', 'background': (16, 32, 48)}
"""

from __future__ import annotations

from typing import Any

from workbench import options as opts

__all__ = ["PreviewExplorer", "ModelExplorer", "preview_options_from"]

# The model explorer's menu labels for "no textureFormat" and "no textureAtlasSize" in the request.
TEXTURES_DEFAULT, ATLAS_NONE = "default", "none"


def preview_options_from(size: int, camera: str, background: str | None) -> dict[str, Any]:
    """Widget values to preview keyword arguments (a colour picker's ``#RRGGBB`` to (R, G, B))."""
    bg = None
    if background:
        bg = tuple(int(background[i:i + 2], 16) for i in (1, 3, 5))
    return {"size": size, "camera": camera, "background": bg}


class PreviewExplorer:
    """Size, camera and background controls over ``client.avatars.preview``; the image updates live."""

    def __init__(self, client, model_id: str, size: int = 256, camera: str = opts.PREVIEW_CAMERA_DEFAULT):
        import ipywidgets as W

        self.client, self.model_id = client, model_id
        lo, hi = opts.PREVIEW_SIZES
        self.size = W.IntSlider(value=size, min=lo, max=hi, step=lo, description="size", continuous_update=False)
        cameras = sorted(opts.CAMERAS, key=lambda c: c != opts.PREVIEW_CAMERA_DEFAULT)  # the default first
        self.camera = W.ToggleButtons(options=cameras, value=camera, description="camera")
        self.transparent = W.Checkbox(value=True, description="transparent")
        self.color = W.ColorPicker(value="#dfe6ee", description="background", disabled=True)
        self.image = W.Image(format="png")
        self.label = W.HTML()
        for w in (self.size, self.camera, self.transparent, self.color):
            w.observe(self._update, names="value")
        self.widget = W.VBox([W.HBox([self.size, self.camera]), W.HBox([self.transparent, self.color]), self.image, self.label])
        self.current = None
        self._update()

    def _update(self, *_):
        self.color.disabled = self.transparent.value
        kw = preview_options_from(self.size.value, self.camera.value, None if self.transparent.value else self.color.value)
        self.current = self.client.avatars.preview(self.model_id, **kw)
        self.image.value = self.current.content
        w, h = self.current.size
        self.label.value = f"<code>{self.current.query}</code> &rarr; {w}x{h} px, {len(self.current.content):,} bytes"

    def _repr_mimebundle_(self, **kwargs):
        # The live widget, and a still of its current image for wherever widgets do not run (a saved
        # or converted notebook, the tour's report).
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        return {**data, "image/png": self.current.content}


class ModelExplorer:
    """LOD, animations, texture format, merge and atlas controls over ``client.avatars.model``; shows the summary.

    The controls start at the interface's defaults (LOD 0, no animations, default textures, no atlas)
    and every menu names its choice: ipywidgets shows a menu whose value is ``None`` as blank, so
    "default" and "none" stand for the options' absence, and :meth:`request` turns them back into it.
    """

    def __init__(self, client, model_id: str):
        import ipywidgets as W

        self.client, self.model_id = client, model_id
        defaults = opts.ModelOptions()
        self.lod = W.ToggleButtons(options=list(opts.LODS), value=defaults.lod, description="lod")
        self.animations = W.Dropdown(options=["none", "locomotion", "gestures", "all", "walk,wave"], value="none",
                                     description="animations")
        self.texture_format = W.Dropdown(options=[TEXTURES_DEFAULT, *sorted(opts.TEXTURE_FORMATS)],
                                         value=TEXTURES_DEFAULT, description="textures")
        self.merge = W.Checkbox(value=bool(defaults.merge_mesh), description="mergeMesh")
        self.atlas = W.Dropdown(options=[(ATLAS_NONE, 0)] + [(str(n), n) for n in opts.ATLAS_SIZES], value=0,
                                description="atlas")
        self.out = W.Output()
        for w in (self.lod, self.animations, self.texture_format, self.merge, self.atlas):
            w.observe(self._update, names="value")
        self.widget = W.VBox([W.HBox([self.lod, self.animations]), W.HBox([self.texture_format, self.merge, self.atlas]), self.out])
        self.current = None
        self._update()

    def request(self) -> dict[str, Any]:
        """The controls' values as ``client.avatars.model`` keyword arguments (a default as ``None``)."""
        return {"lod": self.lod.value, "animations": self.animations.value,
                "texture_format": None if self.texture_format.value == TEXTURES_DEFAULT else self.texture_format.value,
                "merge_mesh": self.merge.value, "texture_atlas_size": self.atlas.value or None}

    def _update(self, *_):
        from IPython.display import display

        model = self.client.avatars.model(self.model_id, **self.request())
        self.current = model.inspect()
        self.out.clear_output(wait=True)
        with self.out:
            display(self.current)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
