"""ResNet50V2/101V2/152V2 as keras_applications' resnet_common builds them (TF 1.15's
tf.keras.applications.resnet_v2): pre-activation bottlenecks (He et al., 2016), names conv2_block1_preact_bn, ...,
post_bn, predictions; inputs scaled to [-1, 1] ('tf' preprocessing)."""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import preprocess_input as imagenet_preprocess
from .resnet import ResNet, bn, relu


def preprocess_input(x, data_format=None, **kwargs):
    """Pixels scaled from [0, 255] to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def block2(x, filters, stride=1, conv_shortcut=False, name=None):
    """A pre-activation bottleneck; its stride is in the 3x3 convolution, the shortcut a 1x1 max pooling then."""
    preact = relu(bn(x, name + "_preact_bn"), name + "_preact_relu")
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=name + "_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=name + "_1_conv")(preact)
    x = relu(bn(x, name + "_1_bn"), name + "_1_relu")
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=name + "_2_pad")(x)
    x = layers.Conv2D(filters, 3, strides=stride, use_bias=False, name=name + "_2_conv")(x)
    x = relu(bn(x, name + "_2_bn"), name + "_2_relu")
    x = layers.Conv2D(4 * filters, 1, name=name + "_3_conv")(x)
    return layers.Add(name=name + "_out")([shortcut, x])


def stack2(x, filters, blocks, stride1=2, name=None):
    x = block2(x, filters, conv_shortcut=True, name=name + "_block1")
    for i in range(2, blocks):
        x = block2(x, filters, name=f"{name}_block{i}")
    return block2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def _v2(name, counts):
    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              **kwargs):
        def stacks(x):
            for i, (filters, blocks) in enumerate(zip((64, 128, 256, 512), counts)):
                x = stack2(x, filters, blocks, stride1=1 if i == 3 else 2, name=f"conv{i + 2}")
            return x
        return ResNet(stacks, True, True, name.lower(), include_top, weights, input_tensor, input_shape, pooling,
                      classes)
    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"{name}: the pre-activation residual network with {counts} bottlenecks per stage."
    return build


ResNet50V2 = _v2("ResNet50V2", (3, 4, 6, 3))
ResNet101V2 = _v2("ResNet101V2", (3, 4, 23, 3))
ResNet152V2 = _v2("ResNet152V2", (3, 8, 36, 3))
