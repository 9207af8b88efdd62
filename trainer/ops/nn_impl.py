"""tg.nn functions TF1 builds from other ops (its nn_impl.py): l2_normalize, moments, xw_plus_b, embedding_lookup,
swish, crelu and the weighted sigmoid cross entropy."""
import numpy as np

from ..framework.graph_wrappers import name_scope
from .array_ops import cast, concat, shape
from .clip_ops import clip_by_norm
from .core_ops import constant, convert_to_tensor
from .cwise_ops import log1p, rsqrt, squared_difference, stop_gradient
from .gather_ops import gather
from .division_ops import div_no_nan
from .math_ops import (abs as abs_, binary_operands, exp, log, matmul, maximum, multiply, square, where,
                       zeros_like)
from .nn_ops import bias_add, relu, sigmoid
from .reduction_ops import reduce_mean, reduce_sum
from .shape_ops import squeeze
from .tensor_util import argument_lookup, static_shape


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon)): unit L2 norm along `axis` (all axes when None)."""
    axis = argument_lookup("axis", axis, "dim", dim)
    with name_scope(name or "l2_normalize") as scope:
        x = convert_to_tensor(x)
        squares = reduce_sum(square(x), axis=axis, keepdims=True)
        return multiply(x, rsqrt(maximum(squares, epsilon)), name=scope)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes`; `shift` is accepted and unused, as in TF1."""
    keepdims = bool(argument_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    with name_scope(name or "moments"):
        x = convert_to_tensor(x)
        y = cast(x, np.float32) if x.dtype == np.float16 else x  # TF1 computes half-precision moments in float32
        mean = reduce_mean(y, axis=axes, keepdims=True, name="mean")
        variance = reduce_mean(squared_difference(y, stop_gradient(mean)), axis=axes, keepdims=True,
                               name="variance")
        if not keepdims:
            mean, variance = squeeze(mean, axes), squeeze(variance, axes)
        return cast(mean, x.dtype), cast(variance, x.dtype)


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases."""
    with name_scope(name or "xw_plus_b"):
        return bias_add(matmul(x, weights), biases, name="xw_plus_b")


def _mod_order(sizes):
    """Row of each id in the concatenation of shards under the "mod" strategy (id i is row i // n of shard i % n)."""
    n, offsets = len(sizes), np.concatenate([[0], np.cumsum(sizes)[:-1]])
    ids = np.arange(sum(sizes))
    return (offsets[ids % n] + ids // n).astype(np.int64)


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None):
    """The rows of `params` (a tensor, or a list of shards of one table) at integer `ids`; with max_norm, rows
    with a larger L2 norm are scaled down to it."""
    shards = list(params) if isinstance(params, (list, tuple)) else [params]
    if not shards:
        raise ValueError("embedding_lookup needs at least one params tensor")
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"partition_strategy must be 'mod' or 'div', got {partition_strategy!r}")
    with name_scope(name or "embedding_lookup"):
        shards = [convert_to_tensor(p) for p in shards]
        ids = convert_to_tensor(ids)
        if len(shards) == 1:
            table = shards[0]
        else:
            sizes = [(static_shape(p) or (None,))[0] for p in shards]
            if None in sizes:
                raise NotImplementedError("embedding_lookup over several shards needs each shard's number of rows "
                                          "known while building")
            table = concat(shards, 0)
            if partition_strategy == "mod":
                ids = gather(constant(_mod_order(sizes)), ids)
        rows = gather(table, ids)
        if max_norm is not None:
            rank, ids_rank = rows.ndim, ids.ndim
            if rank is None or ids_rank is None:
                raise NotImplementedError("embedding_lookup max_norm needs params and ids of known rank")
            rows = clip_by_norm(rows, max_norm, axes=list(range(ids_rank, rank)))
        return rows


def swish(features):
    """x * sigmoid(x) (Ramachandran et al. 2017)."""
    with name_scope("swish"):
        x = convert_to_tensor(features)
        return x * sigmoid(x)


def crelu(features, name=None, axis=-1):
    """relu of [x, -x] joined along `axis`: the positive and the negative part, so that dim doubles."""
    with name_scope(name or "CRelu"):
        x = convert_to_tensor(features)
        return relu(concat([x, -x], axis))


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    """Sigmoid cross entropy with the positive term scaled by pos_weight:
    (1 - z) * x + (1 + (q - 1) * z) * (log(1 + exp(-|x|)) + max(-x, 0)); `targets` is TF1's older name of labels."""
    if (labels is None) == (targets is None):
        raise ValueError("weighted_cross_entropy_with_logits takes the labels as `labels` or `targets` "
                         "(exactly one of them)")
    if logits is None or pos_weight is None:
        raise ValueError(f"weighted_cross_entropy_with_logits needs logits and pos_weight, got logits={logits!r} "
                         f"pos_weight={pos_weight!r}")
    with name_scope(name or "logistic_loss"):
        x, z = binary_operands("weighted_cross_entropy_with_logits", logits, targets if labels is None else labels)
        if x.ndim is not None and z.ndim is not None and tuple(x.shape) != tuple(z.shape) and \
                None not in tuple(x.shape) + tuple(z.shape):
            raise ValueError(f"logits and labels must have the same shape, got {x.name!r} of shape {x.shape} and "
                             f"{z.name!r} of shape {z.shape}")
        log_weight = 1.0 + (pos_weight - 1.0) * z
        return (1.0 - z) * x + log_weight * (log1p(exp(-abs_(x))) + maximum(-x, 0.0))


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    with name_scope(name or "relu_layer") as scope:
        return relu(bias_add(matmul(x, weights), biases), name=scope)


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets per element; with compute_full_loss, plus Stirling's approximation
    of log(targets!) where targets > 1."""
    with name_scope(name or "log_poisson_loss"):
        log_input = convert_to_tensor(log_input)
        targets = convert_to_tensor(targets, dtype=log_input.dtype)
        if log_input.shape.ndims is not None and targets.shape.ndims is not None and \
                not log_input.shape.is_compatible_with(targets.shape):
            raise ValueError(f"log_input and targets must have the same shape ({log_input.shape} vs {targets.shape})")
        result = exp(log_input) - log_input * targets
        if compute_full_loss:
            zero, half_log_two_pi = np.array(0.0, log_input.dtype), np.array(0.5 * np.log(2 * np.pi), log_input.dtype)
            stirling = targets * log(targets) - targets + 0.5 * log(targets) + half_log_two_pi
            result = result + where(targets > 1.0, stirling, zeros_like(targets) + zero)
        return result


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The per-example losses (times sample_weight) summed and divided by the global batch size (this batch's size
    when None: one replica, as a ringflow rank computes its own loss)."""
    with name_scope("compute_average_loss"):
        losses = convert_to_tensor(per_example_loss)
        if sample_weight is not None:
            losses = losses * cast(convert_to_tensor(sample_weight), losses.dtype)
        if global_batch_size is None:
            global_batch_size = cast(shape(losses)[0], losses.dtype)
        return div_no_nan(reduce_sum(losses), cast(convert_to_tensor(global_batch_size), losses.dtype))


def scale_regularization_loss(regularization_loss):
    """The summed regularization loss, divided by the number of replicas (one per ringflow graph)."""
    return reduce_sum(convert_to_tensor(regularization_loss))
