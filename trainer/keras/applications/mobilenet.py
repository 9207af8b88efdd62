"""MobileNet (v1) as Keras 2.2.4-tf builds it: conv1, conv_dw_1 ... conv_pw_13, conv_preds (4,253,864
parameters at alpha 1 with the 1000-class top)."""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/fchollet/deep-learning-models/releases/download/v0.6/"
# (pointwise filters, stride) of the 13 depthwise-separable blocks
BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1), (512, 1),
          (512, 1), (1024, 2), (1024, 1))


def preprocess_input(x, data_format=None, **kwargs):
    """Inception's preprocessing: pixels scaled to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def _separable_block(x, filters, alpha, depth_multiplier, stride, block_id):
    if stride != 1:
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if stride == 1 else "valid", depth_multiplier=depth_multiplier,
                               strides=stride, use_bias=False, name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=-1, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6., name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(int(filters * alpha), (1, 1), padding="same", use_bias=False, name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=-1, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6., name=f"conv_pw_{block_id}_relu")(x)


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True,  # noqa: N802
              weights="imagenet", input_tensor=None, pooling=None, classes=1000, **kwargs):
    """Howard et al.'s MobileNet (2017) of width `alpha`, channels_last."""
    check_weights(weights, include_top, classes)
    if weights == "imagenet" and (depth_multiplier != 1 or alpha not in (0.25, 0.50, 0.75, 1.0)):
        raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1 and alpha can be one of "
                         f"`0.25`, `0.50`, `0.75` or `1.0` only; got {depth_multiplier!r} and {alpha!r}")
    input_shape = input_shape_for(input_shape, 224, 32, include_top, weights)
    rows = input_shape[0] if input_shape[0] == input_shape[1] and input_shape[0] is not None else 224
    img_input = image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((0, 1), (0, 1)), name="conv1_pad")(img_input)
    x = layers.Conv2D(int(32 * alpha), (3, 3), padding="valid", use_bias=False, strides=(2, 2), name="conv1")(x)
    x = layers.BatchNormalization(axis=-1, name="conv1_bn")(x)
    x = layers.ReLU(6., name="conv1_relu")(x)
    for block_id, (filters, stride) in enumerate(BLOCKS, start=1):
        x = _separable_block(x, filters, alpha, depth_multiplier, stride, block_id)

    def top(x):
        x = layers.GlobalAveragePooling2D()(x)
        x = layers.Reshape((1, 1, int(1024 * alpha)), name="reshape_1")(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        return layers.Activation("softmax", name="act_softmax")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top),
                       f"mobilenet_{alpha:0.2f}_{rows}")
    alpha_text = {1.0: "1_0", 0.75: "7_5", 0.50: "5_0", 0.25: "2_5"}.get(alpha, str(alpha))
    fname = f"mobilenet_{alpha_text}_{rows}_tf" + ("" if include_top else "_no_top") + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)
