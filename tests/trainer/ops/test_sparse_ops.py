"""SparseTensor and tf.sparse's ops against numpy on the dense tensors they stand for, gradients numerically."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, fresh_graph, run_initialized  # noqa: F401 (fresh_graph: autouse)

INDICES = np.array([[0, 1], [1, 3], [2, 0]], np.int64)
SHAPE = np.array([3, 4], np.int64)
RNG = np.random.default_rng(3)


def dense(indices, values, shape):
    out = np.zeros(shape, values.dtype)
    out[tuple(indices.T)] = values
    return out


def sparse(values, indices=INDICES, shape=SHAPE):
    return tg.SparseTensor(indices, values, shape)


def test_session_fetches_a_sparse_tensor_as_a_sparse_tensor_value_and_feeds_one():
    sp = sparse(tg.constant([1.0, 2.0, 3.0]))
    assert sp.shape.as_list() == [3, 4] and sp.dtype == tg.float32 and sp.indices.dtype == tg.int64
    got = run_initialized(sp)
    assert isinstance(got, tg.SparseTensorValue)
    np.testing.assert_array_equal(got.indices, INDICES)
    np.testing.assert_array_equal(got.dense_shape, SHAPE)
    ph = tg.sparse_placeholder(tg.float32)
    assert ph.shape.ndims is None
    fed = tg.SparseTensorValue(INDICES[:2], np.array([5.0, 6.0], np.float32), SHAPE)
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(tg.sparse.to_dense(ph), {ph: fed}),
                                      dense(INDICES[:2], np.array([5.0, 6.0]), SHAPE))
        np.testing.assert_array_equal(sess.run(tg.sparse_tensor_to_dense(ph), {ph: tuple(fed)}),
                                      dense(INDICES[:2], np.array([5.0, 6.0]), SHAPE))
    with pytest.raises(ValueError, match="must be int64"):
        tg.SparseTensor(tg.constant(INDICES, tg.int32), [1.0, 2.0, 3.0], SHAPE)


def test_to_dense_and_sparse_to_dense_with_their_gradients():
    values = RNG.standard_normal(3)
    check_op(lambda v: tg.sparse.to_dense(sparse(v)), [values], numpy_fn=lambda v: dense(INDICES, v, SHAPE))
    check_op(lambda v, d: tg.sparse_to_dense(INDICES, SHAPE, v, default_value=d), [values, np.array(1.5)],
             numpy_fn=lambda v, d: np.where(dense(INDICES, np.ones(3), SHAPE) > 0, dense(INDICES, v, SHAPE), d))
    assert tg.sparse.to_dense(sparse([1, 2, 3])).shape.as_list() == [3, 4]
    with pytest.raises(tg.errors.InvalidArgumentError, match="out of order"):
        run_initialized(tg.sparse.to_dense(sparse([1, 2, 3], INDICES[::-1])))
    with pytest.raises(tg.errors.InvalidArgumentError, match="out of bounds"):
        run_initialized(tg.sparse.to_dense(sparse([1, 2, 3], INDICES + 3)))


def test_from_dense_keeps_the_non_zero_entries_in_row_major_order():
    x = np.array([[0, 2, 0], [3, 0, 4]], np.int32)
    got = run_initialized(tg.sparse.from_dense(x))
    np.testing.assert_array_equal(got.indices, np.argwhere(x))
    np.testing.assert_array_equal(got.values, x[x != 0])
    np.testing.assert_array_equal(got.dense_shape, x.shape)
    # the values' gradient lands on the non-zero entries (a numerical check would move the zeros)
    d = tg.constant(np.array([[1.5, 0.0, 2.0], [0.0, -1.0, 0.0]]))
    weights = tg.constant([1.0, 2.0, 3.0], tg.float64)
    grad, = tg.gradients(tg.reduce_sum(tg.sparse.from_dense(d).values * weights), [d])
    np.testing.assert_array_equal(run_initialized(grad), [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])


def test_reorder_reshape_transpose_and_retain():
    shuffled = INDICES[[2, 0, 1]]
    values = RNG.standard_normal(3)
    ordered = run_initialized(tg.sparse.reorder(sparse(tg.constant(values), shuffled)))
    np.testing.assert_array_equal(ordered.indices, INDICES)
    np.testing.assert_array_equal(ordered.values, values[[1, 2, 0]])
    check_op(lambda v: tg.sparse.to_dense(tg.sparse.reorder(sparse(v, shuffled))), [values],
             numpy_fn=lambda v: dense(shuffled, v, SHAPE))
    reshaped = tg.sparse.reshape(sparse([1.0, 2.0, 3.0]), [2, -1])
    assert reshaped.shape.as_list() == [2, 6]
    np.testing.assert_array_equal(run_initialized(tg.sparse.to_dense(reshaped)),
                                  dense(INDICES, np.array([1.0, 2.0, 3.0]), SHAPE).reshape(2, 6))
    with pytest.raises(ValueError, match="Cannot reshape"):
        tg.sparse.reshape(sparse([1.0, 2.0, 3.0]), [5])
    transposed = tg.sparse.transpose(sparse([1.0, 2.0, 3.0]))
    assert transposed.shape.as_list() == [4, 3]
    np.testing.assert_array_equal(run_initialized(tg.sparse.to_dense(transposed)),
                                  dense(INDICES, np.array([1.0, 2.0, 3.0]), SHAPE).T)
    kept = run_initialized(tg.sparse.retain(sparse([1.0, 2.0, 3.0]), [True, False, True]))
    np.testing.assert_array_equal(kept.indices, INDICES[[0, 2]])
    np.testing.assert_array_equal(kept.values, [1.0, 3.0])


def test_add_sparse_to_sparse_and_to_dense_with_gradients():
    a, b = RNG.standard_normal(3), RNG.standard_normal(2)
    other = np.array([[0, 1], [2, 2]], np.int64)
    expected = dense(INDICES, np.ones(3), SHAPE) * 0

    def both(x, y):
        return tg.sparse.to_dense(tg.sparse.add(sparse(x), sparse(y, other)))
    check_op(both, [a, b], numpy_fn=lambda x, y: expected + dense(INDICES, x, SHAPE) + dense(other, y, SHAPE))
    d = RNG.standard_normal((3, 4))
    check_op(lambda x, y: tg.sparse.add(sparse(x), y), [a, d], numpy_fn=lambda x, y: dense(INDICES, x, SHAPE) + y)
    small = run_initialized(tg.sparse_add(sparse([1.0, 2.0, 3.0]), sparse([-0.95, 1.0], other), threshold=0.1))
    np.testing.assert_array_equal(small.indices, [[1, 3], [2, 0], [2, 2]])
    with pytest.raises(ValueError, match="incompatible"):
        tg.sparse.add(sparse([1.0, 2.0, 3.0]), sparse([1.0, 2.0], other, [3, 5]))
    fed = tg.sparse_placeholder(tg.float32)
    with pytest.raises(tg.errors.InvalidArgumentError, match="same dense shape"), tg.Session() as sess:
        sess.run(tg.sparse.add(sparse(tg.constant([1.0, 2.0, 3.0])), fed),
                 {fed: tg.SparseTensorValue(other, np.ones(2, np.float32), [3, 5])})


def test_concat_reduce_sum_and_fill_empty_rows():
    values = RNG.standard_normal(3)
    joined = tg.sparse.concat(1, [sparse([1.0, 2.0, 3.0]), sparse([4.0, 5.0, 6.0])])
    assert joined.shape.as_list() == [3, 8]
    want = np.concatenate([dense(INDICES, np.array([1.0, 2.0, 3.0]), SHAPE),
                           dense(INDICES, np.array([4.0, 5.0, 6.0]), SHAPE)], axis=1)
    np.testing.assert_array_equal(run_initialized(tg.sparse.to_dense(joined)), want)
    for axis, keepdims in ((None, False), (1, False), (0, True)):
        check_op(lambda v: tg.sparse.reduce_sum(sparse(v), axis=axis, keepdims=keepdims), [values],
                 numpy_fn=lambda v: dense(INDICES, v, SHAPE).sum(axis=axis, keepdims=keepdims))
    rows = np.array([[0, 0], [2, 1]], np.int64)
    filled, empty = tg.sparse.fill_empty_rows(sparse(tg.constant([1.0, 2.0]), rows), -1.0)
    got, was_empty = run_initialized([filled, empty])
    np.testing.assert_array_equal(got.indices, [[0, 0], [1, 0], [2, 1]])
    np.testing.assert_array_equal(got.values, [1.0, -1.0, 2.0])
    np.testing.assert_array_equal(was_empty, [False, True, False])
    check_op(lambda v, d: tg.sparse.to_dense(tg.sparse.fill_empty_rows(sparse(v, rows), d)[0]),
             [RNG.standard_normal(2), np.array(0.5)],
             numpy_fn=lambda v, d: dense(np.array([[0, 0], [1, 0], [2, 1]]), np.array([v[0], d, v[1]]), SHAPE))


@pytest.mark.parametrize("adjoint_a,adjoint_b", [(False, False), (True, False), (False, True), (True, True)])
def test_sparse_dense_matmul_and_its_gradients(adjoint_a, adjoint_b):
    values = RNG.standard_normal(3)
    b = RNG.standard_normal((2, 4) if adjoint_b else (4, 2)) if not adjoint_a else RNG.standard_normal(
        (2, 3) if adjoint_b else (3, 2))

    def reference(v, m):
        a = dense(INDICES, v, SHAPE)
        return (a.T if adjoint_a else a) @ (m.T if adjoint_b else m)
    check_op(lambda v, m: tg.sparse.sparse_dense_matmul(sparse(v), m, adjoint_a=adjoint_a, adjoint_b=adjoint_b),
             [values, b], numpy_fn=reference)


def test_maximum_minimum_softmax_and_the_segment_reductions():
    other = np.array([[0, 1], [2, 2]], np.int64)
    a, b = sparse(tg.constant([1.0, -2.0, 3.0])), sparse(tg.constant([5.0, -1.0]), other)
    want_a, want_b = dense(INDICES, np.array([1.0, -2.0, 3.0]), SHAPE), dense(other, np.array([5.0, -1.0]), SHAPE)
    np.testing.assert_array_equal(run_initialized(tg.sparse.to_dense(tg.sparse.maximum(a, b))),
                                  np.maximum(want_a, want_b))
    np.testing.assert_array_equal(run_initialized(tg.sparse.to_dense(tg.sparse.minimum(a, b))),
                                  np.minimum(want_a, want_b))
    rows = np.array([[0, 0], [0, 2], [2, 1]], np.int64)

    def softmax(v):
        out = np.array(v, dtype=float)
        out[:2] = np.exp(v[:2]) / np.exp(v[:2]).sum()
        out[2] = 1.0
        return out
    check_op(lambda v: tg.sparse.softmax(sparse(v, rows)).values, [RNG.standard_normal(3)], numpy_fn=softmax)
    data = RNG.standard_normal((4, 2))
    picked, ids = np.array([3, 0, 2]), np.array([0, 0, 1])
    check_op(lambda d: tg.sparse.segment_sum(d, picked, ids), [data],
             numpy_fn=lambda d: np.stack([d[3] + d[0], d[2]]))
    check_op(lambda d: tg.sparse.segment_mean(d, picked, ids), [data],
             numpy_fn=lambda d: np.stack([(d[3] + d[0]) / 2, d[2]]))
    check_op(lambda d: tg.sparse.segment_sqrt_n(d, picked, ids, num_segments=3), [data],
             numpy_fn=lambda d: np.stack([(d[3] + d[0]) / np.sqrt(2), d[2], 0 * d[2]]))
    with pytest.raises(tg.errors.InvalidArgumentError, match="not increasing"):
        run_initialized(tg.sparse.segment_sum(data, picked, [1, 0, 0], num_segments=2))


def test_reduce_max_and_the_sparse_reductions_take_only_the_entries_present():
    sp = sparse(tg.constant([-1.0, -3.0, 2.0]), np.array([[0, 1], [2, 0], [2, 2]], np.int64))
    assert run_initialized(tg.sparse.reduce_max(sp, 1)).tolist() == [-1.0, 0.0, 2.0]  # 0 where a row is empty
    got = run_initialized(tg.sparse.reduce_sum_sparse(sp, 1))
    assert got.indices.tolist() == [[0], [2]] and got.values.tolist() == [-1.0, -1.0]
    assert run_initialized(tg.sparse.reduce_max_sparse(sp, 0)).values.tolist() == [-3.0, -1.0, 2.0]


def test_edit_distance_between_sparse_sequences():
    words = [[b"b", b"e", b"a", b"r"], [b"b", b"e", b"e", b"r", b"s"]]
    hypothesis = tg.sparse.from_dense(tg.constant([words[0] + [b""]]))
    truth = tg.sparse.from_dense(tg.constant([words[1]]))
    assert run_initialized(tg.edit_distance(hypothesis, truth, normalize=False)).tolist() == [2.0]
    np.testing.assert_allclose(run_initialized(tg.edit_distance(hypothesis, truth)), [2.0 / 5])
