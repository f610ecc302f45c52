"""Checking notebooks' outputs beyond nbval's text comparison: pictures within a tolerance, volatile text masked.

``compare_png`` is plain Python (no pytest) for any report that compares pictures; the pytest
plugin ``workbench.runner.nbcheck.pytest_plugin`` (``--nbimages``) applies it, and the masks, to nbval's runs.

>>> from workbench.runner.nbcheck import compare_png
>>> from workbench.runner.nbcheck.images import png
>>> compare_png(png((8, 8), (0, 0, 0)), png((8, 8), (0, 0, 255))).summary()
'100.00% of pixels differ by more than 16/255 (max 0.20%), RMS 127.50 (max 2.00): failed'
"""

from workbench.runner.nbcheck.images import ImageDiff, Tolerance, compare_png
from workbench.runner.nbcheck.masks import MASKS, mask, sanitize_cfg

__all__ = ["ImageDiff", "MASKS", "Tolerance", "compare_png", "mask", "sanitize_cfg"]
