"""TF1's sampled losses: nce_loss and sampled_softmax_loss, built from graph ops so autodiff gives their gradients.

Both score the true classes and a small sample of classes (by default from the log-uniform sampler) instead
of all num_classes, subtract log(expected count) from each logit (the sampling correction), and then apply
sigmoid (NCE) or softmax cross-entropy to the [batch, num_true + num_sampled] logits.
"""
from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from .array_ops import cast, concat
from .candidate_sampling_ops import accidental_hit_mask, log_uniform_candidate_sampler
from .core_ops import convert_to_tensor
from .cwise_ops import stop_gradient
from .math_ops import log, matmul, ones_like, zeros_like
from .nn_impl import embedding_lookup
from .nn_ops import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2
from .reduction_ops import reduce_sum
from .shape_ops import expand_dims


def _lookup(params, ids, dtype, partition_strategy):
    rows = embedding_lookup(params, ids, partition_strategy=partition_strategy)
    return rows if rows.dtype == dtype else cast(rows, dtype)


def _check_args(fn_name, labels, inputs, num_true, sampled_values):
    if labels.dtype.kind not in "iu":
        raise TypeError(f"{fn_name}: labels must be integer class ids, got {labels.name!r} of dtype "
                        f"{labels.dtype.name}")
    if labels.ndim is not None and (labels.ndim != 2 or labels.shape[1] not in (None, num_true)):
        raise ValueError(f"{fn_name}: labels must have shape [batch_size, num_true={num_true}], got {labels.name!r} "
                         f"of shape {labels.shape}")
    if inputs.ndim not in (None, 2):
        raise ValueError(f"{fn_name}: inputs must have shape [batch_size, dim], got {inputs.name!r} of shape "
                         f"{inputs.shape}")
    if sampled_values is not None and len(sampled_values) != 3:
        raise ValueError(f"{fn_name}: sampled_values must be (sampled_candidates, true_expected_count, "
                         f"sampled_expected_count) as a *_candidate_sampler returns, got {len(sampled_values)} items")


def _compute_sampled_logits(fn_name, weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                            sampled_values, remove_accidental_hits, partition_strategy, name, seed=None):
    """(logits, labels), each [batch, num_true + num_sampled]: the true classes' columns first, labelled 1/num_true."""
    weights = list(weights) if isinstance(weights, (list, tuple)) else [weights]
    with name_scope(name or "compute_sampled_logits"):
        inputs, labels = convert_to_tensor(inputs), convert_to_tensor(labels)
        num_true = int(num_true)
        _check_args(fn_name, labels, inputs, num_true, sampled_values)
        if labels.dtype != dtypes.int64:
            labels = cast(labels, dtypes.int64)
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True, num_classes,
                                                           seed=seed)
        sampled, true_expected, sampled_expected = (stop_gradient(convert_to_tensor(s)) for s in sampled_values)
        if sampled.dtype != dtypes.int64:
            sampled = cast(sampled, dtypes.int64)
        # Rows of the true classes come as [batch, num_true, dim] straight from the 2-D ids; TF1 gathers
        # them flat and reshapes, which is the same values.
        true_w = _lookup(weights, labels, inputs.dtype, partition_strategy)
        true_b = _lookup(biases, labels, inputs.dtype, partition_strategy)
        sampled_w = _lookup(weights, sampled, inputs.dtype, partition_strategy)
        sampled_b = _lookup(biases, sampled, inputs.dtype, partition_strategy)
        true_logits = reduce_sum(expand_dims(inputs, 1) * true_w, axis=2) + true_b
        sampled_logits = matmul(inputs, sampled_w, transpose_b=True) + sampled_b
        if remove_accidental_hits:
            sampled_logits += accidental_hit_mask(labels, sampled, num_true, sampled_logits.dtype)
        true_logits -= log(cast(true_expected, inputs.dtype))
        sampled_logits -= log(cast(sampled_expected, inputs.dtype))
        logits = concat([true_logits, sampled_logits], 1)
        targets = concat([ones_like(true_logits) / float(num_true), zeros_like(sampled_logits)], 1)
        return logits, targets


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    """Per-example noise-contrastive estimation loss, shape [batch_size]: sigmoid cross-entropy of the true
    classes (label 1 / num_true) and the sampled ones (label 0), summed per row. `weights` is [num_classes, dim]
    (or a list of shards, split as `partition_strategy` says), `labels` [batch_size, num_true] ids."""
    logits, targets = _compute_sampled_logits("nce_loss", weights, biases, labels, inputs, num_sampled, num_classes,
                                              num_true, sampled_values, remove_accidental_hits, partition_strategy,
                                              name)
    losses = sigmoid_cross_entropy_with_logits(labels=targets, logits=logits, name="sampled_losses")
    return reduce_sum(losses, axis=1)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, partition_strategy="mod", name="sampled_softmax_loss",
                         seed=None):
    """Per-example sampled softmax loss, shape [batch_size]: softmax cross-entropy over the true classes and the
    sampled ones (sampled ids equal to a true class are removed by default). Arguments as nce_loss; `seed`
    seeds the default sampler."""
    logits, targets = _compute_sampled_logits("sampled_softmax_loss", weights, biases, labels, inputs, num_sampled,
                                              num_classes, num_true, sampled_values, remove_accidental_hits,
                                              partition_strategy, name, seed=seed)
    targets = stop_gradient(targets, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=targets, logits=logits)
