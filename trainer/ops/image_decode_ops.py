"""tf.image.decode_jpeg, decode_png, decode_bmp, decode_gif and decode_image: encoded image bytes as uint8 arrays.

The kernels decode with Pillow, imported when an image is first decoded (it is no dependency of ringflow: a graph
that only builds these ops, or never runs them, needs no Pillow); without it, running one says what to install.
"""
import io

import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import on_host, register
from ..platform.errors import InvalidArgumentError, UnimplementedError
from .core_ops import convert_to_tensor

_MODES = {1: "L", 3: "RGB", 4: "RGBA"}


def _decode(op, session):
    channels, frames = op.attrs["channels"], op.type == "DecodeGif"

    def run(contents):
        try:
            from PIL import Image  # noqa: PLC0415 - optional, as CuPy is: only a run that decodes needs it
        except ImportError:
            raise UnimplementedError(f"{op.type} op {op.name!r} decodes images with Pillow, which is not "
                                     "installed: pip install pillow") from None
        try:
            image = Image.open(io.BytesIO(np.asarray(contents, dtype=object)[()]))
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
            raise InvalidArgumentError(f"{op.type} op {op.name!r}: the contents are not a decodable image "
                                       f"({e})") from None
        return array[..., None] if array.ndim == 2 else array
    return run


for _kind in ("DecodeJpeg", "DecodePng", "DecodeBmp", "DecodeGif", "DecodeImage"):
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


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """A PNG image as uint8 [height, width, channels]."""
    return _op("DecodePng", contents, channels, name)


def decode_bmp(contents, channels=0, name=None):
    """A BMP image as uint8 [height, width, channels]."""
    return _op("DecodeBmp", contents, channels, name)


def decode_gif(contents, name=None):
    """A GIF's frames as uint8 [frames, height, width, 3]."""
    return _op("DecodeGif", contents, 3, name, rank=4)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Any of JPEG, PNG, BMP or GIF, by its contents, as uint8."""
    return _op("DecodeImage", contents, channels, name)
