"""Math ops: forward and gradient of every elementwise, matrix and reduction op through the oracle."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

T = torch

BROADCAST_PAIRS = [((3, 4), (3, 4)), ((3, 4), (4,)), ((4,), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (3, 1)),
                   ((), (3,)), ((5,), ())]


def _positive(shape, rng):
    return rng.uniform(0.5, 2.0, shape)


def _signed(shape, rng):
    values = rng.uniform(0.3, 2.0, shape)
    return values * rng.choice([-1.0, 1.0], shape)


BINARY = [
    ("add", tg.add, T and T.add, _signed),
    ("subtract", tg.subtract, T and T.sub, _signed),
    ("multiply", tg.multiply, T and T.mul, _signed),
    ("divide", tg.divide, T and T.div, _signed),
    ("pow", tg.pow, T and T.pow, _positive),
    ("maximum", tg.maximum, T and T.maximum, _signed),
    ("minimum", tg.minimum, T and T.minimum, _signed),
]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("shapes", BROADCAST_PAIRS, ids=str)
@pytest.mark.parametrize("name,fn,torch_fn,draw", BINARY, ids=[b[0] for b in BINARY])
def test_binary_ops_broadcast(name, fn, torch_fn, draw, shapes, dynamic):
    rng = np.random.default_rng(1)
    check_op(fn, [draw(shapes[0], rng), draw(shapes[1], rng)], torch_fn=torch_fn, dynamic=dynamic)


UNARY = [
    ("negative", tg.negative, T and T.neg, _signed),
    ("exp", tg.exp, T and T.exp, _signed),
    ("log", tg.log, T and T.log, _positive),
    ("sqrt", tg.sqrt, T and T.sqrt, _positive),
    ("square", tg.square, T and T.square, _signed),
    ("abs", tg.abs, T and T.abs, _signed),
]


@pytest.mark.parametrize("shape", [(), (5,), (2, 3, 2)], ids=str)
@pytest.mark.parametrize("name,fn,torch_fn,draw", UNARY, ids=[u[0] for u in UNARY])
def test_unary_ops(name, fn, torch_fn, draw, shape):
    check_op(fn, [draw(shape, np.random.default_rng(2))], torch_fn=torch_fn)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_transposes(transpose_a, transpose_b):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 3) if transpose_a else (3, 4))
    b = rng.standard_normal((5, 4) if transpose_b else (4, 5))
    check_op(lambda x, y: tg.matmul(x, y, transpose_a=transpose_a, transpose_b=transpose_b), [a, b],
             torch_fn=lambda x, y: (x.T if transpose_a else x) @ (y.T if transpose_b else y))


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)], ids=str)
@pytest.mark.parametrize("name", ["sum", "mean", "max"])
def test_reductions(name, axis, keepdims, dynamic):
    x = np.random.default_rng(4).standard_normal((2, 3, 4))
    fn = {"sum": tg.reduce_sum, "mean": tg.reduce_mean, "max": tg.reduce_max}[name]
    numpy_fn = {"sum": np.sum, "mean": np.mean, "max": np.max}[name]
    torch_axis = tuple(range(3)) if axis is None else axis

    def torch_fn(t):
        if name == "max":
            return t.amax(dim=torch_axis, keepdim=keepdims)
        return getattr(T, name)(t, dim=torch_axis, keepdim=keepdims)
    check_op(lambda t: fn(t, axis=axis, keepdims=keepdims), [x], torch_fn=torch_fn if T else None,
             numpy_fn=lambda a: numpy_fn(a, axis=axis, keepdims=keepdims), dynamic=dynamic)


def test_reduce_max_splits_the_gradient_between_ties():
    x = np.array([[1.0, 3.0, 3.0], [2.0, 0.0, -1.0]])
    with tg.Graph().as_default():
        t = tg.constant(x)
        g, = tg.gradients(tg.reduce_max(t, axis=1), [t])
        with tg.Session() as sess:
            np.testing.assert_array_equal(sess.run(g), [[0, 0.5, 0.5], [1, 0, 0]])


def test_python_operators_build_the_ops():
    rng = np.random.default_rng(5)
    a, b = rng.uniform(0.5, 2, (3, 4)), rng.uniform(0.5, 2, (4, 2))
    check_op(lambda x, y: (-(x * 2.0 + 1.0) / (x - 3.0)) ** 2.0 @ y, [a, b],
             torch_fn=lambda x, y: (-(x * 2.0 + 1.0) / (x - 3.0)) ** 2.0 @ y)
    check_op(lambda x: 1.0 / x - 2.0 * x, [a], torch_fn=lambda x: 1.0 / x - 2.0 * x)


def test_add_n_and_where():
    rng = np.random.default_rng(6)
    xs = [rng.standard_normal((2, 3)) for _ in range(3)]
    check_op(lambda a, b, c: tg.add_n([a, b, c]), xs, torch_fn=lambda a, b, c: a + b + c)
    cond = rng.standard_normal((2, 3)) > 0
    check_op(lambda a, b: tg.where(tg.constant(cond), a, b), xs[:2],
             torch_fn=lambda a, b: T.where(T.tensor(cond), a, b))


def test_gradient_of_a_gradient():
    x = np.array([0.3, -1.2, 2.0])
    check_op(lambda t: tg.gradients(tg.reduce_sum(t * t * t), [t])[0], [x], torch_fn=lambda t: 3 * t * t)


def test_comparisons_are_bool():
    with tg.Graph().as_default():
        a, b = tg.constant([1.0, 2.0, 3.0]), tg.constant([2.0, 2.0, 2.0])
        with tg.Session() as sess:
            out = sess.run([a < b, a <= b, a > b, a >= b, tg.equal(a, b), tg.not_equal(a, b)])
    assert [o.tolist() for o in out] == [[True, False, False], [True, True, False], [False, False, True],
                                         [False, True, True], [False, True, False], [True, False, True]]


def test_binary_op_rejects_mixed_dtypes_and_bad_broadcast():
    with tg.Graph().as_default():
        with pytest.raises(TypeError, match="tg.cast"):
            tg.add(tg.constant(1.0), tg.constant(1, dtype=tg.int32))
        with pytest.raises(ValueError, match="cannot be broadcast"):
            tg.add(tg.zeros([2, 3]), tg.zeros([4]))
