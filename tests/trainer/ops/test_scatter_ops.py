"""scatter_update/add/sub/mul/div/max/min update a variable in place, as numpy's indexing does."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)

RNG = np.random.default_rng(7)


@pytest.mark.parametrize("fn, apply", [
    (tg.scatter_update, lambda v, i, u: v.__setitem__(i, u)),
    (tg.scatter_add, np.add.at), (tg.scatter_sub, np.subtract.at), (tg.scatter_mul, np.multiply.at),
    (tg.scatter_div, np.divide.at), (tg.scatter_max, np.maximum.at), (tg.scatter_min, np.minimum.at)])
def test_scatter_ops_update_in_place(fn, apply):
    init = RNG.uniform(1, 2, (4, 2)).astype(np.float32)
    indices = np.array([3, 1, 3] if fn is not tg.scatter_update else [3, 1], np.int32)
    updates = RNG.uniform(1, 2, (len(indices), 2)).astype(np.float32)
    v = tg.Variable(init, name="table")
    op = fn(v, indices, updates)
    expected = init.copy()
    apply(expected, indices, updates)
    with tg.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_allclose(sess.run(op), expected, rtol=1e-6)
        np.testing.assert_allclose(sess.run(v), expected, rtol=1e-6)
        bad = fn(v, [7], updates[:1])
        with pytest.raises(tg.errors.InvalidArgumentError, match="indices 7 is not in \\[0, 4\\).*'table'"):
            sess.run(bad)
    with pytest.raises(TypeError, match="tg.Variable"):
        fn(tg.constant(init), indices, updates)


@pytest.mark.parametrize("fn, apply", [(tg.scatter_nd_update, None), (tg.scatter_nd_add, np.add.at),
                                       (tg.scatter_nd_sub, np.subtract.at)])
def test_scatter_nd_ops_update_slices_of_a_variable_in_place(fn, apply):
    init = RNG.uniform(1, 2, (4, 3, 2)).astype(np.float32)
    indices = np.array([[3, 1], [0, 2], [3, 1]] if apply else [[3, 1], [0, 2]], np.int64)
    updates = RNG.uniform(1, 2, (len(indices), 2)).astype(np.float32)
    v = tg.Variable(init, name="table")
    op = fn(v, indices, updates)
    expected = init.copy()
    if apply:
        apply(expected, tuple(indices.T), updates)
    else:
        expected[tuple(indices.T)] = updates
    with tg.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_allclose(sess.run(op), expected, rtol=1e-6)
        np.testing.assert_allclose(sess.run(v), expected, rtol=1e-6)
        with pytest.raises(tg.errors.InvalidArgumentError, match="indices\\[1, 5\\] does not index.*'table'"):
            sess.run(fn(v, [[1, 5]], updates[:1]))


@pytest.mark.parametrize("fn, reduce", [(tg.tensor_scatter_nd_max, np.maximum.at),
                                        (tg.tensor_scatter_nd_min, np.minimum.at)])
def test_tensor_scatter_nd_max_and_min_keep_the_extreme_and_route_its_gradient(fn, reduce):
    tensor = np.array([1.0, 5.0, 3.0, 4.0])
    updates = np.array([2.0, 2.0, 4.0, 0.5])
    indices = [[0], [1], [3], [2]]
    x, u = tg.constant(tensor), tg.constant(updates)
    out = fn(x, indices, u)
    g_x, g_u = tg.gradients(out, [x, u])
    expected = tensor.copy()
    reduce(expected, np.array(indices)[:, 0], updates)
    with tg.Session() as sess:
        got, gx, gu = sess.run([out, g_x, g_u])
    np.testing.assert_array_equal(got, expected)
    from_x = expected == tensor
    from_u = updates == expected[np.array(indices)[:, 0]]
    shares = from_x + np.bincount(np.array(indices)[:, 0], from_u, minlength=4)
    np.testing.assert_allclose(gx, from_x / shares)
    np.testing.assert_allclose(gu, from_u / shares[np.array(indices)[:, 0]])


def test_batch_scatter_update_writes_each_batchs_rows():
    init = RNG.uniform(1, 2, (2, 3, 2)).astype(np.float32)
    indices = np.array([[2, 0], [1, 2]])
    updates = -RNG.uniform(1, 2, (2, 2, 2)).astype(np.float32)
    v = tg.Variable(init)
    op = tg.batch_scatter_update(v, indices, updates)
    expected = init.copy()
    for b in range(2):
        expected[b, indices[b]] = updates[b]
    with tg.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(op), expected)
    with pytest.raises(ValueError, match="known rank"):
        tg.batch_scatter_update(v, tg.placeholder(tg.int32), updates)
