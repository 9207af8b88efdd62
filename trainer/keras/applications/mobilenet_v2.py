"""MobileNetV2 as Keras 2.2.4-tf builds it: Conv1, expanded_conv_*, block_1_* ... block_16_*, Conv_1, Logits
(3,538,984 parameters at alpha 1 with the 1000-class top)."""
from .. import backend as K
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/JonathanCMitchell/mobilenet_v2_keras/releases/download/v1.1/"
# (filters, stride, expansion) of the 17 inverted residual blocks
BLOCKS = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6), (64, 1, 6), (64, 1, 6),
          (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6), (160, 1, 6), (160, 1, 6), (320, 1, 6))
BN = dict(axis=-1, epsilon=1e-3, momentum=0.999)


def preprocess_input(x, data_format=None, **kwargs):
    """Inception's preprocessing: pixels scaled to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def make_divisible(v, divisor, min_value=None):
    """v rounded to a multiple of divisor, never below min_value (divisor) nor 10% below v."""
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def correct_pad(inputs, kernel_size):
    """The zero padding a stride-2 'valid' convolution needs to match TF's 'same' on this input."""
    size = K.int_shape(inputs)[1:3]
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = kernel_size // 2
    return ((half - adjust[0], half), (half - adjust[1], half))


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    in_channels = K.int_shape(inputs)[-1]
    pointwise_filters = make_divisible(int(filters * alpha), 8)
    x, prefix = inputs, f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False,
                          name=prefix + "expand")(x)
        x = layers.BatchNormalization(name=prefix + "expand_BN", **BN)(x)
        x = layers.ReLU(6., name=prefix + "expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=correct_pad(x, 3), name=prefix + "pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, use_bias=False,
                               padding="same" if stride == 1 else "valid", name=prefix + "depthwise")(x)
    x = layers.BatchNormalization(name=prefix + "depthwise_BN", **BN)(x)
    x = layers.ReLU(6., name=prefix + "depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False, name=prefix + "project")(x)
    x = layers.BatchNormalization(name=prefix + "project_BN", **BN)(x)
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=prefix + "add")([inputs, x])
    return x


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                pooling=None, classes=1000, **kwargs):
    """Sandler et al.'s MobileNetV2 (2018) of width `alpha`, channels_last."""
    check_weights(weights, include_top, classes)
    if weights == "imagenet" and alpha not in (0.35, 0.50, 0.75, 1.0, 1.3, 1.4):
        raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.35`, `0.50`, `0.75`, "
                         f"`1.0`, `1.3` or `1.4` only; got {alpha!r}")
    input_shape = input_shape_for(input_shape, 224, 32, include_top, weights)
    rows = input_shape[0] if input_shape[0] == input_shape[1] and input_shape[0] is not None else 224
    img_input = image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=correct_pad(img_input, 3), name="Conv1_pad")(img_input)
    x = layers.Conv2D(make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="valid",
                      use_bias=False, name="Conv1")(x)
    x = layers.BatchNormalization(name="bn_Conv1", **BN)(x)
    x = layers.ReLU(6., name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(BLOCKS):
        x = _inverted_res_block(x, filters=filters, alpha=alpha, stride=stride, expansion=expansion,
                                block_id=block_id)
    x = layers.Conv2D(make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280, kernel_size=1, use_bias=False,
                      name="Conv_1")(x)
    x = layers.BatchNormalization(name="Conv_1_bn", **BN)(x)
    x = layers.ReLU(6., name="out_relu")(x)

    def top(x):
        x = layers.GlobalAveragePooling2D()(x)
        return layers.Dense(classes, activation="softmax", use_bias=True, name="Logits")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top),
                       f"mobilenetv2_{alpha:0.2f}_{rows}")
    fname = f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{alpha}_{rows}" + ("" if include_top else "_no_top") \
        + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)
