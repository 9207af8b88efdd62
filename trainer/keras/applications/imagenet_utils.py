"""What the ImageNet models share: input shape checks, preprocess_input's three modes, decode_predictions, and
weights='imagenet' read from Keras' cache (~/.keras/models/<Keras' file name>): ringflow never downloads."""
import json
import os

import numpy as np

from ...framework.tensor import Tensor
from ...ops.reverse_ops import reverse
from ...ops.core_ops import convert_to_tensor
from .. import backend as K
from .. import layers
from ..engine.base_layer import history
from ..engine.training import Model
from .hdf5_weights import load_hdf5_weights

CACHE_DIR = os.path.join(os.path.expanduser("~"), ".keras", "models")  # where Keras' get_file keeps them
CAFFE_MEANS = (103.939, 116.779, 123.68)  # BGR means of ImageNet, the caffe models' preprocessing
TORCH_MEANS, TORCH_STDS = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
CLASS_INDEX_FILE = "imagenet_class_index.json"
CLASS_INDEX_URL = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"


def preprocess_input(x, data_format=None, mode="caffe", **kwargs):
    """Keras' ImageNet preprocessing of RGB images (channels_last): 'caffe' (BGR, ImageNet means subtracted),
    'tf' (scaled to [-1, 1]) or 'torch' (scaled to [0, 1], normalized by ImageNet's means and deviations)."""
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError(f"preprocess_input: mode must be 'caffe', 'tf' or 'torch', got {mode!r}")
    if (data_format or K.image_data_format()) != "channels_last":
        raise ValueError(f"preprocess_input: ringflow runs channels_last only, got data_format={data_format!r}")
    if isinstance(x, Tensor):
        x = convert_to_tensor(x)
        flip = lambda v: reverse(v, [-1])  # noqa: E731
    else:
        x = np.asarray(x)
        x = x.astype(K.floatx()) if x.dtype.kind != "f" else x.copy()
        flip = lambda v: v[..., ::-1]  # noqa: E731
    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        return (x / 255.0 - np.array(TORCH_MEANS, np.float32)) / np.array(TORCH_STDS, np.float32)
    return flip(x) - np.array(CAFFE_MEANS, np.float32)


def cached_file(fname, url):
    """The path of a file Keras would have downloaded into ~/.keras/models, or a clear error when it is absent."""
    path = os.path.join(CACHE_DIR, fname)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} is absent: ringflow reads Keras' downloads from that cache and never "
                                f"downloads (no network). Fetch {url} there, or pass weights=None")
    return path


def decode_predictions(preds, top=5):
    """[(class_name, class_description, score), ...] of the `top` classes of each row of (samples, 1000) preds."""
    preds = np.asarray(preds)
    if preds.ndim != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
                         f"(samples, 1000)). Found array with shape: {preds.shape}")
    with open(cached_file(CLASS_INDEX_FILE, CLASS_INDEX_URL)) as f:
        index = json.load(f)
    return [[tuple(index[str(i)]) + (row[i],) for i in row.argsort()[-top:][::-1]] for row in preds]


def input_shape_for(input_shape, default_size, min_size, require_flatten, weights):
    """Keras' _obtain_input_shape for channels_last: the shape the model is built for, or why it cannot be."""
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        default_shape = (default_size, default_size, input_shape[-1])
    else:
        default_shape = (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, `input_shape` "
                             f"should be {default_shape}.")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        if input_shape[-1] != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; got `input_shape={tuple(input_shape)}`")
        if any(d is not None and d < min_size for d in input_shape[:2]):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; got "
                             f"`input_shape={tuple(input_shape)}`")
        input_shape = tuple(input_shape)
    else:
        input_shape = default_shape if require_flatten else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. Got "
                         f"`input_shape={input_shape}`")
    return input_shape


def check_weights(weights, include_top, classes):
    if not (weights in ("imagenet", None) or os.path.exists(str(weights))):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         f"(pre-training on ImageNet), or the path to the weights file to be loaded; got {weights!r}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000')


def image_input(input_tensor, input_shape):
    """The model's input layer: a new Input, or the given tensor (wrapped in one when it is not a Keras tensor)."""
    if input_tensor is None:
        return layers.Input(shape=input_shape)
    if not K.is_keras_tensor(input_tensor):
        return layers.Input(tensor=input_tensor, shape=input_shape)
    return input_tensor


def source_inputs(tensor):
    """The Input tensors a Keras tensor was computed from (Keras' get_source_inputs)."""
    layer, node_index, _ = history(tensor)
    node = layer.inbound_nodes[node_index]
    if not node.input_tensors:
        return [tensor]
    found = []
    for t in node.input_tensors:
        found += [s for s in source_inputs(t) if all(s is not f for f in found)]
    return found


def model_from(img_input, input_tensor, x, name):
    """The Model from the image input (or, for a given input_tensor, the Inputs it came from) to x."""
    return Model(img_input if input_tensor is None else source_inputs(img_input), x, name=name)


def top_or_pooling(x, include_top, pooling, top):
    """The classifier `top(x)`, or for feature extraction x globally average- or max-pooled (or as it is)."""
    if include_top:
        return top(x)
    if pooling == "avg":
        return layers.GlobalAveragePooling2D()(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D()(x)
    return x


def load_weights(model, weights, fname, url):
    """weights='imagenet' from Keras' cache (fname, downloaded from url by Keras), or a path given by the user."""
    if weights == "imagenet":
        load_hdf5_weights(model, cached_file(fname, url))
    elif weights is not None:
        if str(weights).endswith((".h5", ".hdf5")):
            load_hdf5_weights(model, weights)
        else:
            model.load_weights(weights)
    return model
