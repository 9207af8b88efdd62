"""PNG in and out of string tensors: encode_png (summary/png.py's encoder), decode_png (zlib and the five PNG row
filters undone in numpy), decode_image by the contents' format, and is_jpeg. JPEG, GIF and BMP are decoded through
Pillow where it is installed (ops/image_decode_ops.py); JPEG encoding is listed in image's missing names."""
import struct
import zlib

import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.registry import apply_op, register
from ..ops.core_ops import convert_to_tensor
from ..ops.image_decode_ops import pillow_decode
from ..platform.errors import InvalidArgumentError
from ..summary.png import encode_png as png_bytes

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"
OTHER_FORMATS = {b"GIF8": "GIF", b"BM": "BMP"}
CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}  # PNG colour type -> channels stored (3: palette indices, expanded)


def _bytes(contents):
    return bytes(contents.item() if isinstance(contents, np.ndarray) else contents)


def _chunks(data):
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, data[at + 8:at + 8 + length]
        at += 12 + length


def _unfilter(raw, height, row_bytes, bpp):
    rows = np.frombuffer(raw, np.uint8).reshape(height, row_bytes + 1)
    out = np.zeros((height, row_bytes), np.int64)
    prior = np.zeros(row_bytes, np.int64)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int64)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prior) % 256
        else:
            cur = np.zeros(row_bytes, np.int64)
            for x in range(row_bytes):
                left = cur[x - bpp] if x >= bpp else 0
                up, corner = prior[x], prior[x - bpp] if x >= bpp else 0
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + up) // 2
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                else:
                    raise InvalidArgumentError(f"decode_png: unknown PNG row filter {int(kind)}")
                cur[x] = (line[x] + pred) % 256
        out[y], prior = cur, cur
    return out.astype(np.uint8)


def _decode_png(contents, channels, dtype):
    if channels not in (0, 1, 2, 3, 4):  # TF1 checks the attribute when the op runs
        raise InvalidArgumentError(f"decode_png: channels must be 0, 1, 2, 3 or 4, got {channels}")
    data = _bytes(contents)
    if not data.startswith(PNG_SIGNATURE):
        raise InvalidArgumentError("decode_png: the contents are not a PNG image (no PNG signature)")
    header, palette, idat = None, None, []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat.append(body)
    width, height, depth, color, _, _, interlace = header
    if interlace or depth not in (8, 16) or color not in CHANNELS:
        raise InvalidArgumentError(f"decode_png: PNG with bit depth {depth}, colour type {color}, interlace "
                                   f"{interlace} is not supported in ringflow (8 or 16 bits, not interlaced)")
    stored = CHANNELS[color] if color != 3 else 1
    bpp = stored * depth // 8
    raw = _unfilter(zlib.decompress(b"".join(idat)), height, width * bpp, bpp)
    if depth == 16:
        pixels = raw.reshape(height, width * stored, 2).astype(np.uint16)
        pixels = (pixels[..., 0] << 8 | pixels[..., 1]).reshape(height, width, stored)
    else:
        pixels = raw.reshape(height, width, stored)
    if color == 3:
        pixels = palette[pixels[..., 0]]
    return _convert(_channels(pixels, channels or pixels.shape[-1]), depth, dtype)


def _channels(pixels, want):
    have = pixels.shape[-1]
    color, alpha = (pixels[..., :1] if have < 3 else pixels[..., :3]), (pixels[..., -1:] if have in (2, 4) else None)
    if want in (3, 4) and color.shape[-1] == 1:
        color = np.repeat(color, 3, axis=-1)
    if want in (1, 2) and color.shape[-1] == 3:  # TF's luma: ITU-R 601 weights, rounded down
        color = np.floor(color.astype(np.float64) @ np.array([[0.299], [0.587], [0.114]])).astype(pixels.dtype)
    if want in (2, 4):
        top = np.iinfo(pixels.dtype).max
        alpha = np.full(color.shape[:-1] + (1,), top, pixels.dtype) if alpha is None else alpha
        return np.concatenate([color, alpha], -1)
    return color


