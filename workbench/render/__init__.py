"""The software renderer behind previews: glTF scenes to images with numpy and Pillow, no GPU.

``render`` draws one image; ``render_preview`` is what ``GET /preview/:id.png``
answers (PNG bytes, the same bytes for the same input); ``turntable``,
``pose_image``, ``pose_sequence`` (a clip's frames, framed once) and ``grid`` make the pictures
people look at in notebooks.

Modules: ``pictures`` makes those pictures, ``scene`` reads a GLB (accessors, nodes, skins, materials, clips),
``framing`` places the camera, ``raster`` rasterizes, shades and anti-aliases, with its inner loops in
``loops`` (compiled by numba). :func:`warm_up` loads them, and what every avatar shares, before a first
preview needs them.

>>> from workbench.render import render
>>> from workbench.regeneration.product import build_product_glb
>>> render(build_product_glb("vase"), size=64, camera="full").size
(64, 64)
"""

from .pictures import grid, pose_image, pose_sequence, preview_pose, render, render_preview, turntable, warm_up
from .scene import Model

__all__ = ["render", "render_preview", "turntable", "pose_image", "pose_sequence", "grid", "preview_pose", "Model",
           "warm_up"]
