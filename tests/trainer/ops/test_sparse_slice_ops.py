"""tf.sparse's slice, split, expand_dims, to_indicator, reset_shape and eye against numpy on the dense tensors."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, fresh_graph, run_initialized  # noqa: F401 (fresh_graph: autouse)

INDICES = np.array([[0, 1], [1, 0], [1, 3], [2, 2]], np.int64)
SHAPE = np.array([3, 4], np.int64)


def dense(value):
    out = np.zeros(value.dense_shape, value.values.dtype)
    out[tuple(value.indices.T)] = value.values
    return out


def sparse(values):
    return tg.SparseTensor(INDICES, values, SHAPE)


def test_slice_and_split_cut_the_dense_tensor_and_slice_passes_gradients_back():
    whole = dense(run_initialized(sparse(tg.constant([1.0, 2.0, 3.0, 4.0]))))
    np.testing.assert_array_equal(dense(run_initialized(tg.sparse.slice(sparse([1.0, 2.0, 3.0, 4.0]), [1, 1],
                                                                        [5, 2]))), whole[1:, 1:3])
    pieces = run_initialized(tg.sparse.split(sp_input=sparse([1.0, 2.0, 3.0, 4.0]), num_split=3, axis=1))
    np.testing.assert_array_equal(np.concatenate([dense(p) for p in pieces], axis=1), whole)
    assert [p.dense_shape.tolist() for p in pieces] == [[3, 2], [3, 1], [3, 1]]
    check_op(lambda v: tg.sparse.to_dense(tg.sparse.slice(sparse(v), [1, 0], [2, 4])),
             [np.array([1.0, 2.0, 3.0, 4.0])], numpy_fn=lambda v: dense(tg.SparseTensorValue(INDICES, v, SHAPE))[1:])


def test_expand_dims_to_indicator_reset_shape_and_eye():
    expanded = tg.sparse.expand_dims(sparse([1.0, 2.0, 3.0, 4.0]), 1)
    assert expanded.shape.as_list() == [3, 1, 4]
    whole = dense(run_initialized(sparse(tg.constant([1.0, 2.0, 3.0, 4.0]))))
    np.testing.assert_array_equal(dense(run_initialized(expanded)), whole[:, None, :])
    ids = tg.SparseTensor([[0, 0], [0, 1], [2, 0]], tg.constant([4, 1, 0], tg.int64), [3, 2])
    indicator = tg.sparse.to_indicator(ids, 5)
    assert indicator.shape.as_list() == [3, 5]
    assert run_initialized(indicator).tolist() == [[False, True, False, False, True], [False] * 5,
                                                  [True, False, False, False, False]]
    with pytest.raises(tg.errors.InvalidArgumentError, match="vocab_size"):
        run_initialized(tg.sparse.to_indicator(ids, 3))
    assert run_initialized(tg.sparse.reset_shape(sparse([1.0, 2.0, 3.0, 4.0]))).dense_shape.tolist() == [3, 4]
    fed = tg.placeholder(tg.int64, [2])
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="at least as large"):
        sess.run(tg.sparse.reset_shape(sparse([1.0, 2.0, 3.0, 4.0]), fed), {fed: [2, 9]})
    np.testing.assert_array_equal(dense(run_initialized(tg.sparse.eye(2, 3))), np.eye(2, 3))
