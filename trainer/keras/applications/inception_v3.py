"""InceptionV3 as Keras 2.2.4-tf builds it: conv2d_* / batch_normalization_* layers, mixed0 ... mixed10,
predictions (23,851,784 parameters with the 1000-class top)."""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/fchollet/deep-learning-models/releases/download/v0.5/"


def preprocess_input(x, data_format=None, **kwargs):
    """Inception's preprocessing: pixels scaled to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    """A bias-free convolution, batch normalization without scale, then relu."""
    bn_name, conv_name = (None, None) if name is None else (name + "_bn", name + "_conv")
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
                      name=conv_name)(x)
    x = layers.BatchNormalization(axis=3, scale=False, name=bn_name)(x)
    return layers.Activation("relu", name=name)(x)


def _avg_branch(x, filters):
    return conv2d_bn(layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x), filters, 1, 1)


def _mixed_35(x, pool_filters, name):
    b1 = conv2d_bn(x, 64, 1, 1)
    b5 = conv2d_bn(conv2d_bn(x, 48, 1, 1), 64, 5, 5)
    b3 = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    return layers.concatenate([b1, b5, b3, _avg_branch(x, pool_filters)], axis=3, name=name)


def _mixed_17(x, width, name):
    b1 = conv2d_bn(x, 192, 1, 1)
    b7 = conv2d_bn(conv2d_bn(conv2d_bn(x, width, 1, 1), width, 1, 7), 192, 7, 1)
    d7 = conv2d_bn(x, width, 1, 1)
    for filters, (rows, cols) in ((width, (7, 1)), (width, (1, 7)), (width, (7, 1)), (192, (1, 7))):
        d7 = conv2d_bn(d7, filters, rows, cols)
    return layers.concatenate([b1, b7, d7, _avg_branch(x, 192)], axis=3, name=name)


def _mixed_8(x, i):
    b1 = conv2d_bn(x, 320, 1, 1)
    b3 = conv2d_bn(x, 384, 1, 1)
    b3 = layers.concatenate([conv2d_bn(b3, 384, 1, 3), conv2d_bn(b3, 384, 3, 1)], axis=3, name=f"mixed9_{i}")
    d3 = conv2d_bn(conv2d_bn(x, 448, 1, 1), 384, 3, 3)
    d3 = layers.concatenate([conv2d_bn(d3, 384, 1, 3), conv2d_bn(d3, 384, 3, 1)], axis=3)
    return layers.concatenate([b1, b3, d3, _avg_branch(x, 192)], axis=3, name=f"mixed{9 + i}")


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
                classes=1000, **kwargs):
    """Szegedy et al.'s Inception v3 (2015), channels_last."""
    check_weights(weights, include_top, classes)
    input_shape = input_shape_for(input_shape, 299, 75, include_top, weights)
    img_input = image_input(input_tensor, input_shape)
    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _mixed_35(x, pool_filters, f"mixed{i}")
    b3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    d3 = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3, strides=(2, 2), padding="valid")
    x = layers.concatenate([b3, d3, layers.MaxPooling2D((3, 3), strides=(2, 2))(x)], axis=3, name="mixed3")
    for i, width in enumerate((128, 160, 160, 192)):
        x = _mixed_17(x, width, f"mixed{4 + i}")
    b3 = conv2d_bn(conv2d_bn(x, 192, 1, 1), 320, 3, 3, strides=(2, 2), padding="valid")
    b7 = conv2d_bn(conv2d_bn(conv2d_bn(x, 192, 1, 1), 192, 1, 7), 192, 7, 1)
    b7 = conv2d_bn(b7, 192, 3, 3, strides=(2, 2), padding="valid")
    x = layers.concatenate([b3, b7, layers.MaxPooling2D((3, 3), strides=(2, 2))(x)], axis=3, name="mixed8")
    for i in range(2):
        x = _mixed_8(x, i)

    def top(x):
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        return layers.Dense(classes, activation="softmax", name="predictions")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), "inception_v3")
    fname = "inception_v3_weights_tf_dim_ordering_tf_kernels" + ("" if include_top else "_notop") + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)
