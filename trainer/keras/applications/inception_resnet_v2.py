"""Inception-ResNet-V2 (Szegedy et al., 2016) as keras_applications builds it: a stem, 10 Inception-ResNet-A
(block35), 20 -B (block17) and 10 -C (block8) blocks between reduction blocks, each residual scaled by a Lambda
layer named after its block (block35_1, ...), as TF 1.15 does; 299x299 inputs by default (75x75 at least); 'tf'
preprocessing."""
from .. import backend as K
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/fchollet/deep-learning-models/releases/download/v0.7/"
# block type: the residual branches, each a list of (filters, kernel size)
BRANCHES = {"block35": [[(32, 1)], [(32, 1), (32, 3)], [(32, 1), (48, 3), (64, 3)]],
            "block17": [[(192, 1)], [(128, 1), (160, (1, 7)), (192, (7, 1))]],
            "block8": [[(192, 1)], [(192, 1), (224, (1, 3)), (256, (3, 1))]]}


def preprocess_input(x, data_format=None, **kwargs):
    """Pixels scaled from [0, 255] to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu", use_bias=False, name=None):
    """A convolution, then (without a bias) batch normalization without scale, then the activation."""
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias, name=name)(x)
    if not use_bias:
        x = layers.BatchNormalization(axis=3, scale=False, name=None if name is None else name + "_bn")(x)
    if activation is not None:
        x = layers.Activation(activation, name=None if name is None else name + "_ac")(x)
    return x


def _scaled_sum(inputs, scale):
    return inputs[0] + inputs[1] * scale


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu"):
    """x + scale * (a 1x1 convolution of the concatenated branches), then the activation."""
    name = f"{block_type}_{block_idx}"
    branches = []
    for branch in BRANCHES[block_type]:
        y = x
        for filters, kernel in branch:
            y = conv2d_bn(y, filters, kernel)
        branches.append(y)
    mixed = layers.Concatenate(axis=3, name=name + "_mixed")(branches)
    up = conv2d_bn(mixed, K.int_shape(x)[3], 1, activation=None, use_bias=True, name=name + "_conv")
    x = layers.Lambda(_scaled_sum, output_shape=K.int_shape(x)[1:], arguments={"scale": scale}, name=name)([x, up])
    return layers.Activation(activation, name=name + "_ac")(x) if activation is not None else x


def _reduction(x, branches, name):
    """Strided branches (each a list of (filters, kernel, strides, padding)) beside a 3x3/2 max pooling."""
    outputs = []
    for branch in branches:
        y = x
        for filters, kernel, strides, padding in branch:
            y = conv2d_bn(y, filters, kernel, strides=strides, padding=padding)
        outputs.append(y)
    outputs.append(layers.MaxPooling2D(3, strides=2, padding="valid")(x))
    return layers.Concatenate(axis=3, name=name)(outputs)


def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
                      pooling=None, classes=1000, **kwargs):
    """Inception-ResNet-V2 with its ImageNet classifier (or pooled features), channels_last."""
    check_weights(weights, include_top, classes)
    img_input = image_input(input_tensor, input_shape_for(input_shape, 299, 75, include_top, weights))
    x = conv2d_bn(img_input, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)
    branches = [conv2d_bn(x, 96, 1), conv2d_bn(conv2d_bn(x, 48, 1), 64, 5),
                conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1), 96, 3), 96, 3),
                conv2d_bn(layers.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1)]
    x = layers.Concatenate(axis=3, name="mixed_5b")(branches)
    for i in range(1, 11):
        x = inception_resnet_block(x, 0.17, "block35", i)
    x = _reduction(x, [[(384, 3, 2, "valid")], [(256, 1, 1, "same"), (256, 3, 1, "same"), (384, 3, 2, "valid")]],
                   "mixed_6a")
    for i in range(1, 21):
        x = inception_resnet_block(x, 0.1, "block17", i)
    x = _reduction(x, [[(256, 1, 1, "same"), (384, 3, 2, "valid")], [(256, 1, 1, "same"), (288, 3, 2, "valid")],
                       [(256, 1, 1, "same"), (288, 3, 1, "same"), (320, 3, 2, "valid")]], "mixed_7a")
    for i in range(1, 10):
        x = inception_resnet_block(x, 0.2, "block8", i)
    x = inception_resnet_block(x, 1.0, "block8", 10, activation=None)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")

    def top(x):
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        return layers.Dense(classes, activation="softmax", name="predictions")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), "inception_resnet_v2")
    fname = "inception_resnet_v2_weights_tf_dim_ordering_tf_kernels" + ("" if include_top else "_notop") + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)
