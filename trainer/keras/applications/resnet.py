"""ResNet50/101/152 as keras_applications' resnet_common builds them (TF 1.15's tf.keras.applications.resnet):
layer names conv1_conv, conv2_block1_1_conv, ..., predictions; ResNet(stack_fn, preact, use_bias) serves the V2
models of resnet_v2.py too. (applications.ResNet50 itself is resnet50.py's, with Keras 2.2.4-tf's older names.)"""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
EPSILON = 1.001e-5  # resnet_common's batch-normalization epsilon


def preprocess_input(x, data_format=None, **kwargs):
    """ImageNet's caffe preprocessing: BGR, the ImageNet means subtracted."""
    return imagenet_preprocess(x, data_format=data_format, mode="caffe")


def bn(x, name):
    return layers.BatchNormalization(axis=3, epsilon=EPSILON, name=name)(x)


def relu(x, name):
    return layers.Activation("relu", name=name)(x)


def block1(x, filters, stride=1, conv_shortcut=True, name=None):
    """A post-activation bottleneck: 1x1 (strided), 3x3, 1x1 (4 * filters), added to the (projected) input."""
    shortcut = bn(layers.Conv2D(4 * filters, 1, strides=stride, name=name + "_0_conv")(x), name + "_0_bn") \
        if conv_shortcut else x
    x = relu(bn(layers.Conv2D(filters, 1, strides=stride, name=name + "_1_conv")(x), name + "_1_bn"), name + "_1_relu")
    x = layers.Conv2D(filters, 3, padding="same", name=name + "_2_conv")(x)
    x = relu(bn(x, name + "_2_bn"), name + "_2_relu")
    x = bn(layers.Conv2D(4 * filters, 1, name=name + "_3_conv")(x), name + "_3_bn")
    return relu(layers.Add(name=name + "_add")([shortcut, x]), name + "_out")


def stack1(x, filters, blocks, stride1=2, name=None):
    x = block1(x, filters, stride=stride1, name=name + "_block1")
    for i in range(2, blocks + 1):
        x = block1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def ResNet(stack_fn, preact, use_bias, model_name="resnet", include_top=True, weights="imagenet",  # noqa: N802
           input_tensor=None, input_shape=None, pooling=None, classes=1000, **kwargs):
    """The stem (7x7/2 convolution, 3x3/2 max pooling), stack_fn's residual stacks and the classifier; preact: the
    V2 form (batch normalization after the stacks instead of in the stem)."""
    check_weights(weights, include_top, classes)
    img_input = image_input(input_tensor, input_shape_for(input_shape, 224, 32, include_top, weights))
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = relu(bn(x, "conv1_bn"), "conv1_relu")
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = stack_fn(layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x))
    if preact:
        x = relu(bn(x, "post_bn"), "post_relu")

    def top(x):
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        return layers.Dense(classes, activation="softmax", name="predictions")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), model_name)
    fname = f"{model_name}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)


def _v1(name, counts):
    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              **kwargs):
        def stacks(x):
            for i, (filters, blocks) in enumerate(zip((64, 128, 256, 512), counts)):
                x = stack1(x, filters, blocks, stride1=1 if i == 0 else 2, name=f"conv{i + 2}")
            return x
        return ResNet(stacks, False, True, name.lower(), include_top, weights, input_tensor, input_shape, pooling,
                      classes)
    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"{name}: the residual network of He et al. (2015) with {counts} bottlenecks per stage."
    return build


ResNet50 = _v1("ResNet50", (3, 4, 6, 3))
ResNet101 = _v1("ResNet101", (3, 4, 23, 3))
ResNet152 = _v1("ResNet152", (3, 8, 36, 3))
