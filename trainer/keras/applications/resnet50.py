"""ResNet50 as Keras 2.2.4-tf builds it (keras_applications.resnet50): layer names conv1, bn_conv1,
res2a_branch2a, ..., fc1000, 25,636,712 parameters with the 1000-class top."""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/fchollet/deep-learning-models/releases/download/v0.2/"


def preprocess_input(x, data_format=None, **kwargs):
    """ImageNet's caffe preprocessing: BGR, the ImageNet means subtracted."""
    return imagenet_preprocess(x, data_format=data_format, mode="caffe")


def _block(x, kernel_size, filters, stage, block, strides=None):
    """A bottleneck: 1x1, kernel_size, 1x1 convolutions and the shortcut (a 1x1 convolution when `strides`)."""
    conv, bn = f"res{stage}{block}_branch", f"bn{stage}{block}_branch"
    shortcut = x
    for i, (part, n) in enumerate(zip("abc", filters)):
        first = part == "a" and strides is not None
        x = layers.Conv2D(n, kernel_size if part == "b" else (1, 1), strides=strides if first else (1, 1),
                          padding="same" if part == "b" else "valid", kernel_initializer="he_normal",
                          name=f"{conv}2{part}")(x)
        x = layers.BatchNormalization(axis=3, name=f"{bn}2{part}")(x)
        if part != "c":
            x = layers.Activation("relu")(x)
    if strides is not None:
        shortcut = layers.Conv2D(filters[2], (1, 1), strides=strides, kernel_initializer="he_normal",
                                 name=f"{conv}1")(shortcut)
        shortcut = layers.BatchNormalization(axis=3, name=f"{bn}1")(shortcut)
    x = layers.add([x, shortcut])
    return layers.Activation("relu")(x)


def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
             classes=1000, **kwargs):
    """The 50-layer residual network of He et al. (2015), channels_last."""
    check_weights(weights, include_top, classes)
    input_shape = input_shape_for(input_shape, 224, 32, include_top, weights)
    img_input = image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=(3, 3), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, (7, 7), strides=(2, 2), padding="valid", kernel_initializer="he_normal", name="conv1")(x)
    x = layers.BatchNormalization(axis=3, name="bn_conv1")(x)
    x = layers.Activation("relu")(x)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    for stage, filters, blocks in ((2, 64, "abc"), (3, 128, "abcd"), (4, 256, "abcdef"), (5, 512, "abc")):
        for block in blocks:
            strides = ((1, 1) if stage == 2 else (2, 2)) if block == "a" else None
            x = _block(x, 3, [filters, filters, filters * 4], stage, block, strides)

    def top(x):
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        return layers.Dense(classes, activation="softmax", name="fc1000")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), "resnet50")
    fname = "resnet50_weights_tf_dim_ordering_tf_kernels" + ("" if include_top else "_notop") + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)
