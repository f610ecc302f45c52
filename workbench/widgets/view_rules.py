"""The viewer's ranges and menus, each written once: ``AvatarViewer`` checks code's values with them
and sends them to the page (the ``rules`` traitlet), where the three.js viewer and the kernel-frame
viewer build their menus and clamp the mouse, the wheel and the keys with the same numbers.

>>> page_rules()["zoom"], page_rules()["speeds"][-1]
([0.125, 30.0], 2.0)
>>> clamp(50.0, ZOOM_RANGE)
30.0
>>> within("size", 20000, SIZE_RANGE)
Traceback (most recent call last):
...
traitlets.traitlets.TraitError: AvatarViewer: size is 32 to 2048 px; got 20000
"""

from __future__ import annotations

import math

from traitlets import TraitError

# zoom 1 frames the whole avatar; 2 is twice as close.
ZOOM_RANGE = (0.125, 30.0)
ELEVATION_RANGE = (-89.0, 89.0)
SPEEDS = (0.25, 0.5, 1.0, 1.5, 2.0)
FOCUS = ("full", "face", "hands", "feet")
LIGHTS = ("studio", "outdoor", "flat")
# The view buttons (and keys 1, 2, 3): yaw in degrees.
VIEWS = {"front": 0.0, "side": 90.0, "back": 180.0}
# The view's height and the kernel's full frames, px; the kernel's frames while dragging, px. A kernel
# frame of side n holds a few n x n arrays: 2048 px is about 100 MB of them.
SIZE_RANGE = (32, 2048)
INTERACTIVE_SIZE_RANGE = (32, 512)


def clamp(value: float, bounds: tuple[float, float]) -> float:
    """``value`` within ``bounds`` (lo, hi)."""
    lo, hi = bounds
    return min(max(float(value), lo), hi)


def finite(name: str, value) -> float:
    """``value`` as a float, refused when it is not a finite number (NaN, infinity)."""
    value = float(value)
    if not math.isfinite(value):
        raise TraitError(f"AvatarViewer: {name} is a finite number; got {value}")
    return value


def within(name: str, value, bounds: tuple[int, int]) -> int:
    """``value`` as an int of px, refused outside ``bounds``."""
    lo, hi = bounds
    if not lo <= int(value) <= hi:
        raise TraitError(f"AvatarViewer: {name} is {lo} to {hi} px; got {value}")
    return int(value)


def page_rules() -> dict:
    """What the page reads of these rules, as JSON."""
    return {"zoom": list(ZOOM_RANGE), "elevation": list(ELEVATION_RANGE), "speeds": list(SPEEDS),
            "focus": list(FOCUS), "lights": list(LIGHTS), "views": dict(VIEWS)}
