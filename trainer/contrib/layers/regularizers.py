"""tf.contrib.layers' regularizers: functions from a weight tensor to a scalar penalty, and their application.

l1: scale * sum(|w|); l2: scale * sum(w**2) / 2 (tg.nn.l2_loss); a scale of 0 gives a regularizer returning
None (no penalty), as in TF1.
"""
import numbers

from ...framework.graph import get_default_graph
from ...framework.graph_wrappers import name_scope
from ...framework.graph_keys import GraphKeys
from ...ops.core_ops import constant, convert_to_tensor
from ...ops.math_ops import abs as abs_, add_n, multiply
from ...ops.nn_ops import l2_loss
from ...ops.reduction_ops import reduce_sum


def _checked_scale(scale, what):
    if isinstance(scale, numbers.Integral) and not isinstance(scale, bool):
        raise ValueError(f"{what}: scale cannot be an integer: {scale!r}; pass a float such as {float(scale)!r}")
    if not isinstance(scale, numbers.Real):
        raise TypeError(f"{what}: scale must be a number, got {scale!r}")
    if scale < 0.0:
        raise ValueError(f"{what}: setting a scale less than 0 on a regularizer: {scale!r}")
    return float(scale)


def _regularizer(scale, scope, default_name, penalty):
    scale = _checked_scale(scale, default_name)
    if scale == 0.0:
        return lambda _: None

    def regularize(weights):
        with name_scope(scope or default_name):
            return multiply(convert_to_tensor(scale, dtype=weights.dtype, name="scale"), penalty(weights))
    return regularize


def l1_regularizer(scale, scope=None):
    """w -> scale * sum(|w|)."""
    return _regularizer(scale, scope, "l1_regularizer", lambda w: reduce_sum(abs_(w)))


def l2_regularizer(scale, scope=None):
    """w -> scale * sum(w**2) / 2."""
    return _regularizer(scale, scope, "l2_regularizer", l2_loss)


def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope=None):
    """The sum of l1_regularizer(scale_l1) and l2_regularizer(scale_l2)."""
    if float(scale_l1) == 0.0 and float(scale_l2) == 0.0:
        return lambda _: None
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope or "l1_l2_regularizer")


def sum_regularizer(regularizer_list, scope=None):
    """w -> the sum of every regularizer's penalty (those returning None left out); None for an empty list."""
    regularizers = [r for r in regularizer_list if r is not None]
    if not regularizers:
        return None

    def regularize(weights):
        with name_scope(scope or "sum_regularizer"):
            penalties = [p for p in (r(weights) for r in regularizers) if p is not None]
            return add_n(penalties) if penalties else None
    return regularize


def apply_regularization(regularizer, weights_list=None):
    """The summed penalty of `regularizer` over `weights_list` (default: the GraphKeys.WEIGHTS collection),
    also added to GraphKeys.REGULARIZATION_LOSSES."""
    graph = get_default_graph()
    if not weights_list:
        weights_list = graph.get_collection(GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize: pass weights_list, or add the weights to the "
                         "GraphKeys.WEIGHTS collection")
    with name_scope("get_regularization_penalty"):
        penalties = [regularizer(w) for w in weights_list]
        penalties = [p if p is not None else constant(0.0) for p in penalties]
        for p in penalties:
            if p.shape.ndims != 0:
                raise ValueError(f"regularizer must return a scalar Tensor instead of a Tensor with rank "
                                 f"{p.shape.ndims}: {p.name!r}")
        total = add_n(penalties)
    graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, total)
    return total
