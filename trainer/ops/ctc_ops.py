"""Connectionist temporal classification: ctc_loss (and ctc_loss_v2's sparse and dense labels), the greedy decoder
and collapse_repeated.

ctc_loss is TF's CTCLoss: the labels with a blank between and around them (2L + 1 states), alpha and beta
recursions in log space over each sequence's frames, -log p(labels | logits) per batch entry. Its second output is
the gradient with respect to the logits, softmax - the posterior occupancy of each class, which the registered
gradient scales by the loss's own gradient (as TF's does). A path needs L + (number of adjacent repeats) frames:
with fewer the loss is inf, or 0 (gradient 0) with ignore_longer_outputs_than_inputs.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.registry import apply_op, host_kernel, register
from ..platform.errors import InvalidArgumentError
from .array_ops import cast, concat, reshape, shape as shape_of, transpose
from .core_ops import convert_to_tensor
from .cwise_ops import logical_and
from .fill_ops import range as range_
from .gather_nd_ops import gather_nd, scatter_nd
from .mask_ops import sequence_mask
from .math_ops import less, not_equal, ones_like, where
from .reduction_ops import reduce_max, reduce_sum
from .segment_ops import boolean_mask
from .shape_ops import expand_dims
from .sparse_tensor import SparseTensor
from .tensor_util import constant_value, static_shape


def _log_add(a, b):
    big = np.maximum(a, b)
    with np.errstate(invalid="ignore"):
        return np.where(big == -np.inf, -np.inf, big + np.log1p(np.exp(-np.abs(a - b))))


def _one_loss(log_probs, labels, blank, merge_repeated):
    """(loss, gradient wrt the logits) of one sequence: log_probs [T, C] log-softmaxed. Without merge_repeated
    each frame of a label is a label of its own: a path may not stay on a label, and may step from a label
    straight to an equal next one."""
    steps, classes = log_probs.shape
    states = np.full(2 * len(labels) + 1, blank)
    states[1::2] = labels
    skip = np.zeros(len(states), bool)
    skip[2:] = (states[2:] != blank) & ((states[2:] != states[:-2]) | (not merge_repeated))
    stay = np.where(merge_repeated, True, states == blank)
    alpha = np.full((steps, len(states)), -np.inf)
    beta = np.full((steps, len(states)), -np.inf)
    if steps:
        alpha[0, :2] = log_probs[0, states[:2]]
        beta[-1, -2:] = log_probs[-1, states[-2:]]
    for t in range(1, steps):
        prev = alpha[t - 1]
        total = _log_add(np.where(stay, prev, -np.inf), np.concatenate([[-np.inf], prev[:-1]]))
        total = np.where(skip, _log_add(total, np.concatenate([[-np.inf, -np.inf], prev[:-2]])), total)
        alpha[t] = total + log_probs[t, states]
    skip_back = np.zeros(len(states), bool)
    skip_back[:-2] = skip[2:]
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        total = _log_add(np.where(stay, nxt, -np.inf), np.concatenate([nxt[1:], [-np.inf]]))
        total = np.where(skip_back, _log_add(total, np.concatenate([nxt[2:], [-np.inf, -np.inf]])), total)
        beta[t] = total + log_probs[t, states]
    log_p = _log_add(alpha[-1, -1], alpha[-1, -2]) if len(states) > 1 else alpha[-1, -1]
    if steps == 0 or log_p == -np.inf:
        return np.inf, np.zeros((steps, classes))
    occupancy = np.zeros((steps, classes))
    with np.errstate(under="ignore"):
        for s, k in enumerate(states):
            occupancy[:, k] += np.exp(alpha[:, s] + beta[:, s] - log_probs[:, k] - log_p)
    return -log_p, np.exp(log_probs) - occupancy


def _ctc_loss(logits, label_indices, label_values, lengths, preprocess_collapse_repeated, ctc_merge_repeated,
              ignore_longer_outputs_than_inputs, blank_index):
    steps, batch, classes = logits.shape
    blank = blank_index % classes if classes else 0
    x = logits.astype(np.float64)
    log_probs = x - np.max(x, -1, keepdims=True)
    log_probs = log_probs - np.log(np.exp(log_probs).sum(-1, keepdims=True))
    loss, grad = np.zeros(batch), np.zeros(x.shape)
    for b in range(batch):
        labels = label_values[label_indices[:, 0] == b].astype(np.int64)
        if np.any((labels < 0) | (labels >= classes)):
            raise InvalidArgumentError(f"CTCLoss: labels of batch {b} must lie in [0, {classes}), got "
                                       f"{labels.tolist()!r}")
        if preprocess_collapse_repeated and len(labels):
            labels = labels[np.concatenate([[True], labels[1:] != labels[:-1]])]
        n = int(lengths[b])
        if not 0 <= n <= steps:
            raise InvalidArgumentError(f"CTCLoss: sequence_length({b}) = {n} must lie in [0, {steps}]")
        needed = len(labels) + int(np.sum(labels[1:] == labels[:-1]))
        if needed > n and ignore_longer_outputs_than_inputs:
            continue
        if len(labels) > n:
            raise InvalidArgumentError(f"Not enough time for target transition sequence (required: {len(labels)}, "
                                       f"available: {n}), batch {b}: make sequence_length longer or pass "
                                       f"ignore_longer_outputs_than_inputs=True")
        loss[b], grad[:n, b] = _one_loss(log_probs[:n, b], labels, blank, ctc_merge_repeated)
    return loss.astype(logits.dtype), grad.astype(logits.dtype)


def _loss_infer(logits, indices, values, lengths, **attrs):
    shape = static_shape(logits)
    return [(None if shape is None else (shape[1],), logits.dtype), (logits.shape, logits.dtype)]


def _loss_grad(op, grad_loss, _):
    return [op.outputs[1] * grad_loss[None, :, None], None, None, None]


register("CTCLoss", kernel=host_kernel(_ctc_loss), infer=_loss_infer, grad=_loss_grad, fresh=True)


def _time_major(x, time_major):
    return x if time_major else transpose(x, [1, 0, 2])


def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
             ignore_longer_outputs_than_inputs=False, time_major=True, logits=None):
    """[batch] -log p(labels | inputs): labels a SparseTensor of int32 class ids, inputs the unnormalized logits
    [max_time, batch, num_classes] (time_major) whose last class is the blank."""
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected labels (first argument) to be a SparseTensor")
    if (inputs is None) == (logits is None):
        raise ValueError("ctc_loss takes one of inputs and logits (the same argument under two names)")
    return _loss(labels, inputs if logits is None else logits, sequence_length, preprocess_collapse_repeated,
                 ctc_merge_repeated, ignore_longer_outputs_than_inputs, time_major, -1, "CTCLoss")


def _loss(labels, logits, lengths, collapse, merge, ignore, time_major, blank, name):
    with name_scope(name):
        x = convert_to_tensor(logits)
        if x.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"ctc_loss takes float32 or float64 logits, got {x.name!r} of dtype {x.dtype.name}")
        if x.ndim not in (None, 3):
            raise ValueError(f"ctc_loss: logits must be 3-D [max_time, batch, num_classes], got shape {x.shape}")
        x = _time_major(x, time_major)
        values = cast(labels.values, dtypes.int32)
        loss, _ = apply_op("CTCLoss", [x, labels.indices, values, cast(convert_to_tensor(lengths), dtypes.int32)],
                           name="CTCLoss", preprocess_collapse_repeated=bool(collapse), ctc_merge_repeated=bool(merge),
                           ignore_longer_outputs_than_inputs=bool(ignore), blank_index=int(blank))
        return loss


def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
                name=None):
    """ctc_loss with labels either a SparseTensor (blank_index required) or dense [batch, max_label_length] with
    label_length (blank_index 0 by default)."""
    with name_scope(name or "ctc_loss_dense"):
        x = convert_to_tensor(logits)
        classes = (static_shape(x) or (None,) * 3)[2]
        if isinstance(labels, SparseTensor):
            if blank_index is None:
                raise ValueError("Argument `blank_index` must be provided when labels is a SparseTensor.")
        else:
            blank_index = 0 if blank_index is None else blank_index
            dense = convert_to_tensor(labels)
            positions = where(sequence_mask(label_length, maxlen=(static_shape(dense) or (None, None))[1]))
            labels = SparseTensor(positions, gather_nd(dense, positions), cast(shape_of(dense), dtypes.int64))
        if classes is None:
            raise ValueError(f"ctc_loss_v2 needs the number of classes known while building, got {x.shape}")
        blank_index = blank_index + classes if blank_index < 0 else blank_index
        if blank_index != classes - 1:  # the blank moved last, the classes above it down one, as TF does
            x = concat([x[:, :, :blank_index], x[:, :, blank_index + 1:], x[:, :, blank_index:blank_index + 1]], 2)
            values = where(less(labels.values, blank_index), labels.values, labels.values - 1)
            labels = SparseTensor(labels.indices, values, labels.dense_shape)
        return _loss(labels, x, logit_length, False, True, False, logits_time_major, -1, "CTCLoss")


def _greedy(logits, lengths, merge_repeated, blank_index):
    steps, batch, classes = logits.shape
    blank = blank_index % classes if classes else 0
    best = np.argmax(logits, -1) if classes else np.zeros((steps, batch), np.int64)
    rows, log_prob = [], np.zeros((batch, 1), logits.dtype)
    for b in range(batch):
        n = int(lengths[b])
        path = best[:n, b]
        log_prob[b, 0] = -np.sum(np.max(logits[:n, b], -1)) if n and classes else 0
        keep = path != blank
        if merge_repeated and n:
            keep &= np.concatenate([[True], path[1:] != path[:-1]])
        rows.append(path[keep])
    width = max((len(r) for r in rows), default=0)
    indices = np.array([[b, i] for b, r in enumerate(rows) for i in range(len(r))], np.int64).reshape(-1, 2)
    values = np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, np.int64)
    return indices, values, np.array([batch, width], np.int64), log_prob


def _greedy_infer(logits, lengths, merge_repeated, blank_index):
    batch = (static_shape(logits) or (None,) * 3)[1]
    return [((None, 2), dtypes.int64), ((None,), dtypes.int64), ((2,), dtypes.int64), ((batch, 1), logits.dtype)]


register("CTCGreedyDecoder", kernel=host_kernel(_greedy), infer=_greedy_infer, fresh=True)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """([decoded], neg_sum_logits): each frame's most likely class (the first on ties), repeats merged, blanks
    (the last class, or blank_index) dropped, as a SparseTensor; and -sum over frames of the chosen logits."""
    x = convert_to_tensor(inputs)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"ctc_greedy_decoder takes float32 or float64 inputs, got {x.name!r} of {x.dtype.name}")
    indices, values, shape, log_prob = apply_op(
        "CTCGreedyDecoder", [x, cast(convert_to_tensor(sequence_length), dtypes.int32)], name="CTCGreedyDecoder",
        merge_repeated=bool(merge_repeated), blank_index=-1 if blank_index is None else int(blank_index))
    return [SparseTensor(indices, values, shape)], log_prob


def _folded_maxlen(labels, seq_length):
    """The collapsed labels' length when both inputs are constants (TF's shape inference folds it), else None."""
    rows, lengths = constant_value(labels), constant_value(seq_length)
    if rows is None or lengths is None:
        return None
    kept = [1 + int(np.sum(row[1:n] != row[:n - 1])) if n else 0 for row, n in zip(rows, lengths)]
    return max(kept, default=0)


def collapse_repeated(labels, seq_length, name=None):
    """(labels with each run of a repeated label collapsed to one, left-aligned and 0-padded to the longest,
    the new lengths)."""
    with name_scope(name or "collapse_repeated_labels"):
        labels = convert_to_tensor(labels)
        seq_length = convert_to_tensor(seq_length)
        label_mask = concat([ones_like(labels[:, :1], dtype=dtypes.bool), not_equal(labels[:, 1:], labels[:, :-1])],
                            axis=1)
        maxlen = (static_shape(labels) or (None, None))[1]
        label_mask = logical_and(label_mask, sequence_mask(seq_length, maxlen=maxlen if maxlen is not None
                                                           else shape_of(labels)[1]))
        new_seq_len = reduce_sum(cast(label_mask, dtypes.int32), axis=1)
        new_maxlen = _folded_maxlen(labels, seq_length)
        new_maxlen = reduce_max(new_seq_len) if new_maxlen is None else new_maxlen
        idx_mask = reshape(sequence_mask(new_seq_len, maxlen=new_maxlen), [-1])
        idx = range_(shape_of(idx_mask)[0])
        flat = scatter_nd(expand_dims(boolean_mask(idx, idx_mask), 1),
                          boolean_mask(reshape(labels, [-1]), reshape(label_mask, [-1])), shape_of(idx_mask))
        batch = (static_shape(labels) or (None,))[0]
        return reshape(flat, [batch if batch is not None else -1, new_maxlen]), cast(new_seq_len, seq_length.dtype)
