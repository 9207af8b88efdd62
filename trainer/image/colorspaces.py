"""Colour spaces: grayscale, HSV, YIQ and YUV conversions, and the hue, saturation and gamma adjustments TF1 builds
on them. The linear ones are a weighted sum with TF1's matrices and HSV is built from elementwise ops, so gradients
flow through them; adjust_hue and adjust_saturation are kernels without a gradient, as TF1's are."""
import numpy as np

from ..framework.registry import host_kernel
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, register
from ..ops.core_ops import convert_to_tensor
from ..ops.cwise_ops import floormod
from ..ops.math_ops import equal, maximum, minimum, where, zeros_like, ones_like
from ..ops.pad_ops import tile
from ..ops.random_ops import random_uniform
from ..ops.reduction_ops import reduce_max, reduce_min, reduce_sum
from ..ops.stack_ops import stack, unstack
from .color import convert_image_dtype

GRAY_WEIGHTS = [0.2989, 0.5870, 0.1140]  # TF1's rgb_to_grayscale (ITU-R 601-2 luma)
# TF1's kernels: out[..., j] = sum over i of in[..., i] * M[i][j]
YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _rgb(images, what, count=3):
    images = convert_to_tensor(images)
    last = images.shape[-1] if images.ndim else None
    if images.ndim == 0 or last is not None and last != count:
        raise ValueError(f"{what} needs {count} channels in the last dim, got {images.name!r} of shape "
                         f"{images.shape}")
    return images


def _mix(images, matrix, what):
    images = _rgb(images, what)
    if images.dtype.kind != "f":
        raise TypeError(f"{what} needs a floating-point image, got {images.name!r} of dtype {images.dtype.name}")
    m = np.array(matrix, dtype=images.dtype)
    return stack([reduce_sum(images * m[:, j], axis=-1) for j in range(3)], axis=-1)


def rgb_to_grayscale(images, name=None):
    """The luma of RGB images, one channel kept: [..., 3] -> [..., 1], in the images' dtype."""
    with name_scope(name or "rgb_to_grayscale"):
        images = _rgb(images, "rgb_to_grayscale")
        flt = convert_image_dtype(images, dtypes.float32)
        gray = reduce_sum(flt * np.array(GRAY_WEIGHTS, np.float32), axis=-1, keepdims=True)
        return convert_image_dtype(gray, images.dtype)


def grayscale_to_rgb(images, name=None):
    """One gray channel repeated into three: [..., 1] -> [..., 3]."""
    with name_scope(name or "grayscale_to_rgb"):
        images = _rgb(images, "grayscale_to_rgb", count=1)
        if images.ndim is None:
            raise NotImplementedError(f"grayscale_to_rgb needs {images.name!r}'s rank known while building")
        return tile(images, [1] * (images.ndim - 1) + [3])


def rgb_to_yiq(images):
    """RGB to YIQ (luma and two chroma channels), for float images."""
    return _mix(images, YIQ, "rgb_to_yiq")


def yiq_to_rgb(images):
    """YIQ back to RGB, for float images."""
    return _mix(images, YIQ_TO_RGB, "yiq_to_rgb")


def rgb_to_yuv(images):
    """RGB to YUV, for float images."""
    return _mix(images, YUV, "rgb_to_yuv")


def yuv_to_rgb(images):
    """YUV back to RGB, for float images."""
    return _mix(images, YUV_TO_RGB, "yuv_to_rgb")


def _float_rgb(images, what):
    images = _rgb(images, what)
    if images.dtype.kind != "f":
        raise TypeError(f"{what} needs a floating-point image, got {images.name!r} of dtype {images.dtype.name}")
    return images


