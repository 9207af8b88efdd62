"""tf.contrib.seq2seq: sequence_loss, the weighted cross entropy of a batch of sequences.

The decoders, helpers and attention mechanisms of TF1's seq2seq are not here: naming one raises NotInRingflow.
"""
from ..framework.graph_wrappers import name_scope
from ..ops.array_ops import cast, reshape, shape
from ..ops.core_ops import convert_to_tensor
from ..ops.division_ops import div_no_nan
from ..ops.nn_ops import sparse_softmax_cross_entropy_with_logits
from ..ops.reduction_ops import count_nonzero, reduce_sum
from ..unsupported import missing_names

__all__ = ["sequence_loss"]


def sequence_loss(logits, targets, weights, average_across_timesteps=True, average_across_batch=True,
                  sum_over_timesteps=False, sum_over_batch=False, softmax_loss_function=None, name=None):
    """Cross entropy of `logits` [batch, time, classes] against int `targets` [batch, time], times `weights`
    [batch, time]; reduced over the axes asked for: averaged by the weights' sum, or summed and divided by the
    count of nonzero weights (TF1's sum_over_*), 0 where those are 0. No reduction gives [batch, time]."""
    if average_across_timesteps and sum_over_timesteps or average_across_batch and sum_over_batch:
        raise ValueError("sequence_loss: average_across_timesteps and sum_over_timesteps (or average_across_batch "
                         "and sum_over_batch) cannot both be set")
    logits, targets, weights = (convert_to_tensor(t) for t in (logits, targets, weights))
    for tensor, rank, what in ((logits, 3, "logits [batch_size, sequence_length, num_decoder_symbols]"),
                               (targets, 2, "targets [batch_size, sequence_length]"),
                               (weights, 2, "weights [batch_size, sequence_length]")):
        if tensor.shape.ndims is not None and tensor.shape.ndims != rank:
            raise ValueError(f"sequence_loss: {what} must be a Tensor of rank {rank}, got shape {tensor.shape}")
    with name_scope(name, "sequence_loss", [logits, targets, weights]):
        flat_logits = reshape(logits, [-1, shape(logits)[2]])
        flat_targets = reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = sparse_softmax_cross_entropy_with_logits(labels=flat_targets, logits=flat_logits)
        else:
            crossent = softmax_loss_function(labels=flat_targets, logits=flat_logits)
        crossent = crossent * reshape(weights, [-1])
        averaged = [axis for axis, on in ((0, average_across_batch), (1, average_across_timesteps)) if on]
        summed = [axis for axis, on in ((0, sum_over_batch), (1, sum_over_timesteps)) if on]
        if len(averaged) == 2 or len(summed) == 2:
            axis = None
        elif averaged or summed:  # one axis: TF1 honours the averaged one when the other is summed
            crossent, axis = reshape(crossent, shape(logits)[0:2]), averaged or summed
        else:
            return reshape(crossent, shape(logits)[0:2])
        total = reduce_sum(crossent, axis=axis)
        if averaged:
            return div_no_nan(total, reduce_sum(weights, axis=axis))
        return div_no_nan(total, cast(count_nonzero(weights, axis=axis), total.dtype))

__getattr__ = missing_names(__name__, have="of tf.contrib.seq2seq only sequence_loss is here (no decoders, helpers "
                            "or attention mechanisms)")
