"""tf.IndexedSlices: TF's class, made dense (rows at repeated indices summed) wherever a Tensor is wanted and fetched
as an IndexedSlicesValue; ringflow's own gradients stay dense."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


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
