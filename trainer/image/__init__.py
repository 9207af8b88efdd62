"""tf.image: the image functions TF1 input pipelines use (flips, crops, resizing, colour, standardization).

Images are NHWC: one image [height, width, channels] or a batch [batch, height, width, channels].
"""
from ..ops.image_decode_ops import decode_bmp, decode_gif, decode_jpeg
from ..unsupported import missing_names
from ..ops.sampling_ops import random_crop
from .color import (adjust_brightness, adjust_contrast, convert_image_dtype, per_image_standardization,
                    random_brightness, random_contrast)
from .crops import (central_crop, crop_to_bounding_box, pad_to_bounding_box, resize_image_with_crop_or_pad,
                    resize_image_with_pad, resize_with_crop_or_pad)
from .geometry import flip_left_right, flip_up_down, random_flip_left_right, random_flip_up_down, rot90, transpose_image
from .resize import (ResizeMethod, resize, resize_area, resize_bicubic, resize_bilinear, resize_images,
                     resize_nearest_neighbor)

from .colorspaces import (adjust_gamma, adjust_hue, adjust_saturation, grayscale_to_rgb, hsv_to_rgb, random_hue,
                          random_saturation, rgb_to_grayscale, rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, yiq_to_rgb,
                          yuv_to_rgb)
from .codecs import decode_image, decode_png, encode_png, is_jpeg
from .boxes import non_max_suppression, non_max_suppression_overlaps, non_max_suppression_with_scores
from .filters import image_gradients, psnr, sobel_edges, ssim, total_variation
from .patches import extract_image_patches, extract_patches

transpose = transpose_image  # TF1 has both names

__all__ = ["decode_bmp", "decode_gif", "decode_jpeg",
           "ResizeMethod", "adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "crop_to_bounding_box", "flip_left_right", "flip_up_down", "pad_to_bounding_box",
           "per_image_standardization", "random_brightness", "random_contrast", "random_crop",
           "random_flip_left_right", "random_flip_up_down", "resize", "resize_area", "resize_bicubic", "resize_bilinear", "resize_image_with_crop_or_pad",
           "resize_images", "resize_nearest_neighbor", "resize_with_crop_or_pad", "rot90", "transpose",
           "transpose_image"]
__all__ += ["adjust_gamma", "adjust_hue", "adjust_saturation", "grayscale_to_rgb", "hsv_to_rgb", "image_gradients",
            "psnr", "random_hue", "random_saturation", "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv",
            "sobel_edges", "total_variation", "yiq_to_rgb", "yuv_to_rgb"]
__all__ += ["extract_image_patches", "extract_patches", "non_max_suppression", "non_max_suppression_overlaps",
            "non_max_suppression_with_scores", "resize_image_with_pad", "ssim"]
__all__ += ["decode_image", "decode_png", "encode_png", "is_jpeg"]

# what tf.image has and ringflow does not: each fails with why and what to use instead
JPEG = ("JPEG encoding and JPEG-specific decoding need a codec ringflow does not ship; it decodes JPEG, GIF and BMP "
        "through Pillow (decode_jpeg, decode_image) and encodes PNG (encode_png)")
MISSING = {**dict.fromkeys(["encode_jpeg", "decode_and_crop_jpeg", "extract_jpeg_shape",
                            "adjust_jpeg_quality", "random_jpeg_quality"], JPEG),
           "crop_and_resize": "crop_and_resize: crop_to_bounding_box, then resize_bilinear",
           "draw_bounding_boxes": "drawing boxes into images",
           "sample_distorted_bounding_box": "sample_distorted_bounding_box: use random_crop"}
__getattr__ = missing_names(__name__, reasons=MISSING)
