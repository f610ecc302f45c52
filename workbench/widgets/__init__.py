"""Notebook widgets: the 3D avatar viewer and the option explorers.

``viewer`` is ``AvatarViewer`` (an anywidget drawn by three.js in the page, or by the kernel), its
front-end built from ``js/viewer/`` (one module per feature) into ``static/`` and served by
``frontend``, its ranges and menus in ``view_rules``; ``comparison`` puts two viewers on one camera;
``still`` is the picture a saved notebook keeps of a widget; ``explorers`` are ``PreviewExplorer`` and ``ModelExplorer``.
The viewer's names load on first use: anywidget is imported with the first viewer, not with this package.

>>> from workbench.widgets import preview_options_from
>>> preview_options_from(200, "full", "#102030")
{'size': 200, 'camera': 'full', 'background': (16, 32, 48)}
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .explorers import ModelExplorer, PreviewExplorer, preview_options_from

if TYPE_CHECKING:
    # What a type checker and an editor see: the names __getattr__ loads on first use, with their types.
    from .comparison import AvatarComparison
    from .viewer import AvatarViewer

_LAZY = {"AvatarViewer": ".viewer", "AvatarComparison": ".comparison"}

__all__ = ["AvatarViewer", "AvatarComparison", "ModelExplorer", "PreviewExplorer", "preview_options_from"]


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
