"""Building and inspecting GLB files: avatars, the animation library, summaries and validation.

One operation per module: ``avatar`` (build_avatar), ``animation`` (build_animation and the
library), ``summary`` (inspect, compare), ``tracks`` (keyframes as a DataFrame), ``pose`` (bone world
positions with a clip evaluated at a time), ``validator``
(validate with the Khronos glTF-Validator). ``body`` (the meshes cut from ``workbench.body``'s MakeHuman
body), ``skeleton``, ``clips``, ``textures`` and ``atlas`` are the pieces they share. ``glb`` is the public GLB container module every package writes and reads
through: ``GlbWriter``, ``read_glb``, ``read_accessor``, ``pack_glb`` and the component-type table.

>>> from workbench.options import ModelOptions, normalize_avatar_settings
>>> glb = build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2))
>>> list(inspect(glb).meshes["name"])
['Body', 'Eyes', 'Eyelashes', 'Eyebrows', 'Teeth', 'Hair', 'Outfit_Top', 'Outfit_Bottom', 'Outfit_Footwear']
"""

from .animation import build_animation, build_animation_library
from .avatar import build_avatar
from .pose import bone_positions
from .summary import GlbSummary, compare, inspect
from .tracks import tracks
from .validator import ValidationReport, install_validator, validate, validate_many, validator_available

__all__ = [
    "build_avatar",
    "build_animation",
    "build_animation_library",
    "inspect",
    "compare",
    "GlbSummary",
    "validate",
    "validate_many",
    "validator_available",
    "install_validator",
    "tracks",
    "bone_positions",
    "ValidationReport",
]
