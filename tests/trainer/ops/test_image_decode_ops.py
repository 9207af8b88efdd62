"""tf.image's decoders: they decode with Pillow where it is installed (not a ringflow dependency) and, without it,
fail at Session.run saying what to install. The PNG and BMP files are built here byte by byte from their formats,
so the decoded pixels are known exactly."""
import struct
import sys
import zlib

import numpy as np
import pytest

import trainer as tg
from trainer.platform.errors import InvalidArgumentError, UnimplementedError

PIXELS = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3) * 13


def png(rgb):
    """An 8-bit RGB PNG: signature, IHDR, one IDAT of unfiltered rows, IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    height, width, _ = rgb.shape
    rows = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def bmp(rgb):
    """A 24-bit bottom-up BMP: rows of BGR padded to four bytes."""
    height, width, _ = rgb.shape
    pad = (4 - 3 * width % 4) % 4
    rows = b"".join(rgb[y, :, ::-1].tobytes() + b"\x00" * pad for y in reversed(range(height)))
    header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(rows), 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + len(header) + len(rows), 0, 0, 14 + len(header)) + header + rows


def run(build, contents):
    with tg.Graph().as_default(), tg.Session() as sess:
        return sess.run(build(tg.constant(contents)))


DECODERS = [tg.image.decode_jpeg, tg.image.decode_png, tg.image.decode_bmp, tg.image.decode_gif,
            tg.image.decode_image]


@pytest.mark.parametrize("decode", DECODERS, ids=lambda f: f.__name__)
def test_without_pillow_a_run_says_what_to_install(decode, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    with pytest.raises(UnimplementedError, match="pip install pillow"):
        run(decode, png(PIXELS))


def test_png_and_bmp_decode_to_their_pixels():
    pytest.importorskip("PIL")
    assert np.array_equal(run(tg.image.decode_png, png(PIXELS)), PIXELS)
    assert np.array_equal(run(tg.image.decode_bmp, bmp(PIXELS)), PIXELS)
    assert np.array_equal(run(tg.image.decode_image, png(PIXELS)), PIXELS)
    grey = run(lambda c: tg.image.decode_png(c, channels=1), png(PIXELS))
    assert grey.shape == (2, 3, 1) and grey.dtype == np.uint8
    rgba = run(lambda c: tg.image.decode_png(c, channels=4), png(PIXELS))
    assert np.array_equal(rgba[..., :3], PIXELS) and np.all(rgba[..., 3] == 255)


def test_static_shapes_and_bad_bytes():
    with tg.Graph().as_default():
        assert tg.image.decode_png(tg.constant(b""), channels=3).shape.as_list() == [None, None, 3]
        with pytest.raises(ValueError, match="channels must be"):
            tg.image.decode_jpeg(tg.constant(b""), channels=2)
    pytest.importorskip("PIL")
    with pytest.raises(InvalidArgumentError, match="not a decodable image"):
        run(tg.image.decode_png, b"not an image")
