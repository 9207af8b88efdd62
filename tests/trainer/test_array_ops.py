"""Array ops: reshape, transpose, concat, cast, one_hot, argmax, equal, slicing, shape, through the oracle."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

X = np.random.default_rng(0).standard_normal((2, 3, 4))


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("shape", [(6, 4), (-1, 2), (24,), (2, 12, 1)], ids=str)
def test_reshape(shape, dynamic):
    check_op(lambda t: tg.reshape(t, shape), [X], torch_fn=torch and (lambda t: t.reshape(shape)), dynamic=dynamic)


def test_reshape_infers_the_minus_one_dim():
    with tg.Graph().as_default():
        assert tg.reshape(tg.zeros([2, 3, 4]), [-1, 4]).shape == (6, 4)
        assert tg.reshape(tg.placeholder(tg.float32, [None, 3]), [-1]).shape == (None,)


@pytest.mark.parametrize("perm", [None, (0, 2, 1), (2, 0, 1)], ids=str)
def test_transpose(perm):
    check_op(lambda t: tg.transpose(t, perm), [X],
             torch_fn=torch and (lambda t: t.permute(*(perm or (2, 1, 0)))))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    rng = np.random.default_rng(1)
    shapes = {0: [(1, 3), (2, 3)], 1: [(2, 1), (2, 3)], -1: [(2, 2), (2, 1)]}[axis]
    arrays = [rng.standard_normal(s) for s in shapes]
    check_op(lambda a, b: tg.concat([a, b], axis), arrays, torch_fn=torch and (lambda a, b: torch.cat([a, b], axis)))
    check_op(lambda a, b: tg.concat([a, b, a], axis), arrays, dynamic=True,
             numpy_fn=lambda a, b: np.concatenate([a, b, a], axis))


@pytest.mark.parametrize("key", [1, (slice(None), 0), (Ellipsis, slice(1, 3)), (slice(None, None, -1), None, 2),
                                 (0, slice(0, 3, 2), slice(None))], ids=str)
def test_strided_slice(key):
    check_op(lambda t: t[key], [X], numpy_fn=lambda a: a[key])
    check_op(lambda t: t[key], [X], dynamic=True, numpy_fn=lambda a: a[key])


def test_slice_rejects_tensor_indices():
    with tg.Graph().as_default():
        x = tg.zeros([3])
        with pytest.raises(TypeError, match="index"):
            x[x]


def test_cast_gradient_flows_between_float_dtypes():
    with tg.Graph().as_default():
        x = tg.constant([1.5, -2.0], dtype=tg.float64)
        y = tg.cast(x, tg.float32)
        g, = tg.gradients(tg.reduce_sum(y * y), [x])
        i = tg.cast(x, tg.int32)
        with tg.Session() as sess:
            gv, iv, yv = sess.run([g, i, y])
    assert g.dtype == np.float64 and gv.tolist() == [3.0, -4.0]
    assert iv.dtype == np.int32 and iv.tolist() == [1, -2] and yv.dtype == np.float32


def test_one_hot_argmax_equal_shape():
    with tg.Graph().as_default():
        labels = tg.placeholder(tg.int32, [None])
        hot = tg.one_hot(labels, 4)
        best = tg.argmax(hot, axis=1)
        same = tg.equal(best, tg.cast(labels, tg.int64))
        with tg.Session() as sess:
            h, b, s, shp = sess.run([hot, best, same, tg.shape(hot)], {labels: [2, 0, 3, -1]})
    assert hot.shape == (None, 4) and h.dtype == np.float32
    np.testing.assert_array_equal(h, [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
    assert b.dtype == np.int64 and b.tolist() == [2, 0, 3, 0] and s.tolist() == [True, True, True, False]
    assert shp.tolist() == [4, 4]


def test_zeros_like_and_ones_like():
    check_op(lambda t: tg.zeros_like(t) + tg.ones_like(t) + t, [X], numpy_fn=lambda a: 1 + a)
