"""Hair grown from the scalp as strands swept into cards, with its texture (see :mod:`.pieces`)."""

from .bald import shaved
from .buzz import PAINTED, scalp_roughness, scalp_skin, scalp_specular
from .lashes import lash_texture, with_lash_uvs
from .look import lit, material, span
from .pieces import LOD1_BUDGET, hair_pieces, lod1_budget
from .styles import STYLES
from .texture import hair_texture

__all__ = ["LOD1_BUDGET", "PAINTED", "STYLES", "hair_pieces", "hair_texture", "lash_texture", "lit", "lod1_budget", "material", "scalp_roughness", "scalp_skin", "scalp_specular", "shaved", "span",
           "with_lash_uvs"]
