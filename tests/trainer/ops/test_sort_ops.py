"""unique, sort and argsort against numpy, with sort's gradient."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

RNG = np.random.default_rng(7)


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


def test_unique_keeps_first_occurrence_order():
    with tg.Graph().as_default():
        x = np.array([4, 1, 4, 7, 1, 1, 2], dtype=np.int64)
        y, idx = tg.unique(tg.constant(x))
        y64, idx64 = tg.unique(tg.constant(x), out_idx=tg.int64)
        yv, iv, i64 = run([y, idx, idx64])
    np.testing.assert_array_equal(yv, [4, 1, 7, 2])
    np.testing.assert_array_equal(iv, [0, 1, 0, 2, 1, 1, 3])
    assert iv.dtype == np.int32 and i64.dtype == np.int64 and yv.dtype == np.int64
    np.testing.assert_array_equal(yv[iv], x)


def test_unique_refuses_a_matrix_naming_it():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match=r"unique needs a 1-D tensor, got 'grid:0'"):
            tg.unique(tg.constant(np.zeros((2, 2)), name="grid"))
        p = tg.placeholder(tg.float32)
        y, _ = tg.unique(p)
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"1-D vector, got shape \(2, 3\)"):
            run(y, {p: np.zeros((2, 3))})


@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
def test_sort_and_its_gradient(axis, direction):
    x = RNG.standard_normal((3, 5))
    flip = (lambda a: np.flip(a, axis)) if direction == "DESCENDING" else (lambda a: a)
    check_op(lambda t: tg.sort(t, axis=axis, direction=direction), [x],
             numpy_fn=lambda a: flip(np.sort(a, axis=axis)),
             torch_fn=lambda t: torch.sort(t, dim=axis, descending=direction == "DESCENDING").values)


def test_argsort_is_stable_both_ways():
    x = np.array([[3, 1, 3, 2, 1], [0, 0, 5, 5, 0]], dtype=np.int32)
    with tg.Graph().as_default():
        up, down = tg.argsort(x), tg.argsort(x, direction="DESCENDING", stable=True)
        first = tg.argsort(x, axis=0)
        u, d, f = run([up, down, first])
    np.testing.assert_array_equal(u, np.argsort(x, axis=-1, kind="stable"))
    np.testing.assert_array_equal(d, [[0, 2, 3, 1, 4], [2, 3, 0, 1, 4]])  # equal values keep their order
    np.testing.assert_array_equal(f, np.argsort(x, axis=0, kind="stable"))
    assert u.dtype == np.int32


def test_sort_arguments_are_checked():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="direction must be 'ASCENDING' or 'DESCENDING', got 'UP'"):
            tg.sort([1.0, 2.0], direction="UP")
        with pytest.raises(ValueError, match="axis 2 is out of range"):
            tg.argsort(np.zeros((2, 2)), axis=2)
