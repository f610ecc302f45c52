"""What regeneration jobs produce for viewers: the product model, USDZ, the space scene and its bundle.

Modules: ``product`` (a generated product GLB), ``usdz`` (GLB to USDZ), ``space``
(a generated gallery room), ``bundle`` (scene plus ``effects.json`` zip),
``regenerate`` (the outputs of a product or space regeneration job),
``zipstore`` (the zip writer they share). GLBs are written with ``workbench.gltf.glb``
and validated with ``workbench.gltf.validate``.

>>> from workbench.regeneration import build_product_glb, regenerate_product
>>> sorted(regenerate_product(build_product_glb("demo")))
['glb', 'preview', 'usdz']
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bundle import build_space_bundle, space_effects
    from .product import build_product_glb
    from .regenerate import regenerate_product, regenerate_space
    from .space import build_space_scene
    from .usdz import glb_to_usdz

# Each name from the module that holds it, imported when first asked for: the service's job runner imports
# ``workbench.regeneration.worker`` at every start, and these modules bring the avatar build (numba, scipy).
_WHERE = {"build_space_bundle": "bundle", "space_effects": "bundle", "build_product_glb": "product",
          "regenerate_product": "regenerate", "regenerate_space": "regenerate", "build_space_scene": "space",
          "glb_to_usdz": "usdz"}


def __getattr__(name: str) -> object:
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "build_product_glb",
    "glb_to_usdz",
    "build_space_scene",
    "build_space_bundle",
    "space_effects",
    "regenerate_product",
    "regenerate_space",
]
