"""Cropping and zero-padding images to a box: crop_to_bounding_box, pad_to_bounding_box, resize_with_crop_or_pad,
central_crop. Built from StridedSlice and Pad, whose gradients put the values back where they came from.

The box must be known while building (Python ints, or constants), and so must the image's height and width:
that is how the CIFAR-10 and MNIST input pipelines use them.
"""
import math

from ..framework.graph_wrappers import name_scope
from ..ops.slice_ops import strided_slice
from ..ops.pad_ops import pad
from ..ops.tensor_util import static_ints, static_shape
from .geometry import image_tensor, is_batch
from .resize import ResizeMethod, resize_images


def _int(value, what):
    ints = static_ints(value, what)
    if len(ints) != 1:
        raise ValueError(f"{what} must be a single integer, got {value!r}")
    return ints[0]


def height_width(image, what):
    """The static (height, width) of a rank-3 or rank-4 image; NotImplementedError when they are unknown."""
    if image.ndim is None:
        raise NotImplementedError(f"{what} needs {image.name!r} to have a known rank (3 or 4) in ringflow")
    h, w = static_shape(image)[-3:-1]
    if h is None or w is None:
        raise NotImplementedError(f"{what} needs the height and width of {image.name!r} (shape {image.shape}) "
                                  "known while building in ringflow; give the placeholder a full image shape")
    return int(h), int(w)


def _box(image, key):
    return strided_slice(image, ((slice(None),) if is_batch(image) else ()) + key)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The target_height x target_width part of the image(s) whose top-left corner is at the offsets."""
    with name_scope("crop_to_bounding_box"):
        image = image_tensor(image, "crop_to_bounding_box")
        height, width = height_width(image, "crop_to_bounding_box")
        oh, ow = _int(offset_height, "offset_height"), _int(offset_width, "offset_width")
        th, tw = _int(target_height, "target_height"), _int(target_width, "target_width")
        for what, v, low in (("offset_width", ow, 0), ("offset_height", oh, 0), ("target_width", tw, 1),
                             ("target_height", th, 1)):
            if v < low:
                raise ValueError(f"crop_to_bounding_box: {what} must be {'>= 0' if low == 0 else '> 0'}, got {v}")
        if width < tw + ow or height < th + oh:
            raise ValueError(f"crop_to_bounding_box: the box (offset {oh}, {ow}, size {th} x {tw}) does not fit in "
                             f"{image.name!r} of height {height} and width {width}: need height >= target + "
                             "offset and width >= target + offset")
        return _box(image, (slice(oh, oh + th), slice(ow, ow + tw)))


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The image(s) placed at the offsets in a zero target_height x target_width canvas."""
    with name_scope("pad_to_bounding_box"):
        image = image_tensor(image, "pad_to_bounding_box")
        height, width = height_width(image, "pad_to_bounding_box")
        oh, ow = _int(offset_height, "offset_height"), _int(offset_width, "offset_width")
        th, tw = _int(target_height, "target_height"), _int(target_width, "target_width")
        after_h, after_w = th - oh - height, tw - ow - width
        for what, v in (("offset_height", oh), ("offset_width", ow)):
            if v < 0:
                raise ValueError(f"pad_to_bounding_box: {what} must be >= 0, got {v}")
        if after_w < 0 or after_h < 0:
            raise ValueError(f"pad_to_bounding_box: {image.name!r} of height {height} and width {width} at offset "
                             f"({oh}, {ow}) does not fit in {th} x {tw}: need height, width <= target - offset")
        paddings = [[oh, after_h], [ow, after_w], [0, 0]]
        return pad(image, ([[0, 0]] if is_batch(image) else []) + paddings)


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """The image(s) centrally cropped and/or zero-padded to target_height x target_width."""
    with name_scope("resize_image_with_crop_or_pad"):
        image = image_tensor(image, "resize_image_with_crop_or_pad")
        th, tw = _int(target_height, "target_height"), _int(target_width, "target_width")
        for what, v in (("target_width", tw), ("target_height", th)):
            if v <= 0:
                raise ValueError(f"resize_image_with_crop_or_pad: {what} must be > 0, got {v}")
        height, width = height_width(image, "resize_image_with_crop_or_pad")
        # An odd difference puts the extra row/column at the bottom/right, as TF1's floor division does.
        dh, dw = th - height, tw - width
        cropped = crop_to_bounding_box(image, max(-dh // 2, 0), max(-dw // 2, 0), min(th, height), min(tw, width))
        return pad_to_bounding_box(cropped, max(dh // 2, 0), max(dw // 2, 0), th, tw)


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def central_crop(image, central_fraction):
    """The central `central_fraction` (in (0, 1]) of the image(s) along height and width."""
    with name_scope("central_crop"):
        image = image_tensor(image, "central_crop")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"central_crop: central_fraction must be within (0, 1], got {central_fraction!r}")
        if central_fraction == 1.0:
            return image
        height, width = height_width(image, "central_crop")
        top = int((float(height) - float(height) * central_fraction) / 2)  # TF1's rounding, in float64
        left = int((float(width) - float(width) * central_fraction) / 2)
        return _box(image, (slice(top, height - top), slice(left, width - left)))


def resize_image_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR, align_corners=False):
    """The image resized to fit target_height x target_width keeping its aspect ratio, then zero-padded (centred)
    to exactly that size."""
    with name_scope("resize_image_with_pad"):
        image = image_tensor(image, "resize_image_with_pad")
        height, width = height_width(image, "resize_image_with_pad")
        target_height = _int(target_height, "resize_image_with_pad: target_height")
        target_width = _int(target_width, "resize_image_with_pad: target_width")
        if target_height <= 0 or target_width <= 0:
            raise ValueError(f"resize_image_with_pad: target size must be positive, got {target_height}x"
                             f"{target_width}")
        ratio = max(width / target_width, height / target_height)
        new_height, new_width = height / ratio, width / ratio
        resized = resize_images(image, [int(math.floor(new_height)), int(math.floor(new_width))], method=method,
                                align_corners=align_corners)
        top = max(0, int(math.floor((target_height - new_height) / 2)))
        left = max(0, int(math.floor((target_width - new_width) / 2)))
        return pad_to_bounding_box(resized, top, left, target_height, target_width)
