"""tf.IndexedSlices: TF's class, made dense (rows at repeated indices summed) wherever a Tensor is wanted and fetched
as an IndexedSlicesValue; ringflow's own gradients stay dense, and as_slices reads a gather's as TF's slices."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)
from trainer.ops.indexed_slices import as_slices


def test_slices_become_their_dense_tensor_and_are_fetched_as_values():
    values = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    slices = tg.IndexedSlices(tg.constant(values), tg.constant([2, 0, 2]), tg.constant([4, 2]))
    dense = tg.convert_to_tensor(slices)
    assert slices.shape == (4, 2) and dense.shape == (4, 2) and slices.dtype == tg.float32
    with tg.Session() as sess:
        got, fetched, plus = sess.run([dense, slices, tg.add(slices, 1.0)])
    np.testing.assert_array_equal(got, [[3.0, 4.0], [0.0, 0.0], [6.0, 8.0], [0.0, 0.0]])
    assert isinstance(fetched, tg.IndexedSlicesValue) and fetched.indices.tolist() == [2, 0, 2]
    np.testing.assert_array_equal(plus, got + 1.0)


def test_slices_without_a_dense_shape_cannot_be_made_dense_and_gradients_are_never_slices():
    slices = tg.IndexedSlices(tg.constant([[1.0]]), tg.constant([0]))
    assert slices.shape.ndims is None
    with pytest.raises(ValueError, match="without dense_shape"):
        tg.convert_to_tensor(slices)
    params = tg.constant([[1.0], [2.0]])
    grad = tg.gradients(tg.gather(params, [1, 1]), params)[0]
    assert not isinstance(grad, tg.IndexedSlices)


def test_a_gathers_gradient_reads_as_tfs_slices_through_sums_identities_and_scalings():
    table = tg.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
    ids = tg.constant([[3, 1], [3, 3]])
    first = tg.gradients(tg.reduce_sum(tg.gather(table, ids) * 2.0), [table])[0]
    twice = tg.gradients(tg.reduce_sum(tg.gather(table, [0])) + tg.reduce_sum(tg.gather(table, [2, 0])), [table])[0]
    found = [as_slices(g) for g in (first, tg.identity(first * tg.constant(0.5)), twice)]
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        got = sess.run([(s.values, s.indices) for s in found])
    assert [sorted(i.tolist()) for _, i in got] == [[1, 3, 3, 3], [1, 3, 3, 3], [0, 0, 2]]
    np.testing.assert_array_equal(got[0][0], np.full((4, 3), 2.0))
    np.testing.assert_array_equal(got[1][0], np.ones((4, 3)))
    dense = tg.gradients(tg.reduce_sum(table * table), [table])[0]
    by_columns = tg.gradients(tg.reduce_sum(tg.gather(table, [0, 2], axis=1)), [table])[0]
    assert [as_slices(g) for g in (dense, first * tg.ones([4, 3]), by_columns, first + dense)] == [None] * 4


def test_global_norm_of_a_gathers_gradient_counts_each_named_row_as_tf():
    table = tg.Variable(np.ones((4, 3), np.float32))
    grad = tg.gradients(tg.reduce_sum(tg.gather(table, [1, 1, 2])), [table])[0]
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        norm, dense = sess.run([tg.linalg.global_norm([grad]), tg.norm(grad)])
    assert norm == pytest.approx(3.0) and dense == pytest.approx(np.sqrt(15.0))  # TF: the 3 values' rows, not 2 + 2
