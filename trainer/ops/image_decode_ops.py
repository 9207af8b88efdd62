"""tf.image.decode_jpeg, decode_bmp and decode_gif: encoded image bytes as uint8 arrays (PNG, and decode_image's
choice by contents, are trainer/image/codecs.py's, which needs no Pillow); extract_jpeg_shape reads a JPEG's header.

The kernels decode with Pillow, imported when an image is first decoded (it is no dependency of ringflow: a graph
that only builds these ops, or never runs them, needs no Pillow); without it, running one says what to install.
"""
import io

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import host_kernel, on_host, register
from ..platform.errors import InvalidArgumentError, UnimplementedError
from .core_ops import convert_to_tensor

_MODES = {1: "L", 3: "RGB", 4: "RGBA"}


def pillow_decode(data, channels, frames, what):
    """Encoded image bytes as a uint8 array through Pillow: [height, width, channels], or [frames, height, width, 3]
    for a GIF's frames. Without Pillow it raises UnimplementedError saying what to install."""
    try:
        from PIL import Image  # noqa: PLC0415 - optional, as CuPy is: only a run that decodes needs it
    except ImportError:
        raise UnimplementedError(f"{what} decodes images with Pillow, which is not installed: pip install pillow") \
            from None
    try:
        image = Image.open(io.BytesIO(data))
        if frames:
            out = []
            for i in range(getattr(image, "n_frames", 1)):
                image.seek(i)
                out.append(np.asarray(image.convert("RGB")))
            return np.stack(out)
        if channels:
            image = image.convert(_MODES[channels])
        elif image.mode not in ("L", "RGB", "RGBA"):
            image = image.convert("RGBA" if "A" in image.mode else "RGB")
        array = np.asarray(image, dtype=np.uint8)
    except (OSError, ValueError) as e:
        raise InvalidArgumentError(f"{what}: the contents are not a decodable image ({e})") from None
    return array[..., None] if array.ndim == 2 else array


def _decode(op, session):
    channels, frames = op.attrs["channels"], op.type == "DecodeGif"
    return lambda contents: pillow_decode(np.asarray(contents, dtype=object)[()], channels, frames,
                                          f"{op.type} op {op.name!r}")


for _kind in ("DecodeJpeg", "DecodeBmp", "DecodeGif"):  # PNG: trainer/image/codecs.py, without Pillow
    register(_kind, kernel=on_host(_decode), infer=lambda contents, **attrs: [(None, dtypes.uint8)])


def _op(op_type, contents, channels, name, rank=3):
    contents = convert_to_tensor(contents, dtype=dtypes.string)
    channels = int(channels or 0)
    if channels not in (0, 1, 3, 4):
        raise ValueError(f"channels must be 0 (as stored), 1, 3 or 4, got {channels}")
    shape = (None,) * (rank - 1) + (channels or None,) if op_type != "DecodeImage" else None
    return get_default_graph().create_op(op_type, [contents], [(shape, dtypes.uint8)], name=name or op_type,
                                         attrs={"channels": channels}).outputs[0]


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """A JPEG image as uint8 [height, width, channels]."""
    return _op("DecodeJpeg", contents, channels, name)


def decode_bmp(contents, channels=0, name=None):
    """A BMP image as uint8 [height, width, channels]."""
    return _op("DecodeBmp", contents, channels, name)


def decode_gif(contents, name=None):
    """A GIF's frames as uint8 [frames, height, width, 3]."""
    return _op("DecodeGif", contents, 3, name, rank=4)


# the start-of-frame markers of baseline, extended, progressive and lossless JPEGs (not DHT 0xC4, JPG 0xC8, DAC 0xCC)
_FRAME_MARKERS = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def jpeg_shape(data):
    """[height, width, components] from a JPEG's frame header, read without decoding the image."""
    pos = 2
    while data[:2] == b"\xff\xd8" and pos + 4 <= len(data):
        if data[pos] != 0xFF:
            break
        marker, length = data[pos + 1], int.from_bytes(data[pos + 2:pos + 4], "big")
        if marker in _FRAME_MARKERS and pos + 10 <= len(data):
            height, width = int.from_bytes(data[pos + 5:pos + 7], "big"), int.from_bytes(data[pos + 7:pos + 9], "big")
            return [height, width, data[pos + 9]]
        pos += 2 + length
    raise InvalidArgumentError(f"Invalid JPEG data, size {len(data)}: no frame header found")


def _extract_jpeg_shape(contents, output_type):
    return np.array(jpeg_shape(np.asarray(contents, dtype=object)[()]), dtype=output_type.dtype)


register("ExtractJpegShape", kernel=host_kernel(_extract_jpeg_shape),
         infer=lambda contents, output_type: [((3,), output_type)])


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """A JPEG's [height, width, channels] from its header, without decoding it (no Pillow needed)."""
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"extract_jpeg_shape's output_type must be int32 or int64, got {output_type.name}")
    contents = convert_to_tensor(contents, dtype=dtypes.string)
    return get_default_graph().create_op("ExtractJpegShape", [contents], [((3,), output_type)],
                                         name=name or "ExtractJpegShape", attrs={"output_type": output_type}
                                         ).outputs[0]
