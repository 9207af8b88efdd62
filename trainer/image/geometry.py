"""Flips, transposes and quarter turns of images, built from ReverseV2 and Transpose so gradients come for free.

Every function takes one image [height, width, channels] or a batch [batch, height, width, channels], as TF1's
do; an image of unknown rank is treated as a single image, as TF1 treats it.
"""
import numpy as np

from ..framework.graph_wrappers import name_scope
from ..ops.array_ops import shape, transpose as _transpose
from ..ops.slice_ops import strided_slice
from ..ops.core_ops import convert_to_tensor
from ..ops.math_ops import greater, less, where
from ..ops.random_ops import random_uniform
from ..ops.reverse_ops import reverse
from ..ops.tensor_util import constant_value, static_ints, static_shape


def image_tensor(image, what, ranks=(3, 4)):
    """`image` as a Tensor of a rank in `ranks` (None, an unknown rank, passes as a single image)."""
    image = convert_to_tensor(image)
    if image.ndim is not None and image.ndim not in ranks:
        raise ValueError(f"{what}: 'image' must have either 3 or 4 dimensions ([height, width, channels] or "
                         f"[batch, height, width, channels]), got {image.name!r} of shape {image.shape}")
    return image


def is_batch(image):
    return image.ndim == 4


def _flip(image, axis, what):
    with name_scope(what):
        image = image_tensor(image, what)
        return reverse(image, [axis + is_batch(image)])


def flip_left_right(image):
    """The image(s) mirrored along the width dimension."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    """The image(s) turned upside down (reversed along the height dimension)."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, axis, seed, what):
    # TF1 draws one uniform number per image. A single image flips when it is < 0.5; a batch's images flip
    # when theirs rounds to 1 (> 0.5). `where` picks instead of TF1's flips * flipped + (1 - flips) * image,
    # which gives the same values (and gradients) without turning an inf pixel into nan.
    with name_scope(what):
        image = image_tensor(image, what)
        if not is_batch(image):
            flip = less(random_uniform([], 0, 1.0, seed=seed), 0.5)
            return where(flip, reverse(image, [axis]), image)
        n = static_shape(image)[0]
        count = [n] if n is not None else strided_slice(shape(image), slice(0, 1))
        flips = greater(random_uniform(count, 0, 1.0, seed=seed), 0.5)
        flips = strided_slice(flips, (slice(None), None, None, None))  # [batch, 1, 1, 1]: one draw per image
        return where(flips, reverse(image, [axis + 1]), image)


def random_flip_left_right(image, seed=None):
    """Each image mirrored left to right with probability 1/2 (a new draw per image and per run)."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """Each image turned upside down with probability 1/2 (a new draw per image and per run)."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def transpose_image(image, name=None):
    """The image(s) with height and width swapped."""
    image = image_tensor(image, "transpose_image")
    perm = [0, 2, 1, 3] if is_batch(image) else [1, 0, 2]
    return _transpose(image, perm, name=name or "transpose")


def rot90(image, k=1, name=None):
    """The image(s) rotated counter-clockwise by k quarter turns (k known while building)."""
    with name_scope(name or "rot90"):
        image = image_tensor(image, "rot90")
        if image.ndim is None:
            raise NotImplementedError(f"rot90 needs {image.name!r} to have a known rank (3 or 4)")
        ks = static_ints(k, "rot90: k")  # TF1 also takes a k computed while the graph runs; ringflow does not
        if np.ndim(constant_value(k)) != 0:
            raise ValueError(f"rot90: k must be a scalar integer, got {k!r}")
        k = ks[0]
        h, w = (1, 2) if is_batch(image) else (0, 1)
        perm = [0, 2, 1, 3] if is_batch(image) else [1, 0, 2]
        k %= 4
        if k == 1:
            return _transpose(reverse(image, [w]), perm)
        if k == 2:
            return reverse(image, [h, w])
        if k == 3:
            return reverse(_transpose(image, perm), [w])
        return image
