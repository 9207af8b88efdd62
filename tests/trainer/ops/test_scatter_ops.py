"""scatter_update/add/sub/mul/div/max/min update a variable in place, as numpy's indexing does."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


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
