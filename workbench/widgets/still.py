"""A widget's mimebundle with a PNG still beside it, for wherever widgets do not run (a notebook
saved or converted without a kernel, the tour's report).

>>> from PIL import Image
>>> sorted(with_still({"text/plain": "a viewer"}, Image.new("RGBA", (4, 4))))
['image/png', 'text/plain']
"""

from __future__ import annotations

from workbench.render.stage import encode


def with_still(bundle, image) -> dict:
    """``bundle`` (a dict, or a (data, metadata) pair) with ``image`` as ``image/png`` beside it;
    ``image`` is a PIL image, or None for none."""
    data = dict((bundle[0] if isinstance(bundle, tuple) else bundle) or {})
    if image is not None:
        data["image/png"] = encode(image, "png")
    return data
