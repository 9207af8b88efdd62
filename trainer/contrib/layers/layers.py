"""tf.contrib.layers' layer functions, with contrib's defaults and variable names.

Unlike tf.layers, these open a variable scope named after the function (fully_connected, Conv, BatchNorm,
Dropout, EmbedSequence; fully_connected_1, ... when unnamed), create model variables named weights and biases
(GraphKeys.MODEL_VARIABLES too), default to a ReLU activation and the Xavier initializer, and take an optional
normalizer_fn applied before the activation (the bias is then left out). Every function honours arg_scope.
"""
from ...framework.graph import get_default_graph
from ...framework.graph_wrappers import name_scope
from ...ops.initializers import zeros_initializer
from ...layers import core as core_layers
from ...layers.base import static_dims
from ...ops.array_ops import reshape
from ...ops.conv_ops import avg_pool, conv2d, max_pool
from ...ops.core_ops import convert_to_tensor
from ...ops.nn_impl import embedding_lookup
from ...ops.nn_ops import bias_add, relu
from ...ops.scopes import variable_scope
from ..framework.arg_scope import add_arg_scope
from ..framework.variables import model_variable
from .initializers import xavier_initializer

DATA_FORMATS = (None, "NHWC", "NCHW")


def collect_named_outputs(collections, alias, outputs):
    """Add `outputs` to `collections`, remembering `alias` (the layer's scope) in outputs.aliases."""
    if collections:
        outputs.aliases = getattr(outputs, "aliases", []) + [alias.rstrip("/")]
        get_default_graph().add_to_collections(collections, outputs)
    return outputs


def add_to_variable_collections(var, collections, key):
    """variables_collections: a list for every variable, or a dict {'weights': [...], 'biases': [...], ...}."""
    names = collections.get(key) if isinstance(collections, dict) else collections
    graph = get_default_graph()
    for name in names or []:
        if all(v is not var for v in graph.get_collection(name)):
            graph.add_to_collection(name, var)


def _model_variable(name, shape, dtype, initializer, regularizer, trainable, collections):
    var = model_variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                         trainable=trainable)
    add_to_variable_collections(var, collections, name)
    return var


def _finish(outputs, normalizer_fn, normalizer_params, activation_fn, outputs_collections, alias):
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return collect_named_outputs(outputs_collections, alias, outputs)


def _pair(value, what):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v > 0 for v in pair):
        raise ValueError(f"{what} must be a positive int or a pair of them, got {value!r}")
    return pair


def _padding(padding):
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    return padding.upper()


def _window(pair, data_format):
    return [1, 1, *pair] if data_format == "NCHW" else [1, *pair, 1]


