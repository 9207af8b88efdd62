"""Pixel values: convert_image_dtype (TF1's scaling between integer and float images), brightness, contrast and
per_image_standardization, built from elementwise ops and reductions so gradients flow through them.

TF1's rule, kept here: float images hold values in [0, 1), integer images in [0, dtype max]. The colour
adjustments compute in float32 (float16 and float32 images stay as they are) and convert the result back to
the image's dtype, saturating.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..ops.array_ops import cast
from ..ops.core_ops import convert_to_tensor, identity
from ..ops.cwise_ops import floordiv, rsqrt
from ..ops.math_ops import divide, maximum, minimum, multiply, sqrt, square, subtract
from ..ops.random_ops import random_uniform
from ..ops.reduction_ops import reduce_mean
from ..ops.tensor_util import static_shape
from .geometry import image_tensor

_WORKING = (np.dtype(np.float16), np.dtype(np.float32))  # TF1 adjusts these in place, others through float32


def _limits(dtype):
    return np.iinfo(dtype) if dtype.kind in "iu" else np.finfo(dtype)


def saturate_cast(value, dtype):
    """`value` clipped to the range of `dtype`, then cast (TF1's tf.saturate_cast)."""
    value, dtype = convert_to_tensor(value), dtypes.as_dtype(dtype)
    have, want = _limits(value.dtype), _limits(dtype)
    if have.min < want.min:
        value = maximum(value, np.asarray(want.min).astype(value.dtype))
    if have.max > want.max:
        value = minimum(value, np.asarray(want.max).astype(value.dtype))
    return cast(value, dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """The image in `dtype`, rescaled: floats span [0, 1), integers [0, dtype max] (TF1's rules)."""
    image, dtype = convert_to_tensor(image), dtypes.as_dtype(dtype)
    for d, what in ((image.dtype, "image"), (dtype, "dtype")):
        if d.kind not in "iuf":
            raise AttributeError(f"convert_image_dtype: {what} has dtype {d.name}; images must be integers or floats")
    if image.dtype == dtype:
        return identity(image, name=name or "convert_image")
    with name_scope(name or "convert_image"):
        if image.dtype.kind in "iu" and dtype.kind in "iu":
            scale_in, scale_out = int(np.iinfo(image.dtype).max), int(np.iinfo(dtype).max)
            if scale_in > scale_out:  # narrower: divide first, so in.max lands just below out.max + 1
                scaled = floordiv(image, np.asarray((scale_in + 1) // (scale_out + 1), dtype=image.dtype))
                return saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)
            wide = saturate_cast(image, dtype) if saturate else cast(image, dtype)
            return multiply(wide, np.asarray((scale_out + 1) // (scale_in + 1), dtype=dtype))
        if image.dtype.kind == "f" and dtype.kind == "f":
            return cast(image, dtype)
        if image.dtype.kind in "iu":
            return multiply(cast(image, dtype), np.asarray(1.0 / np.iinfo(image.dtype).max, dtype=dtype))
        # float to integer: the + 0.5 keeps 1.0 - eps from rounding down a whole step in the truncating cast
        scaled = multiply(image, np.asarray(np.iinfo(dtype).max + 0.5, dtype=image.dtype))
        return saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)


def _working(image):
    return image if image.dtype in _WORKING else convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image, delta):
    """The image(s) with `delta` added to every value (in the [0, 1) float scale)."""
    with name_scope("adjust_brightness"):
        image = convert_to_tensor(image)
        flt = _working(image)
        adjusted = flt + cast(convert_to_tensor(delta), flt.dtype)
        return convert_image_dtype(adjusted, image.dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    """Each channel of each image moved away from its mean: (x - mean) * contrast_factor + mean."""
    with name_scope("adjust_contrast"):
        images = image_tensor(images, "adjust_contrast", ranks=range(3, 64))
        flt = _working(images)
        factor = cast(convert_to_tensor(contrast_factor), flt.dtype)
        mean = reduce_mean(flt, axis=[-3, -2], keepdims=True)
        adjusted = (flt - mean) * factor + mean
        return convert_image_dtype(adjusted, images.dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by a delta drawn uniformly from [-max_delta, max_delta) each run."""
    if max_delta < 0:
        raise ValueError(f"random_brightness: max_delta must be non-negative, got {max_delta!r}")
    delta = random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by a factor drawn uniformly from [lower, upper) each run."""
    if upper <= lower:
        raise ValueError(f"random_contrast: upper must be > lower, got lower={lower!r}, upper={upper!r}")
    if lower < 0:
        raise ValueError(f"random_contrast: lower must be non-negative, got {lower!r}")
    factor = random_uniform([], lower, upper, seed=seed)
    return adjust_contrast(image, factor)


def per_image_standardization(image):
    """Each image scaled to mean 0 and variance 1: (x - mean) / max(stddev, 1 / sqrt(pixels * channels))."""
    with name_scope("per_image_standardization"):
        image = image_tensor(image, "per_image_standardization", ranks=range(3, 64))
        if image.ndim is None or None in static_shape(image)[-3:]:
            raise NotImplementedError(f"per_image_standardization needs the last 3 dimensions of {image.name!r} "
                                      f"(shape {image.shape}) known while building in ringflow")
        orig = image.dtype
        image = _working(image)
        count = int(np.prod(static_shape(image)[-3:]))
        mean = reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        centered = subtract(image, mean)
        stddev = sqrt(reduce_mean(square(centered), axis=[-1, -2, -3], keepdims=True))
        floor = rsqrt(convert_to_tensor(np.asarray(count, dtype=image.dtype)))
        result = divide(centered, maximum(stddev, floor))
        # TF1 1.15 converts back to an integer image's dtype (saturating); cast to float first to keep floats.
        return convert_image_dtype(result, orig, saturate=True)
