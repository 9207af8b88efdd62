"""VGG16 and VGG19 as Keras 2.2.4-tf builds them: block1_conv1 ... block5_pool, fc1, fc2, predictions
(138,357,544 and 143,667,240 parameters with the 1000-class top)."""
from .. import layers
from .imagenet_utils import decode_predictions  # noqa: F401 (each module has it, as in Keras)
from .imagenet_utils import (check_weights, image_input, input_shape_for, load_weights, model_from,
                             preprocess_input as imagenet_preprocess, top_or_pooling)

WEIGHTS_URL = "https://github.com/fchollet/deep-learning-models/releases/download/v0.1/"


def preprocess_input(x, data_format=None, **kwargs):
    """ImageNet's caffe preprocessing: BGR, the ImageNet means subtracted."""
    return imagenet_preprocess(x, data_format=data_format, mode="caffe")


def _vgg(convs, name, include_top, weights, input_tensor, input_shape, pooling, classes):
    check_weights(weights, include_top, classes)
    input_shape = input_shape_for(input_shape, 224, 32, include_top, weights)
    img_input = image_input(input_tensor, input_shape)
    x = img_input
    for block, (filters, n) in enumerate(zip((64, 128, 256, 512, 512), convs), start=1):
        for i in range(1, n + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same", name=f"block{block}_conv{i}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)

    def top(x):
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        return layers.Dense(classes, activation="softmax", name="predictions")(x)
    model = model_from(img_input, input_tensor, top_or_pooling(x, include_top, pooling, top), name)
    fname = f"{name}_weights_tf_dim_ordering_tf_kernels" + ("" if include_top else "_notop") + ".h5"
    return load_weights(model, weights, fname, WEIGHTS_URL + fname)


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
          classes=1000, **kwargs):
    """The 16-layer network of Simonyan and Zisserman (2014), channels_last."""
    return _vgg((2, 2, 3, 3, 3), "vgg16", include_top, weights, input_tensor, input_shape, pooling, classes)


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,  # noqa: N802
          classes=1000, **kwargs):
    """The 19-layer network of Simonyan and Zisserman (2014), channels_last."""
    return _vgg((2, 2, 4, 4, 4), "vgg19", include_top, weights, input_tensor, input_shape, pooling, classes)