@add_arg_scope
def fully_connected(inputs, num_outputs, activation_fn=relu, normalizer_fn=None, normalizer_params=None,
                    weights_initializer=xavier_initializer(), weights_regularizer=None,
                    biases_initializer=zeros_initializer(), biases_regularizer=None, reuse=None,
                    variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """activation_fn(inputs @ weights + biases) over the last axis; variables <scope>/weights, <scope>/biases."""
    if not isinstance(num_outputs, int) or isinstance(num_outputs, bool):
        raise ValueError(f"num_outputs should be an int, got {num_outputs!r}")
    with variable_scope(scope, default_name="fully_connected", values=[inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        dims = static_dims(inputs)
        if dims is None or len(dims) < 2 or dims[-1] is None:
            raise ValueError(f"fully_connected {sc.name!r}: inputs need rank >= 2 and a known last dimension, "
                             f"got shape {dims}")
        weights = _model_variable("weights", [dims[-1], num_outputs], inputs.dtype, weights_initializer,
                                  weights_regularizer, trainable, variables_collections)
        outputs = core_layers.matmul_last_axis(inputs, dims, weights)
        if not normalizer_fn and biases_initializer:
            biases = _model_variable("biases", [num_outputs], inputs.dtype, biases_initializer,
                                     biases_regularizer, trainable, variables_collections)
            outputs = bias_add(outputs, biases)
        return _finish(outputs, normalizer_fn, normalizer_params, activation_fn, outputs_collections, sc.name)


@add_arg_scope
def linear(inputs, num_outputs, **kwargs):
    """fully_connected without an activation."""
    return fully_connected(inputs, num_outputs, activation_fn=None, **kwargs)


@add_arg_scope
def convolution2d(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
                  activation_fn=relu, normalizer_fn=None, normalizer_params=None,
                  weights_initializer=xavier_initializer(), weights_regularizer=None,
                  biases_initializer=zeros_initializer(), biases_regularizer=None, reuse=None,
                  variables_collections=None, outputs_collections=None, trainable=True, scope=None):
    """A 2-D convolution (NHWC, or NCHW with data_format) with <scope>/weights [kh, kw, in, out] and biases."""
    if data_format not in DATA_FORMATS:
        raise ValueError(f"Invalid data_format: {data_format!r}; conv2d takes None, 'NHWC' or 'NCHW'")
    data_format = data_format or "NHWC"
    kernel, strides, rates = _pair(kernel_size, "kernel_size"), _pair(stride, "stride"), _pair(rate, "rate")
    if max(strides) > 1 and max(rates) > 1:
        raise ValueError(f"conv2d: a stride > 1 ({stride!r}) cannot be combined with a rate > 1 ({rate!r})")
    with variable_scope(scope, default_name="Conv", values=[inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        dims = static_dims(inputs)
        channel = 1 if data_format == "NCHW" else -1
        if dims is None or len(dims) != 4 or dims[channel] is None:
            raise ValueError(f"conv2d {sc.name!r}: inputs need rank 4 ({data_format}) with known channels, got "
                             f"shape {dims}")
        weights = _model_variable("weights", [*kernel, dims[channel], num_outputs], inputs.dtype,
                                  weights_initializer, weights_regularizer, trainable, variables_collections)
        outputs = conv2d(inputs, weights, strides=_window(strides, data_format), padding=_padding(padding),
                         data_format=data_format, dilations=_window(rates, data_format))
        if not normalizer_fn and biases_initializer:
            biases = _model_variable("biases", [num_outputs], inputs.dtype, biases_initializer,
                                     biases_regularizer, trainable, variables_collections)
            outputs = (outputs + reshape(biases, [1, num_outputs, 1, 1]) if data_format == "NCHW"
                       else bias_add(outputs, biases))
        return _finish(outputs, normalizer_fn, normalizer_params, activation_fn, outputs_collections, sc.name)


def _pool(kind, pool, inputs, kernel_size, stride, padding, data_format, outputs_collections, scope):
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format has to be either NCHW or NHWC, got {data_format!r}")
    with name_scope(scope or kind) as sc:
        outputs = pool(convert_to_tensor(inputs), _window(_pair(kernel_size, "kernel_size"), data_format),
                       _window(_pair(stride, "stride"), data_format), _padding(padding), data_format)
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def max_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC", outputs_collections=None,
               scope=None):
    """2-D max pooling; contrib's defaults are stride 2 and VALID padding."""
    return _pool("MaxPool2D", max_pool, inputs, kernel_size, stride, padding, data_format, outputs_collections,
                 scope)


@add_arg_scope
def avg_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC", outputs_collections=None,
               scope=None):
    """2-D average pooling; contrib's defaults are stride 2 and VALID padding."""
    return _pool("AvgPool2D", avg_pool, inputs, kernel_size, stride, padding, data_format, outputs_collections,
                 scope)


@add_arg_scope
def flatten(inputs, outputs_collections=None, scope=None):
    """Flatten every dimension but the first (batch) one."""
    with name_scope(scope or "Flatten") as sc:
        return collect_named_outputs(outputs_collections, sc, core_layers.flatten(convert_to_tensor(inputs)))


@add_arg_scope
def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None, scope=None,
            seed=None):
    """Keep each input with probability keep_prob, scaled by 1 / keep_prob, while is_training (a bool or a bool
    Tensor); the identity otherwise."""
    with variable_scope(scope, default_name="Dropout", values=[inputs]) as sc:
        layer = core_layers.Dropout(rate=1 - keep_prob, noise_shape=noise_shape, seed=seed, name=sc.name, _scope=sc)
        outputs = layer.apply(convert_to_tensor(inputs), training=is_training)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None, regularizer=None,
                   trainable=True, scope=None, reuse=None):
    """The rows of an <scope or EmbedSequence>/embeddings [vocab_size, embed_dim] model variable at `ids`."""
    if vocab_size is None or embed_dim is None:
        raise ValueError(f"embed_sequence needs vocab_size and embed_dim, got {vocab_size!r} and {embed_dim!r}")
    with variable_scope(scope, default_name="EmbedSequence", values=[ids], reuse=reuse):
        embeddings = model_variable("embeddings", shape=[vocab_size, embed_dim], initializer=initializer,
                                    regularizer=regularizer, trainable=trainable)
        return embedding_lookup(embeddings, ids)  # `unique` only deduplicates the lookups: same values
