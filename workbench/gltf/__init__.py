"""Building and inspecting GLB files: avatars, the animation library, summaries and validation.

One operation per module: ``avatar`` (build_avatar), ``animation`` (build_animation and the
library), ``summary`` (inspect, compare), ``validator`` (validate with the Khronos
glTF-Validator). ``body``, ``surfaces``, ``skeleton``, ``clips``, ``textures`` and ``atlas`` are
the pieces they share.
"""

from .animation import build_animation, build_animation_library
from .avatar import build_avatar

__all__ = [
    "build_avatar",
    "build_animation",
    "build_animation_library",
]
