"""Xception (Chollet, 2017) as keras_applications builds it: depthwise-separable convolutions in an entry flow, eight
middle blocks and an exit flow; layer names block1_conv1, block2_sepconv1, ..., predictions; 299x299 inputs by
default (71x71 at least); 'tf' preprocessing."""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/fchollet/deep-learning-models/releases/download/v0.4/"


def preprocess_input(x, data_format=None, **kwargs):
    """Pixels scaled from [0, 255] to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def _separable(x, filters, name, activate_first=True):
    if activate_first:
        x = layers.Activation("relu", name=name + "_act")(x)
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=3, name=name + "_bn")(x)


def _downsampling(x, filters, block, activate_first=True):
    """Two separable convolutions and a 3x3/2 max pooling, added to a 1x1/2 convolution of the input."""
    residual = layers.Conv2D(filters[1], (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = layers.BatchNormalization(axis=3)(residual)
    x = _separable(x, filters[0], f"block{block}_sepconv1", activate_first)
    x = _separable(x, filters[1], f"block{block}_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
             classes=1000, **kwargs):
    """Xception with its ImageNet classifier (or pooled features), channels_last."""
    check_weights(weights, include_top, classes)
    img_input = image_input(input_tensor, input_shape_for(input_shape, 299, 71, include_top, weights))
    x = img_input
    for name, filters, strides in (("block1_conv1", 32, (2, 2)), ("block1_conv2", 64, (1, 1))):
        x = layers.Conv2D(filters, (3, 3), strides=strides, use_bias=False, name=name)(x)
        x = layers.BatchNormalization(axis=3, name=name + "_bn")(x)
        x = layers.Activation("relu", name=name + "_act")(x)
    x = _downsampling(x, (128, 128), 2, activate_first=False)
    x = _downsampling(x, (256, 256), 3)
    x = _downsampling(x, (728, 728), 4)
    for block in range(5, 13):
        residual = x
        for i in (1, 2, 3):
            x = _separable(x, 728, f"block{block}_sepconv{i}")
        x = layers.add([x, residual])
    x = _downsampling(x, (728, 1024), 13)
    for i, filters in ((1, 1536), (2, 2048)):
        x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=f"block14_sepconv{i}")(x)
        x = layers.BatchNormalization(axis=3, name=f"block14_sepconv{i}_bn")(x)
        x = layers.Activation("relu", name=f"block14_sepconv{i}_act")(x)

    def top(x):
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        return layers.Dense(classes, activation="softmax", name="predictions")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), "xception")
    fname = "xception_weights_tf_dim_ordering_tf_kernels" + ("" if include_top else "_notop") + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)
