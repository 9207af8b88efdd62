"""NASNet-A (Zoph et al., 2018) as keras_applications builds it: a stem, two reduction cells, then three stacks of
normal cells with reduction cells between; each cell adds pairs of separable-convolution and pooling branches.
NASNetMobile is 4 @ 1056 at 224x224, NASNetLarge 6 @ 4032 at 331x331; 'tf' preprocessing."""
from .. import backend as K
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)
from .mobilenet_v2 import correct_pad

WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
MOMENTUM, EPSILON = 0.9997, 1e-3  # NASNet's batch normalization


def preprocess_input(x, data_format=None, **kwargs):
    """Pixels scaled from [0, 255] to [-1, 1]."""
    return imagenet_preprocess(x, data_format=data_format, mode="tf")


def _bn(x, name):
    return layers.BatchNormalization(axis=-1, momentum=MOMENTUM, epsilon=EPSILON, name=name)(x)


def _conv1x1(x, filters, name):
    return layers.Conv2D(filters, (1, 1), padding="same", use_bias=False, kernel_initializer="he_normal",
                         name=name)(x)


def _separable_block(x, filters, kernel_size=3, strides=1, block_id=None):
    """relu, separable convolution (stride-2 ones padded as TF's 'same'), batch norm, twice."""
    x = layers.Activation("relu")(x)
    padding = "same"
    if strides == 2:
        x = layers.ZeroPadding2D(correct_pad(x, kernel_size), name=f"separable_conv_1_pad_{block_id}")(x)
        padding = "valid"
    for i, (stride, pad) in enumerate(((strides, padding), (1, "same")), 1):
        if i == 2:
            x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, kernel_size, strides=stride, padding=pad, use_bias=False,
                                   kernel_initializer="he_normal", name=f"separable_conv_{i}_{block_id}")(x)
        x = _bn(x, f"separable_conv_{i}_bn_{block_id}")
    return x


def _adjust(p, ip, filters, block_id):
    """The previous cell's output `p` brought to `ip`'s size (halved in two offset halves) or filter count."""
    if p is None:
        return ip
    if K.int_shape(p)[-2] != K.int_shape(ip)[-2]:
        p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = _conv1x1(p1, filters // 2, f"adjust_conv_1_{block_id}")
        p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p))
        p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = _conv1x1(p2, filters // 2, f"adjust_conv_2_{block_id}")
        return _bn(layers.concatenate([p1, p2], axis=-1), f"adjust_bn_{block_id}")
    if K.int_shape(p)[-1] != filters:
        p = _conv1x1(layers.Activation("relu")(p), filters, f"adjust_conv_projection_{block_id}")
        return _bn(p, f"adjust_bn_{block_id}")
    return p


def _squeeze(ip, filters, kind, block_id):
    h = _conv1x1(layers.Activation("relu")(ip), filters, f"{kind}_conv_1_{block_id}")
    return _bn(h, f"{kind}_bn_1_{block_id}")


def _pool(x, kind, strides, name, padding="same"):
    pool = layers.AveragePooling2D if kind == "avg" else layers.MaxPooling2D
    return pool((3, 3), strides=strides, padding=padding, name=name)(x)


def _normal_cell(ip, p, filters, block_id):
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "normal", block_id)
    x1 = layers.add([_separable_block(h, filters, 5, block_id=f"normal_left1_{block_id}"),
                     _separable_block(p, filters, block_id=f"normal_right1_{block_id}")],
                    name=f"normal_add_1_{block_id}")
    x2 = layers.add([_separable_block(p, filters, 5, block_id=f"normal_left2_{block_id}"),
                     _separable_block(p, filters, 3, block_id=f"normal_right2_{block_id}")],
                    name=f"normal_add_2_{block_id}")
    x3 = layers.add([_pool(h, "avg", 1, f"normal_left3_{block_id}"), p], name=f"normal_add_3_{block_id}")
    x4 = layers.add([_pool(p, "avg", 1, f"normal_left4_{block_id}"), _pool(p, "avg", 1, f"normal_right4_{block_id}")],
                    name=f"normal_add_4_{block_id}")
    x5 = layers.add([_separable_block(h, filters, block_id=f"normal_left5_{block_id}"), h],
                    name=f"normal_add_5_{block_id}")
    return layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{block_id}"), ip