def rgb_to_hsv(images, name=None):
    """RGB to hue, saturation, value, all in [0, 1], for float images."""
    with name_scope(name or "rgb_to_hsv"):
        images = _float_rgb(images, "rgb_to_hsv")
        r, g, b = unstack(images, 3, axis=-1)
        value = reduce_max(images, axis=-1)
        spread = value - reduce_min(images, axis=-1)
        zero = zeros_like(value)
        saturation = where(value > 0, spread / where(value > 0, value, ones_like(value)), zero)
        safe = where(spread > 0, spread, ones_like(spread))
        hue = where(equal(value, r), (g - b) / safe,
                    where(equal(value, g), 2.0 + (b - r) / safe, 4.0 + (r - g) / safe))
        hue = floormod(where(spread > 0, hue, zero) / 6.0, ones_like(hue))
        return stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value back to RGB, for float images."""
    with name_scope(name or "hsv_to_rgb"):
        images = _float_rgb(images, "hsv_to_rgb")
        h, s, v = unstack(images, 3, axis=-1)
        dh = h * 6.0
        channels = []
        for offset in (0.0, 4.0, 2.0):  # TF1's piecewise-linear ramps for red, green and blue
            ramp = minimum(maximum(abs_ramp(dh, offset) - 1.0, zeros_like(dh)), ones_like(dh))
            channels.append(((ramp - 1.0) * s + 1.0) * v)
        return stack(channels, axis=-1)


def abs_ramp(dh, offset):
    shifted = floormod(dh + offset, 6.0 * ones_like(dh)) - 3.0
    return where(shifted < 0, -shifted, shifted)


def _hsv(rgb):
    flat = rgb.reshape(-1, 3).astype(np.float64)
    value = flat.max(-1)
    spread = value - flat.min(-1)
    saturation = np.where(value > 0, spread / np.where(value > 0, value, 1), 0)
    safe = np.where(spread > 0, spread, 1)
    r, g, b = flat.T
    hue = np.where(value == r, (g - b) / safe, np.where(value == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    return np.mod(np.where(spread > 0, hue, 0) / 6.0, 1.0), saturation, value


def _rgb_of(h, s, v, shape, dtype):
    dh = h * 6.0
    out = [((np.clip(np.abs(np.mod(dh + k, 6.0) - 3.0) - 1.0, 0, 1) - 1.0) * s + 1.0) * v for k in (0.0, 4.0, 2.0)]
    return np.stack(out, -1).reshape(shape).astype(dtype)


def _adjust_hue(images, delta):
    h, s, v = _hsv(images)
    return _rgb_of(np.mod(h + float(delta), 1.0), s, v, images.shape, images.dtype)


def _adjust_saturation(images, scale):
    h, s, v = _hsv(images)
    return _rgb_of(h, np.clip(s * float(scale), 0.0, 1.0), v, images.shape, images.dtype)


register("AdjustHue", kernel=host_kernel(_adjust_hue), infer=lambda x, d: [(x.shape, x.dtype)], fresh=True)
register("AdjustSaturation", kernel=host_kernel(_adjust_saturation), infer=lambda x, s: [(x.shape, x.dtype)],
         fresh=True)


def _adjusted(op_type, image, amount, name):
    with name_scope(name or op_type):
        image = _rgb(image, op_type)
        flt = image if image.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(image, dtypes.float32)
        adjusted = apply_op(op_type, [flt, convert_to_tensor(amount, dtype=flt.dtype)])
        return convert_image_dtype(adjusted, image.dtype, saturate=True)


def adjust_hue(image, delta, name=None):
    """The hue of RGB images rotated by `delta` (a fraction of the colour wheel, in [-1, 1])."""
    return _adjusted("AdjustHue", image, delta, name or "adjust_hue")


def adjust_saturation(image, saturation_factor, name=None):
    """The saturation of RGB images multiplied by `saturation_factor` (clipped to [0, 1])."""
    return _adjusted("AdjustSaturation", image, saturation_factor, name or "adjust_saturation")


def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta] each run; max_delta in [0, 0.5]."""
    if not 0 <= max_delta <= 0.5:
        raise ValueError(f"random_hue: max_delta must be in [0, 0.5], got {max_delta!r}")
    return adjust_hue(image, random_uniform([], -max_delta, max_delta, seed=seed))


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn uniformly from [lower, upper] each run."""
    if upper <= lower:
        raise ValueError(f"random_saturation: upper must be > lower, got lower={lower!r}, upper={upper!r}")
    if lower < 0:
        raise ValueError(f"random_saturation: lower must be non-negative, got {lower!r}")
    return adjust_saturation(image, random_uniform([], lower, upper, seed=seed))


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma in the [0, 1] float scale, converted back to the image's dtype (saturating)."""
    with name_scope("adjust_gamma"):
        image = convert_to_tensor(image)
        if isinstance(gamma, (int, float)) and gamma < 0:
            raise ValueError(f"adjust_gamma: gamma should be a non-negative real number, got {gamma!r}")
        flt = image if image.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(image, dtypes.float32)
        adjusted = gain * flt ** gamma
        return convert_image_dtype(adjusted, image.dtype, saturate=True)
