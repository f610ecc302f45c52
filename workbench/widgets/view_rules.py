"""The viewer's ranges and menus, each written once: ``AvatarViewer`` checks code's values with them
and sends them to the page (the ``rules`` traitlet), where the three.js viewer and the kernel-frame
viewer build their menus and clamp the mouse, the wheel and the keys with the same numbers.

>>> page_rules()["zoom"], page_rules()["speeds"][-1]
([0.125, 30.0], 2.0)
>>> clamp(50.0, ZOOM_RANGE)
30.0
"""

from __future__ import annotations

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


def page_rules() -> dict:
    """What the page reads of these rules, as JSON."""
    return {"zoom": list(ZOOM_RANGE), "elevation": list(ELEVATION_RANGE), "speeds": list(SPEEDS),
            "focus": list(FOCUS), "lights": list(LIGHTS), "views": dict(VIEWS)}
