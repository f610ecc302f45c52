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
    # What a type checker and an editor see: the names __getattr__ loads on first use (_LAZY), with their types.
    from .bundle import build_space_bundle as build_space_bundle
    from .bundle import space_effects as space_effects
    from .product import build_product_glb as build_product_glb
    from .regenerate import regenerate_product as regenerate_product
    from .regenerate import regenerate_space as regenerate_space
    from .space import build_space_scene as build_space_scene
    from .usdz import glb_to_usdz as glb_to_usdz

# Each name from the module that holds it, imported on first use: the service's job runner imports
# ``workbench.regeneration.worker`` at every start, and these modules bring the avatar build (numba, scipy;
# tests/test_start_cost.py).
_LAZY = {"build_space_bundle": ".bundle", "space_effects": ".bundle", "build_product_glb": ".product",
         "regenerate_product": ".regenerate", "regenerate_space": ".regenerate", "build_space_scene": ".space",
         "glb_to_usdz": ".usdz"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [*_LAZY]
