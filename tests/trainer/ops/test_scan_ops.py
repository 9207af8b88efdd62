"""cumsum and cumprod (exclusive, reverse) against numpy and numerical gradients."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_cumprod(exclusive, reverse):
    x = RNG.uniform(0.5, 1.5, (3, 4))

    def reference(a, axis, fn, identity):
        a = np.flip(a, axis) if reverse else a
        out = fn(a, axis=axis)
        if exclusive:
            out = np.concatenate([np.full_like(np.take(out, [0], axis), identity),
                                  np.take(out, range(a.shape[axis] - 1), axis)], axis)
        return np.flip(out, axis) if reverse else out
    for axis in (0, 1, -1):
        check_op(lambda t: tg.cumsum(t, axis=axis, exclusive=exclusive, reverse=reverse), [x],
                 numpy_fn=lambda a: reference(a, axis, np.cumsum, 0))
        check_op(lambda t: tg.math.cumprod(t, axis=axis, exclusive=exclusive, reverse=reverse), [x],
                 numpy_fn=lambda a: reference(a, axis, np.cumprod, 1))
