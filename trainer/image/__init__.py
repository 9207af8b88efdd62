"""tf.image: the image functions TF1 input pipelines use (flips, crops, resizing, colour, standardization).

Images are NHWC: one image [height, width, channels] or a batch [batch, height, width, channels].
"""
from ..ops.image_decode_ops import decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png
from ..ops.sampling_ops import random_crop
from .color import (adjust_brightness, adjust_contrast, convert_image_dtype, per_image_standardization,
                    random_brightness, random_contrast)
from .crops import (central_crop, crop_to_bounding_box, pad_to_bounding_box, resize_image_with_crop_or_pad,
                    resize_with_crop_or_pad)
from .geometry import flip_left_right, flip_up_down, random_flip_left_right, random_flip_up_down, rot90, transpose_image
from .resize import ResizeMethod, resize, resize_bilinear, resize_images, resize_nearest_neighbor

transpose = transpose_image  # TF1 has both names

__all__ = ["decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png",
           "ResizeMethod", "adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "crop_to_bounding_box", "flip_left_right", "flip_up_down", "pad_to_bounding_box",
           "per_image_standardization", "random_brightness", "random_contrast", "random_crop",
           "random_flip_left_right", "random_flip_up_down", "resize", "resize_bilinear", "resize_image_with_crop_or_pad",
           "resize_images", "resize_nearest_neighbor", "resize_with_crop_or_pad", "rot90", "transpose",
           "transpose_image"]
