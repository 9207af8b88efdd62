"""DenseNet121 as Keras 2.2.4-tf builds it: conv1/conv, conv2_block1_0_bn ... conv5_block16_concat, bn, fc1000
(8,062,504 parameters with the 1000-class top)."""
from .. import backend as K
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/keras-team/keras-applications/releases/download/densenet/"
EPSILON = 1.001e-5  # DenseNet's batch normalization epsilon in Keras


def preprocess_input(x, data_format=None, **kwargs):
    """PyTorch's ImageNet preprocessing: pixels scaled to [0, 1], normalized by ImageNet's means and deviations."""
    return imagenet_preprocess(x, data_format=data_format, mode="torch")


def _conv_block(x, growth_rate, name):
    x1 = layers.BatchNormalization(axis=3, epsilon=EPSILON, name=name + "_0_bn")(x)
    x1 = layers.Activation("relu", name=name + "_0_relu")(x1)
    x1 = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=name + "_1_conv")(x1)
    x1 = layers.BatchNormalization(axis=3, epsilon=EPSILON, name=name + "_1_bn")(x1)
    x1 = layers.Activation("relu", name=name + "_1_relu")(x1)
    x1 = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=name + "_2_conv")(x1)
    return layers.Concatenate(axis=3, name=name + "_concat")([x, x1])


def _transition_block(x, reduction, name):
    x = layers.BatchNormalization(axis=3, epsilon=EPSILON, name=name + "_bn")(x)
    x = layers.Activation("relu", name=name + "_relu")(x)
    x = layers.Conv2D(int(K.int_shape(x)[3] * reduction), 1, use_bias=False, name=name + "_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=name + "_pool")(x)


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None, input_shape=None,  # noqa: N802
             pooling=None, classes=1000, **kwargs):
    """Huang et al.'s densely connected network (2016) with `blocks` conv blocks in its four dense blocks."""
    check_weights(weights, include_top, classes)
    input_shape = input_shape_for(input_shape, 224, 32, include_top, weights)
    img_input = image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1/conv")(x)
    x = layers.BatchNormalization(axis=3, epsilon=EPSILON, name="conv1/bn")(x)
    x = layers.Activation("relu", name="conv1/relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, n in enumerate(blocks, start=2):
        for i in range(1, n + 1):
            x = _conv_block(x, 32, name=f"conv{stage}_block{i}")
        if stage < 5:
            x = _transition_block(x, 0.5, name=f"pool{stage}")
    x = layers.BatchNormalization(axis=3, epsilon=EPSILON, name="bn")(x)
    x = layers.Activation("relu", name="relu")(x)

    def top(x):
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        return layers.Dense(classes, activation="softmax", name="fc1000")(x)
    name = {(6, 12, 24, 16): "densenet121", (6, 12, 32, 32): "densenet169", (6, 12, 48, 32): "densenet201"}.get(
        tuple(blocks), "densenet")
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), name)
    fname = f"{name}_weights_tf_dim_ordering_tf_kernels" + ("" if include_top else "_notop") + ".h5"
    if weights == "imagenet" and name == "densenet":
        raise ValueError(f"ImageNet weights exist for DenseNet121, 169 and 201 only, not blocks={blocks!r}")
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
                classes=1000, **kwargs):
    return DenseNet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling, classes)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
                classes=1000, **kwargs):
    return DenseNet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling, classes)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
                classes=1000, **kwargs):
    return DenseNet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling, classes)
