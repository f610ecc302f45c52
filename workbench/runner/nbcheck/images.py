"""Comparing two PNG images with a tolerance: the figures, the verdict and a picture of the difference.

Two measures, because they fail on different changes: the share of pixels whose colour moved by
more than ``threshold`` (in any channel, of 255) catches a changed region however small its
amplitude is elsewhere, and the RMS over every channel of every pixel catches a faint change
spread over the whole image (a shifted gradient, a lighter background by a few levels) that no
single pixel shows. Anti-aliasing and PNG encoders differ between machines by a few levels on
edges, hence defaults above zero. Images are compared as RGBA, so a change of transparency counts.

>>> from workbench.runner.nbcheck.images import compare_png, png
>>> red = png((40, 30), (200, 30, 30))
>>> compare_png(red, red).passed
True
>>> diff = compare_png(red, png((40, 30), (30, 30, 200)))
>>> diff.passed, diff.fraction, round(diff.rms, 1)
(False, 1.0, 120.2)
>>> diff.side_by_side().size
(128, 46)
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, fields, replace
from typing import Any

__all__ = ["ImageDiff", "Tolerance", "compare_png", "png"]


@dataclass(frozen=True)
class Tolerance:
    """How much two images may differ and still pass.

    threshold: a pixel differs when one of its channels (R, G, B, A) moved by more than this (of 255).
    max_fraction: the share of differing pixels allowed (0.002 is 20 pixels of a 100x100 image).
    max_rms: the root mean square difference allowed over all channels of all pixels (of 255).

    >>> Tolerance().with_(max_fraction=0.01)
    Tolerance(threshold=16, max_fraction=0.01, max_rms=2.0)
    """

    threshold: float = 16
    max_fraction: float = 0.002
    max_rms: float = 2.0

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"image tolerance: {f.name} must be a number >= 0, got {value!r}")
        if self.max_fraction > 1:
            raise ValueError(f"image tolerance: max_fraction is a share of pixels, 0 to 1, got {self.max_fraction!r}")

    def with_(self, **changes: Any) -> Tolerance:
        """A copy with some fields changed (None leaves a field as it is); unknown names are refused."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise ValueError(f"image tolerance: unknown setting(s) {sorted(unknown)}; "
                             f"known: {[f.name for f in fields(self)]}")
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


@dataclass
class ImageDiff:
    """The outcome of :func:`compare_png`: figures, verdict and both images (PIL, RGBA).

    ``fraction`` and ``rms`` are None when the sizes differ (then ``size_mismatch`` says how).

    >>> d = compare_png(png((4, 4), (0, 0, 0)), png((4, 2), (0, 0, 0)))
    >>> d.passed, d.size_mismatch
    (False, 'size differs: expected 4x4, got 4x2')
    """

    expected_size: tuple[int, int]
    actual_size: tuple[int, int]
    fraction: float | None
    rms: float | None
    tolerance: Tolerance
    expected: Any = field(repr=False)
    actual: Any = field(repr=False)
    mask: Any = field(default=None, repr=False)  # bool array (h, w): the pixels over the threshold

    @property
    def size_mismatch(self) -> str | None:
        if self.expected_size == self.actual_size:
            return None
        (ew, eh), (aw, ah) = self.expected_size, self.actual_size
        return f"size differs: expected {ew}x{eh}, got {aw}x{ah}"

    @property
    def passed(self) -> bool:
        if self.fraction is None or self.rms is None:  # the sizes differ
            return False
        return self.fraction <= self.tolerance.max_fraction and self.rms <= self.tolerance.max_rms

    def summary(self) -> str:
        """One line with the figures and the limits they were held to.

        >>> a = png((10, 10), (0, 0, 0))
        >>> compare_png(a, a).summary()
        '0.00% of pixels differ by more than 16/255 (max 0.20%), RMS 0.00 (max 2.00): passed'
        """
        if self.size_mismatch:
            return self.size_mismatch
        t = self.tolerance
        return (f"{self.fraction:.2%} of pixels differ by more than {t.threshold:g}/255 (max {t.max_fraction:.2%}), "
                f"RMS {self.rms:.2f} (max {t.max_rms:.2f}): {'passed' if self.passed else 'failed'}")

    def side_by_side(self):
        """One PIL image: expected, actual and the difference (pixels over the threshold in magenta over
        a faded expected image), each under its label."""
        from PIL import Image, ImageDraw

        def flat(im):  # transparency shown over white, as a notebook page shows it
            base = Image.new("RGBA", im.size, (255, 255, 255, 255))
            return Image.alpha_composite(base, im).convert("RGB")

        exp, act = flat(self.expected), flat(self.actual)
        if self.mask is not None:
            import numpy as np

            faded = (np.asarray(exp.convert("L").convert("RGB"), dtype=np.float32) * 0.3 + 255 * 0.7).astype(np.uint8)
            faded[self.mask] = (255, 0, 255)
            diff = Image.fromarray(faded, "RGB")
        else:  # sizes differ: nothing to compare pixel by pixel
            diff = Image.new("RGB", exp.size, (255, 0, 255))
        panels, labels = [exp, act, diff], ["expected", "actual", "difference"]
        gap, head = 4, 16
        width = sum(p.width for p in panels) + gap * (len(panels) - 1)
        out = Image.new("RGB", (width, head + max(p.height for p in panels)), (255, 255, 255))
        draw, x = ImageDraw.Draw(out), 0
        for panel, label in zip(panels, labels, strict=True):
            out.paste(panel, (x, head))
            draw.text((x + 2, 2), label, fill=(0, 0, 0))
            x += panel.width + gap
        return out

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.side_by_side().save(buf, "PNG")
        return buf.getvalue()


def compare_png(expected: bytes, actual: bytes, *, threshold: float | None = None, max_fraction: float | None = None,
                max_rms: float | None = None, tolerance: Tolerance | None = None) -> ImageDiff:
    """Compare two PNG (or any PIL-readable) images; keyword limits override ``tolerance`` (default :class:`Tolerance`).

    >>> a, b = png((100, 100), (255, 255, 255)), png((100, 100), (255, 255, 255), dot=(128, 128, 128))
    >>> compare_png(a, b).passed                     # one grey pixel of 10,000
    True
    >>> compare_png(a, b, max_fraction=0).passed
    False
    """
    import numpy as np
    from PIL import Image

    tol = (tolerance or Tolerance()).with_(threshold=threshold, max_fraction=max_fraction, max_rms=max_rms)
    exp = Image.open(io.BytesIO(expected)).convert("RGBA")
    act = Image.open(io.BytesIO(actual)).convert("RGBA")
    if exp.size != act.size:
        return ImageDiff(exp.size, act.size, None, None, tol, exp, act)
    delta = np.abs(np.asarray(exp, dtype=np.int16) - np.asarray(act, dtype=np.int16))
    mask = delta.max(axis=2) > tol.threshold
    rms = float(np.sqrt(np.mean(delta.astype(np.float64) ** 2)))
    return ImageDiff(exp.size, act.size, float(mask.mean()), rms, tol, exp, act, mask)


def png(size: tuple[int, int], color: tuple[int, ...], *, dot: tuple[int, ...] | None = None) -> bytes:
    """A PNG of one colour (and, with ``dot``, its top-left pixel in another): for examples and tests.

    >>> png((2, 2), (0, 0, 0))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    from PIL import Image

    im = Image.new("RGBA" if len(color) == 4 else "RGB", size, color)
    if dot is not None:
        im.putpixel((0, 0), dot)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()
