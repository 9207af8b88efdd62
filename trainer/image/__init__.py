"""tf.image: the image functions TF1 input pipelines use (flips, crops, resizing, colour, standardization).

Images are NHWC: one image [height, width, channels] or a batch [batch, height, width, channels].
"""
from ..ops.sampling_ops import random_crop
from .color import (adjust_brightness, adjust_contrast, convert_image_dtype, per_image_standardization,
                    random_brightness, random_contrast)
from .crops import (central_crop, crop_to_bounding_box, pad_to_bounding_box, resize_image_with_crop_or_pad,
                    resize_image_with_pad, resize_with_crop_or_pad)
from .geometry import flip_left_right, flip_up_down, random_flip_left_right, random_flip_up_down, rot90, transpose_image
from .resize import ResizeMethod, resize, resize_bilinear, resize_images, resize_nearest_neighbor

from .colorspaces import (adjust_gamma, adjust_hue, adjust_saturation, grayscale_to_rgb, hsv_to_rgb, random_hue,
                          random_saturation, rgb_to_grayscale, rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, yiq_to_rgb,
                          yuv_to_rgb)
from .boxes import non_max_suppression, non_max_suppression_overlaps, non_max_suppression_with_scores
from .filters import image_gradients, psnr, sobel_edges, ssim, total_variation
from .patches import extract_image_patches, extract_patches

transpose = transpose_image  # TF1 has both names

__all__ = ["ResizeMethod", "adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "crop_to_bounding_box", "flip_left_right", "flip_up_down", "pad_to_bounding_box",
           "per_image_standardization", "random_brightness", "random_contrast", "random_crop",
           "random_flip_left_right", "random_flip_up_down", "resize", "resize_bilinear", "resize_image_with_crop_or_pad",
           "resize_images", "resize_nearest_neighbor", "resize_with_crop_or_pad", "rot90", "transpose",
           "transpose_image"]
__all__ += ["adjust_gamma", "adjust_hue", "adjust_saturation", "grayscale_to_rgb", "hsv_to_rgb", "image_gradients",
            "psnr", "random_hue", "random_saturation", "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv",
            "sobel_edges", "total_variation", "yiq_to_rgb", "yuv_to_rgb"]
__all__ += ["extract_image_patches", "extract_patches", "non_max_suppression", "non_max_suppression_overlaps",
            "non_max_suppression_with_scores", "resize_image_with_pad", "ssim"]
