"""PNG encoding of uint8 images with zlib and struct (what TensorBoard's image tab displays)."""
import struct
import zlib

import numpy as np

_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG colour type: gray, gray+alpha, RGB, RGBA


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image):
    """PNG bytes of a uint8 array of shape (height, width, channels), channels 1 to 4."""
    height, width, channels = image.shape
    if image.dtype != np.uint8 or channels not in _COLOR_TYPES or not height or not width:
        raise ValueError(f"encode_png needs a non-empty uint8 (height, width, 1..4) image, "
                         f"got {image.dtype.name} of shape {image.shape}")
    rows = np.ascontiguousarray(image).reshape(height, width * channels)
    scanlines = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1)  # filter type 0 per row
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPES[channels], 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(scanlines.tobytes()))
            + _chunk(b"IEND", b""))
