"""The PNG writer of previews and textures (workbench.gltf.png): what Pillow and zlib read back is the picture, whole."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from PIL import Image

from workbench.gltf.png import SPLIT_BYTES, png_bytes


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (64, 64), (512, 512), (300, 1001)])
def test_the_picture_comes_back_exactly(shape):
    rng = np.random.default_rng(sum(shape))
    # Noise, flat runs and a gradient: every filter byte and run length the encoder meets.
    rgba = rng.integers(0, 256, shape + (4,), dtype=np.uint8)
    rgba[: shape[0] // 2, : shape[1] // 3] = (10, 200, 30, 255)
    png = png_bytes(rgba)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    back = Image.open(io.BytesIO(png))
    assert back.mode == "RGBA" and back.size == (shape[1], shape[0])
    assert np.array_equal(np.asarray(back), rgba)


def test_both_halves_join_into_one_checked_stream():
    rgba = np.random.default_rng(1).integers(0, 256, (512, 512, 4), dtype=np.uint8)
    assert rgba.nbytes > SPLIT_BYTES    # (deflated in two halves)
    png = png_bytes(rgba)
    at = png.index(b"IDAT")
    size = int.from_bytes(png[at - 4:at], "big")
    stream = png[at + 4: at + 4 + size]
    rows = zlib.decompress(stream)          # checks the stream's Adler-32 too
    assert len(rows) == 512 * (512 * 4 + 1)
    assert set(rows[:: 512 * 4 + 1]) <= {0, 1, 2}    # each row led by its filter: none, sub or up
    assert zlib.crc32(png[at: at + 4 + size]) == int.from_bytes(png[at + 4 + size: at + 8 + size], "big")


def test_same_picture_same_bytes_and_bad_shapes_refused():
    rgba = np.zeros((40, 30, 4), np.uint8)
    assert png_bytes(rgba) == png_bytes(rgba.copy())
    with pytest.raises(ValueError, match="RGBA"):
        png_bytes(np.zeros((4, 4, 2), np.uint8))


def test_rgb_too():
    rgb = np.random.default_rng(3).integers(0, 256, (600, 333, 3), dtype=np.uint8)
    back = Image.open(io.BytesIO(png_bytes(rgb)))
    assert back.mode == "RGB" and np.array_equal(np.asarray(back), rgb)
