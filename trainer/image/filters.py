"""Differences between neighbouring pixels (image_gradients, sobel_edges, total_variation) and the similarity of two
images (psnr, ssim); all built from slices, convolutions and elementwise ops, so their gradients are TF1's."""
import math

import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..ops.array_ops import cast, concat
from ..ops.core_ops import convert_to_tensor
from ..ops.cwise_ops import squared_difference
from ..ops.depthwise_conv_ops import depthwise_conv2d
from ..ops.math_ops import abs as abs_, log, square, zeros_like
from ..ops.tensor_util import static_shape
from ..platform.errors import InvalidArgumentError
from ..ops.pad_ops import pad
from ..ops.reduction_ops import reduce_mean, reduce_sum
from ..ops.stack_ops import stack
from .color import convert_image_dtype
from .geometry import image_tensor

SOBEL_Y = [[-1, -2, -1], [0, 0, 0], [1, 2, 1]]  # the vertical derivative; its transpose is the horizontal one


def image_gradients(image):
    """(dy, dx): each pixel's difference to the one below and to the right, 0 in the last row and column."""
    image = image_tensor(image, "image_gradients", ranks=(4,))
    if image.ndim != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}")
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = concat([dy, zeros_like(image[:, :1, :, :])], 1)
    dx = concat([dx, zeros_like(image[:, :, :1, :])], 2)
    return dy, dx


def sobel_edges(image):
    """The Sobel filters' responses, [batch, h, w, d, 2]: dy then dx, over a reflected border."""
    with name_scope("sobel_edges"):
        image = image_tensor(image, "sobel_edges", ranks=(4,))
        if image.dtype.kind != "f":
            raise TypeError(f"sobel_edges needs a floating-point image, got {image.name!r} of dtype "
                            f"{image.dtype.name}")
        padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
        shape = image.shape
        h, w = shape[1], shape[2]
        if h is None or w is None:
            raise NotImplementedError(f"sobel_edges needs {image.name!r}'s height and width known while building")
        outputs = []
        for kernel in (np.array(SOBEL_Y), np.array(SOBEL_Y).T):
            total = None
            for i in range(3):
                for j in range(3):
                    if kernel[i, j]:
                        term = padded[:, i:i + h, j:j + w, :] * float(kernel[i, j])
                        total = term if total is None else total + term
            outputs.append(total)
        return stack(outputs, axis=-1)


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels, per image (a scalar for one image)."""
    with name_scope(name or "total_variation"):
        images = image_tensor(images, "total_variation")
        if images.ndim == 3:
            dif1, dif2, axes = images[1:, :, :] - images[:-1, :, :], images[:, 1:, :] - images[:, :-1, :], None
        else:
            dif1, dif2 = images[:, 1:, :, :] - images[:, :-1, :, :], images[:, :, 1:, :] - images[:, :, :-1, :]
            axes = [1, 2, 3]
        return reduce_sum(abs_(dif1), axis=axes) + reduce_sum(abs_(dif2), axis=axes)


def psnr(a, b, max_val, name=None):
    """The peak signal-to-noise ratio between images a and b in dB, over their last three dims (float32)."""
    with name_scope(name or "PSNR"):
        a, b = convert_to_tensor(a), convert_to_tensor(b)
        if a.dtype != b.dtype:
            raise TypeError(f"psnr needs images of one dtype, got {a.dtype.name} and {b.dtype.name}")
        max_val = convert_image_dtype(cast(convert_to_tensor(max_val), a.dtype), dtypes.float32)  # TF1's scaling
        a, b = convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32)
        mse = reduce_mean(squared_difference(a, b), axis=[-3, -2, -1])
        return (20.0 * log(max_val) - 10.0 * log(mse)) / np.float32(math.log(10.0))


def _gaussian(size, sigma, channels):
    """TF1's _fspecial_gauss as a depthwise filter [size, size, channels, 1]: a normalized 2-D Gaussian."""
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / np.float32(2.0)
    g = np.square(coords) * np.float32(-0.5 / np.float32(sigma) ** 2)
    g = (g[None, :] + g[:, None]).reshape(-1)
    g = np.exp(g - g.max())
    g = (g / g.sum()).reshape(size, size, 1, 1).astype(np.float32)
    return np.tile(g, (1, 1, channels, 1))


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
    """The structural similarity of two (batches of) images, averaged over pixels and channels, with TF1's
    Gaussian window (filter_size, filter_sigma) and constants k1, k2."""
    with name_scope("SSIM"):
        img1, img2 = convert_to_tensor(img1), convert_to_tensor(img2)
        if img1.dtype != img2.dtype:
            raise TypeError(f"ssim needs images of one dtype, got {img1.dtype.name} and {img2.dtype.name}")
        s = static_shape(img1)
        if s is None or len(s) not in (3, 4) or None in s[-3:]:
            raise NotImplementedError(f"ssim needs 3-D or 4-D images with height, width and channels known while "
                                      f"building, got {img1.name!r} of shape {img1.shape}")
        if s[-3] < filter_size or s[-2] < filter_size:
            raise InvalidArgumentError(f"ssim: the images ({s[-3]}x{s[-2]}) are smaller than the filter "
                                       f"({filter_size})")
        max_val = convert_image_dtype(cast(convert_to_tensor(max_val), img1.dtype), dtypes.float32)
        x, y = convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32)
        if len(s) == 3:
            x, y = x[None], y[None]
        kernel = _gaussian(filter_size, filter_sigma, s[-1])

        def reducer(t):
            return depthwise_conv2d(t, kernel, [1, 1, 1, 1], "VALID")

        c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
        mean0, mean1 = reducer(x), reducer(y)
        num0 = mean0 * mean1 * 2.0
        den0 = square(mean0) + square(mean1)
        luminance = (num0 + c1) / (den0 + c1)
        cs = (reducer(x * y) * 2.0 - num0 + c2) / (reducer(square(x) + square(y)) - den0 + c2)
        per_channel = reduce_mean(luminance * cs, axis=[-3, -2])
        result = reduce_mean(per_channel, axis=[-1])
        return result[0] if len(s) == 3 else result
