"""tf.image's decoders: PNG needs nothing but numpy and zlib; JPEG, GIF and BMP decode with Pillow where it is
installed (not a ringflow dependency) and, without it, fail at Session.run saying what to install. The PNG and BMP
files are built here byte by byte from their formats, so the decoded pixels are known exactly."""
import base64
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


DECODERS = [tg.image.decode_jpeg, tg.image.decode_bmp, tg.image.decode_gif, tg.image.decode_image]


@pytest.mark.parametrize("decode", DECODERS, ids=lambda f: f.__name__)
def test_without_pillow_a_run_says_what_to_install(decode, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    with pytest.raises(UnimplementedError, match="pip install pillow"):
        run(decode, bmp(PIXELS))


def test_png_decodes_to_its_pixels_without_pillow(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert np.array_equal(run(tg.image.decode_png, png(PIXELS)), PIXELS)
    assert np.array_equal(run(tg.image.decode_image, png(PIXELS)), PIXELS)
    grey = run(lambda c: tg.image.decode_png(c, channels=1), png(PIXELS))
    assert grey.shape == (2, 3, 1) and grey.dtype == np.uint8
    rgba = run(lambda c: tg.image.decode_png(c, channels=4), png(PIXELS))
    assert np.array_equal(rgba[..., :3], PIXELS) and np.all(rgba[..., 3] == 255)


def test_bmp_decodes_to_its_pixels_with_pillow():
    pytest.importorskip("PIL")
    assert np.array_equal(run(tg.image.decode_bmp, bmp(PIXELS)), PIXELS)
    assert np.array_equal(run(tg.image.decode_image, bmp(PIXELS)), PIXELS)


def test_static_shapes_and_bad_bytes():
    with tg.Graph().as_default():
        assert tg.image.decode_png(tg.constant(b""), channels=3).shape.as_list() == [None, None, 3]
        with pytest.raises(ValueError, match="channels must be"):
            tg.image.decode_jpeg(tg.constant(b""), channels=2)
    with pytest.raises(InvalidArgumentError, match="Unknown image file format"):
        run(tg.image.decode_image, b"not an image")
    pytest.importorskip("PIL")
    with pytest.raises(InvalidArgumentError, match="not a decodable image"):
        run(tg.image.decode_jpeg, b"not an image")


def test_encode_png_round_trips_through_decode_png():
    with tg.Graph().as_default(), tg.Session() as sess:
        encoded = sess.run(tg.image.encode_png(tg.constant(PIXELS)))
        assert encoded.startswith(b"\x89PNG\r\n\x1a\n")
        assert np.array_equal(sess.run(tg.image.decode_png(tg.constant(encoded))), PIXELS)


# a progressive 2 x 5 grayscale JPEG, as TF's encode_jpeg wrote it
GRAY_JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQEBLAEsAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoK"
    "CgoKBggLDAsKDAkKCgr/wgALCAACAAUBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAABf/aAAgBAQAAAAF3/8QAFRABAQAAAAAAAAAA"
    "AAAAAAAABhX/2gAIAQEAAQUCEnT8n//EABoQAAAHAAAAAAAAAAAAAAAAAAACBDVBRNH/2gAIAQEABj8CYkcVi4P/xAAVEAEBAAAA"
    "AAAAAAAAAAAAAAAAEf/aAAgBAQABPyGc2//aAAgBAQAAABB//8QAFhABAQEAAAAAAAAAAAAAAAAAAQDw/9oACAEBAAE/EN8Yz//Z")


def test_extract_jpeg_shape_reads_the_header_without_pillow():
    with tg.Graph().as_default():
        shape = tg.io.extract_jpeg_shape(GRAY_JPEG)
        wide = tg.io.extract_jpeg_shape(GRAY_JPEG, tg.int64)
        assert shape.shape == (3,) and shape.dtype == tg.int32 and wide.dtype == tg.int64
        with tg.Session() as sess:
            assert sess.run(shape).tolist() == [2, 5, 1] and sess.run(wide).tolist() == [2, 5, 1]
            with pytest.raises(tg.errors.InvalidArgumentError, match="Invalid JPEG data, size 8"):
                sess.run(tg.io.extract_jpeg_shape(b"notajpeg"))
            with pytest.raises(tg.errors.InvalidArgumentError, match="Invalid JPEG data"):
                sess.run(tg.io.extract_jpeg_shape(GRAY_JPEG[:20]))  # cut before the frame header
        with pytest.raises(TypeError, match="int32 or int64"):
            tg.io.extract_jpeg_shape(GRAY_JPEG, tg.float32)
