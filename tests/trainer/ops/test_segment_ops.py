"""segment_sum/mean, unsorted_segment_sum and boolean_mask against numpy."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op

RNG = np.random.default_rng(7)


def _run(fetch, feed=None):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetch, feed)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


def test_segment_sum_and_mean():
    data = RNG.standard_normal((5, 2))
    ids = np.array([0, 0, 2, 2, 3], np.int32)

    def segment(a, mean):
        out = np.zeros((4, 2))
        for r, i in zip(a, ids):
            out[i] += r
        counts = np.maximum(np.bincount(ids, minlength=4), 1)[:, None]
        return out / counts if mean else out
    check_op(lambda d, i: tg.math.segment_sum(d, i), [data, ids], numpy_fn=lambda d, i: segment(d, False))
    check_op(lambda d, i: tg.math.segment_mean(d, i), [data, ids], numpy_fn=lambda d, i: segment(d, True))
    with pytest.raises(tg.errors.InvalidArgumentError, match="sorted"):
        _run(tg.segment_sum(tg.constant(data), tg.constant([1, 0, 0, 0, 0])))


def test_unsorted_segment_sum():
    data = RNG.standard_normal((2, 3, 2))
    ids = np.array([[2, 0, -1], [0, 2, 1]], np.int32)

    def reference(d, i):
        out = np.zeros((4, 2))
        for idx in np.ndindex(i.shape):
            if i[idx] >= 0:
                out[i[idx]] += d[idx]
        return out
    check_op(lambda d, i: tg.unsorted_segment_sum(d, i, 4), [data, ids], numpy_fn=reference,
             torch_fn=None)
    with pytest.raises(tg.errors.InvalidArgumentError, match="segment id 5 is not in"):
        _run(tg.unsorted_segment_sum(tg.constant(data), tg.constant(ids + 3), 4))


def test_boolean_mask():
    x = RNG.standard_normal((3, 4, 2))
    mask2 = np.array([[True, False, True, True], [False] * 4, [True, True, False, False]])
    check_op(lambda t, m: tg.boolean_mask(t, m), [x, mask2], numpy_fn=lambda t, m: t[m])
    mask1 = np.array([False, True, True, False])
    check_op(lambda t, m: tg.boolean_mask(t, m, axis=1), [x, mask1], numpy_fn=lambda t, m: t[:, m])
    x_t = tg.placeholder(tg.float32, [None, 4])
    masked = tg.boolean_mask(x_t, x_t > 0)
    assert masked.shape.as_list() == [None]
    with pytest.raises(ValueError, match="does not match"):
        tg.boolean_mask(x_t, tg.constant([[True, False]]))
