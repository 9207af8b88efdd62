"""Keras' CTC functions on tf.nn's CTC ops: the dense labels as the SparseTensor ctc_loss takes, the batch's loss,
and greedy decoding back to dense label rows (-1 past each row's end), as TF 1.15's backend computes them."""
from ...framework import dtypes
from ...ops.array_ops import cast, shape, transpose
from ...ops.ctc_ops import ctc_greedy_decoder, ctc_loss
from ...ops.gather_nd_ops import gather_nd
from ...ops.mask_ops import sequence_mask
from ...ops.math_ops import log, where
from ...ops.shape_ops import expand_dims, squeeze
from ...ops.sparse_ops import sparse_to_dense
from ...ops.sparse_tensor import SparseTensor
from .config import epsilon


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first label_lengths[i] labels of each row of `labels` (batch, max_labels) as a SparseTensor, row by row."""
    dense_shape = shape(labels)
    indices = where(sequence_mask(label_lengths, maxlen=dense_shape[1]))
    return SparseTensor(indices, gather_nd(labels, indices), cast(dense_shape, dtypes.int64))


def _time_major_log(y_pred):
    return log(transpose(y_pred, [1, 0, 2]) + epsilon())


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """Each sample's CTC loss, (batch, 1): y_pred (batch, time, classes) holds softmax outputs, the last class the
    blank; input_length and label_length are (batch, 1)."""
    label_length = cast(squeeze(label_length, axis=-1), dtypes.int32)
    input_length = cast(squeeze(input_length, axis=-1), dtypes.int32)
    sparse = ctc_label_dense_to_sparse(y_true, label_length)
    labels = SparseTensor(sparse.indices, cast(sparse.values, dtypes.int32), sparse.dense_shape)
    return expand_dims(ctc_loss(labels, _time_major_log(y_pred), input_length), 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """([decoded (samples, time_steps), -1 past each row's end], log probabilities (batch, 1)) of the best path per
    frame: the shape Keras documents (TF 2.15 pads so; the recorded oracle); beam search (greedy=False) needs tf.nn's
    beam-search decoder, which ringflow lacks."""
    if not greedy:
        raise NotImplementedError("ctc_decode(greedy=False) decodes by beam search, and ringflow's tf.nn has no "
                                  "ctc_beam_search_decoder: decode with greedy=True")
    samples_and_steps = cast(shape(y_pred)[:2], dtypes.int64)
    decoded, log_prob = ctc_greedy_decoder(_time_major_log(y_pred), cast(input_length, dtypes.int32))
    dense = [sparse_to_dense(st.indices, samples_and_steps, st.values, default_value=-1) for st in decoded]
    return dense, log_prob
