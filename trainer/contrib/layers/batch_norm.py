"""tf.contrib.layers.batch_norm: tf.layers' BatchNormalization with contrib's defaults and collections.

Defaults: decay 0.999, epsilon 0.001, center (beta) but no scale (gamma), is_training=True. Variables live
in <scope or BatchNorm>/beta, gamma, moving_mean, moving_variance, and are model variables. As TF1 does, a 2-D
input is normalized as a [N, 1, 1, C] image through the fused path, so its moving variance too takes the batch
variance with Bessel's correction. The moving-average updates go to `updates_collections` (UPDATE_OPS by
default: run them with the train op); with updates_collections=None the output waits for them instead.
"""
from ...framework.graph_wrappers import control_dependencies
from ...framework.graph import get_default_graph
from ...framework.graph_keys import GraphKeys
from ...ops.initializers import ones_initializer, zeros_initializer
from ...layers.base import static_dims
from ...layers.normalization import BatchNormalization
from ...ops.array_ops import reshape
from ...ops.core_ops import convert_to_tensor, identity
from ...ops.scopes import variable_scope
from ..framework.arg_scope import add_arg_scope
from .layers import add_to_variable_collections, collect_named_outputs

PARAMS = ("beta", "gamma", "moving_mean", "moving_variance")


def _unsupported(what, value, default):
    if value != default:
        raise NotImplementedError(f"tf.contrib.layers.batch_norm({what}={value!r}) is not implemented in ringflow; "
                                  f"leave it at {default!r}")


def _route_updates(layer, updates_collections, outputs):
    """Move the layer's moving-average updates from UPDATE_OPS to `updates_collections`, or (None) make the
    outputs depend on them."""
    if updates_collections == GraphKeys.UPDATE_OPS or not layer.updates:
        return outputs
    graph = get_default_graph()
    pending = graph.get_collection_ref(GraphKeys.UPDATE_OPS)
    pending[:] = [op for op in pending if all(op is not u for u in layer.updates)]
    if updates_collections is None:
        with control_dependencies(layer.updates):
            return identity(outputs)
    graph.add_to_collections(updates_collections, layer.updates)
    return outputs


@add_arg_scope
def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
               param_initializers=None, param_regularizers=None, updates_collections=GraphKeys.UPDATE_OPS,
               is_training=True, reuse=None, variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format="NHWC", zero_debias_moving_mean=False, scope=None,
               renorm=False, renorm_clipping=None, renorm_decay=0.99, adjustment=None):
    """Normalize over every axis but the channels (the last, or axis 1 with data_format='NCHW'), with the batch
    statistics while is_training (a bool or a bool Tensor) and the moving ones otherwise."""
    _unsupported("batch_weights", batch_weights, None)
    _unsupported("zero_debias_moving_mean", zero_debias_moving_mean, False)
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format has to be either NCHW or NHWC, got {data_format!r}")
    initializers, regularizers = dict(param_initializers or {}), dict(param_regularizers or {})
    unknown = sorted(set(initializers) - set(PARAMS)) + sorted(set(regularizers) - {"beta", "gamma"})
    if unknown:
        raise ValueError(f"batch_norm: unknown parameter names {unknown!r}; use {list(PARAMS)!r}")
    with variable_scope(scope, default_name="BatchNorm", values=[inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        dims = static_dims(inputs)
        if dims is None:
            raise ValueError(f"batch_norm {sc.name!r}: inputs need a known rank, got {inputs!r}")
        x, axis = inputs, 1 if data_format == "NCHW" and len(dims) > 2 else -1
        if len(dims) == 2 and fused is not False:  # TF1 runs 2-D inputs through the fused 4-D kernel
            x, axis = reshape(inputs, [-1, 1, 1, dims[1]]), -1
        layer = BatchNormalization(
            axis=axis, momentum=decay, epsilon=epsilon, center=center, scale=scale,
            beta_initializer=initializers.get("beta", zeros_initializer()),
            gamma_initializer=initializers.get("gamma", ones_initializer()),
            moving_mean_initializer=initializers.get("moving_mean", zeros_initializer()),
            moving_variance_initializer=initializers.get("moving_variance", ones_initializer()),
            beta_regularizer=regularizers.get("beta"), gamma_regularizer=regularizers.get("gamma"),
            renorm=renorm, renorm_clipping=renorm_clipping, renorm_momentum=renorm_decay, adjustment=adjustment,
            fused=False if fused is False else None,  # None: fused where it can be, as TF1's fused=True
            trainable=trainable, name=sc.name, _scope=sc, _reuse=reuse)
        outputs = layer.apply(x, training=is_training)
        if x is not inputs:
            outputs = reshape(outputs, [-1, dims[1]])
        model_variables = get_default_graph().get_collection_ref(GraphKeys.MODEL_VARIABLES)
        for name in PARAMS:
            var = getattr(layer, name)
            if var is not None:
                if all(v is not var for v in model_variables):
                    model_variables.append(var)
                add_to_variable_collections(var, variables_collections, name)
        outputs = _route_updates(layer, updates_collections, outputs)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)