def _reduction_cell(ip, p, filters, block_id):
    p = _adjust(p, ip, filters, block_id)
    h = _squeeze(ip, filters, "reduction", block_id)
    h3 = layers.ZeroPadding2D(correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
    x1 = layers.add([_separable_block(h, filters, 5, 2, f"reduction_left1_{block_id}"),
                     _separable_block(p, filters, 7, 2, f"reduction_right1_{block_id}")],
                    name=f"reduction_add_1_{block_id}")
    x2 = layers.add([_pool(h3, "max", 2, f"reduction_left2_{block_id}", "valid"),
                     _separable_block(p, filters, 7, 2, f"reduction_right2_{block_id}")],
                    name=f"reduction_add_2_{block_id}")
    x3 = layers.add([_pool(h3, "avg", 2, f"reduction_left3_{block_id}", "valid"),
                     _separable_block(p, filters, 5, 2, f"reduction_right3_{block_id}")],
                    name=f"reduction_add3_{block_id}")
    x4 = layers.add([x2, _pool(x1, "avg", 1, f"reduction_left4_{block_id}")])
    x5 = layers.add([_separable_block(x1, filters, 3, block_id=f"reduction_left4_{block_id}"),
                     _pool(h3, "max", 2, f"reduction_right5_{block_id}", "valid")], name=f"reduction_add4_{block_id}")
    return layers.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{block_id}"), ip


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,  # noqa: N802
           skip_reduction=True, filter_multiplier=2, include_top=True, weights="imagenet", input_tensor=None,
           pooling=None, classes=1000, default_size=None, weights_file="nasnet", **kwargs):
    """A NASNet-A: `num_blocks` normal cells per stack, `penultimate_filters` // 24 filters in the first."""
    check_weights(weights, include_top, classes)
    if penultimate_filters % (24 * filter_multiplier ** 2):
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of 24 * "
                         f"(`filter_multiplier` ** 2). Current value: {penultimate_filters}")
    img_input = image_input(input_tensor, input_shape_for(input_shape, default_size or 331, 32, include_top,
                                                          weights))
    filters = penultimate_filters // 24
    x = layers.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid", use_bias=False,
                      kernel_initializer="he_normal", name="stem_conv1")(img_input)
    x, p = _reduction_cell(_bn(x, "stem_bn1"), None, filters // filter_multiplier ** 2, "stem_1")
    x, p = _reduction_cell(x, p, filters // filter_multiplier, "stem_2")
    for stack in range(3):
        if stack:
            x, p0 = _reduction_cell(x, p, filters * filter_multiplier ** stack, f"reduce_{stack * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            x, p = _normal_cell(x, p, filters * filter_multiplier ** stack, str(stack * num_blocks + i + bool(stack)))
    x = layers.Activation("relu")(x)

    def top(x):
        return layers.Dense(classes, activation="softmax", name="predictions")(layers.GlobalAveragePooling2D()(x))
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), "NASNet")
    fname = f"{weights_file}{'' if include_top else '_no_top'}.h5"
    url = WEIGHTS_URL + {"nasnet_mobile": "NASNet-mobile", "nasnet_large": "NASNet-large"}.get(weights_file, "") + \
        ("" if include_top else "-no-top") + ".h5"
    return load_weights(model, weights, fname, url)


def NASNetMobile(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,  # noqa: N802
                 classes=1000, **kwargs):
    """NASNet-A (4 @ 1056) at 224x224."""
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32, skip_reduction=False,
                  filter_multiplier=2, include_top=include_top, weights=weights, input_tensor=input_tensor,
                  pooling=pooling, classes=classes, default_size=224, weights_file="nasnet_mobile")


def NASNetLarge(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,  # noqa: N802
                classes=1000, **kwargs):
    """NASNet-A (6 @ 4032) at 331x331."""
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96, skip_reduction=True,
                  filter_multiplier=2, include_top=include_top, weights=weights, input_tensor=input_tensor,
                  pooling=pooling, classes=classes, default_size=331, weights_file="nasnet_large")