def _convert(pixels, depth, dtype):
    if np.dtype(dtype) == np.uint16 and depth == 8:
        return pixels.astype(np.uint16) * 257
    if np.dtype(dtype) == np.uint8 and depth == 16:
        return (pixels >> 8).astype(np.uint8)
    return pixels.astype(dtype)


def _decode_image(contents, channels, dtype):
    data = _bytes(contents)
    if data.startswith(PNG_SIGNATURE):
        return _decode_png(data, channels, dtype)
    found = "JPEG" if data.startswith(JPEG_SIGNATURE) else next(
        (name for magic, name in OTHER_FORMATS.items() if data.startswith(magic)), None)
    if found is None:
        raise InvalidArgumentError("decode_image: Unknown image file format. One of JPEG, PNG, GIF, BMP required.")
    if np.dtype(dtype) != np.uint8:
        raise InvalidArgumentError(f"decode_image: a {found} image decodes to uint8 only, as TF1's")
    return pillow_decode(data, channels, found == "GIF", f"decode_image of a {found} image")


def _encode_png(image, compression):
    if image.dtype != np.uint8:
        raise InvalidArgumentError(f"encode_png: ringflow encodes uint8 images, got {image.dtype.name}")
    return np.array(png_bytes(image), dtype=object)


register("DecodePng", kernel=host_kernel(_decode_png), fresh=True,
         infer=lambda c, channels, dtype: [((None, None, channels if channels in (1, 2, 3, 4) else None), dtype)])
register("DecodeImage", kernel=host_kernel(_decode_image), fresh=True, infer=lambda c, channels, dtype: [(None, dtype)])
register("EncodePng", kernel=host_kernel(_encode_png), fresh=True, infer=lambda x, compression: [((), dtypes.string)])


def _contents(contents, what):
    contents = convert_to_tensor(contents)
    if contents.dtype != dtypes.string:
        raise TypeError(f"{what} needs a string tensor of encoded bytes, got {contents.name!r} of dtype "
                        f"{contents.dtype.name}")
    if contents.ndim not in (None, 0):
        raise ValueError(f"{what} needs a scalar string, got {contents.name!r} of shape {contents.shape}")
    return contents


def _decode_args(channels, dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"{what}: dtype must be uint8 or uint16, got {dtype.name}")
    return int(channels), dtype


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """The pixels of a PNG image, [height, width, channels] (channels 0: as stored; gray and colour, with or
    without alpha, convert as TF1's do)."""
    channels, dtype = _decode_args(channels, dtype, "decode_png")
    return apply_op("DecodePng", [_contents(contents, "decode_png")], name=name or "DecodePng", channels=channels,
                    dtype=dtype)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """decode_png for PNG contents; JPEG, GIF (its frames) and BMP through Pillow, which a run needs for them."""
    channels, dtype = _decode_args(channels or 0, dtype, "decode_image")
    return apply_op("DecodeImage", [_contents(contents, "decode_image")], name=name or "decode_image",
                    channels=channels, dtype=dtype)


def encode_png(image, compression=-1, name=None):
    """A uint8 image [height, width, channels 1-4] as PNG bytes (a string scalar)."""
    x = convert_to_tensor(image)
    if x.ndim not in (None, 3):
        raise ValueError(f"encode_png needs a 3-D [height, width, channels] image, got {x.name!r} of shape {x.shape}")
    if x.dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"encode_png needs a uint8 or uint16 image, got {x.name!r} of dtype {x.dtype.name}")
    return apply_op("EncodePng", [x], name=name or "EncodePng", compression=int(compression))


def is_jpeg(contents, name=None):
    """Whether the bytes start with JPEG's signature (a bool scalar)."""
    contents = _contents(contents, "is_jpeg")
    return apply_op("IsJpeg", [contents], name=name or "is_jpeg")


register("IsJpeg", kernel=host_kernel(lambda c: np.array(_bytes(c).startswith(JPEG_SIGNATURE))),
         infer=lambda c: [((), dtypes.bool)], fresh=True)
