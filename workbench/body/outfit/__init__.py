"""The outfit: garments of several cuts that hang from the body, built on MakeHuman's helper surfaces.

``styles`` the cuts and fits; ``clip`` cutting panels along smooth lines; ``pattern`` what each garment
keeps per machine; ``drape`` and ``fit`` how it hangs on one body; ``unwrap`` its UVs; ``garments`` the
pieces an avatar wears and the skin they hide; ``edges`` their finished edges, ``hood`` a hoodie's hood,
``shoes`` the shoes' soles, tongues and laces.
"""

from .garments import UNDER, Dressed, dressed, hidden_skin, lower_pieces, outfit_pieces, under
from .styles import BOTTOMS, FOOTWEAR, STYLES, TOPS

__all__ = ["UNDER", "Dressed", "dressed", "hidden_skin", "lower_pieces", "outfit_pieces", "under", "BOTTOMS", "FOOTWEAR", "STYLES",
           "TOPS"]
