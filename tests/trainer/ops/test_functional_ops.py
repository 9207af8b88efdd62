"""tg.map_fn, tg.scan, tg.foldl, tg.foldr against numpy oracles, finite-difference gradients and TF1's errors."""
import collections
import functools

import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import numerical_gradient

X = np.array([1.5, -2.0, 3.0, 0.5, 2.5])


def run(build, *arrays, static=True):
    """build(*placeholders) evaluated on arrays; placeholders have a static or an unknown leading dimension."""
    with tg.Graph().as_default():
        xs = [tg.placeholder(a.dtype, a.shape if static else (None,) + a.shape[1:]) for a in arrays]
        out = build(*xs)
        return tg.Session().run(out, dict(zip(xs, arrays)))


both = pytest.mark.parametrize("static", [True, False], ids=["unrolled", "while_loop"])


@both
def test_map_fn_square_and_nested_and_dtype(static):
    np.testing.assert_allclose(run(lambda x: tg.map_fn(tg.square, x), X, static=static), X ** 2)
    got = run(lambda x, y: tg.map_fn(lambda t: (t[0] * t[1], t[0] - t[1]), (x, y)), X, X[::-1].copy(), static=static)
    np.testing.assert_allclose(got[0], X * X[::-1])
    np.testing.assert_allclose(got[1], X - X[::-1])
    m = np.arange(12.0).reshape(4, 3)
    got = run(lambda x: tg.map_fn(lambda r: tg.cast(tg.reduce_sum(r) > 10, tg.int32), x, dtype=tg.int32),
              m, static=static)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, (m.sum(1) > 10).astype(np.int32))


def test_map_fn_dict_and_namedtuple_structures():
    Pair = collections.namedtuple("Pair", "a b")
    got = run(lambda x: tg.map_fn(lambda d: Pair(d["u"] * 2, d["v"] + 1), {"u": x, "v": x},
                                  dtype=Pair(tg.float64, tg.float64)), X)
    assert isinstance(got, Pair)
    np.testing.assert_allclose(got.a, 2 * X)
    np.testing.assert_allclose(got.b, X + 1)


@both
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_cumsum_cumprod(static, reverse):
    flip = (lambda a: a[::-1]) if reverse else (lambda a: a)
    got = run(lambda x: tg.scan(lambda a, v: a + v, x, reverse=reverse), X, static=static)
    np.testing.assert_allclose(got, flip(np.cumsum(flip(X))))
    got = run(lambda x: tg.scan(lambda a, v: a * v, x, initializer=tg.constant(2.0, tg.float64), reverse=reverse),
              X, static=static)
    np.testing.assert_allclose(got, 2 * flip(np.cumprod(flip(X))))


@both
def test_scan_nested_accumulator_fibonacci_and_running_stats(static):
    steps = np.zeros(8)
    got = run(lambda x: tg.scan(lambda a, _: (a[1], a[0] + a[1]), x,
                                initializer=(tg.constant(0.0, tg.float64), tg.constant(1.0, tg.float64))),
              steps, static=static)
    np.testing.assert_allclose(got[0], [1, 1, 2, 3, 5, 8, 13, 21])
    np.testing.assert_allclose(got[1], [1, 2, 3, 5, 8, 13, 21, 34])
    m = np.arange(10.0).reshape(5, 2)  # accumulator of shape (2,): a vector running max and sum
    got = run(lambda x: tg.scan(lambda a, v: {"max": tg.maximum(a["max"], v["max"]), "sum": a["sum"] + v["sum"]},
                                {"max": x, "sum": x}), m,
              static=static)
    np.testing.assert_allclose(got["sum"], np.cumsum(m, 0))
    np.testing.assert_allclose(got["max"], np.maximum.accumulate(m, 0))


@both
def test_fold_order_with_non_commutative_fn(static):
    sub = lambda a, v: a - v  # noqa: E731
    assert run(lambda x: tg.foldl(sub, x), X, static=static) == pytest.approx(functools.reduce(sub, X))
    assert run(lambda x: tg.foldr(sub, x), X, static=static) == pytest.approx(functools.reduce(sub, X[::-1]))
    got = run(lambda x: tg.foldl(sub, x, initializer=tg.constant(10.0, tg.float64)), X, static=static)
    assert got == pytest.approx(10 - X.sum())
    # with a * 10 + v the digits of the result show the order the elements were visited in
    digits = np.array([1.0, 2.0, 3.0])
    assert run(lambda x: tg.foldl(lambda a, v: a * 10 + v, x), digits, static=static) == 123
    assert run(lambda x: tg.foldr(lambda a, v: a * 10 + v, x), digits, static=static) == 321
    assert run(lambda x: tg.foldl(lambda a, v: (a[0] + v,), x, initializer=(tg.constant(0.0, tg.float64),))[0],
               X, static=static) == pytest.approx(X.sum())


def _check_gradient(build, x, static=True):
    with tg.Graph().as_default():
        p = tg.placeholder(tg.float64, x.shape if static else (None,) + x.shape[1:])
        out = build(p)
        (grad,) = tg.gradients(tg.reduce_sum(out), [p])
        sess = tg.Session()
        got = sess.run(grad, {p: x})
        (want,) = numerical_gradient(lambda v: np.sum(sess.run(out, {p: v[0]})), [x.copy()])
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


@both
def test_gradients_through_map_fn_scan_and_folds(static):
    m = np.random.RandomState(0).uniform(0.5, 2.0, (4, 3))
    _check_gradient(lambda x: tg.map_fn(lambda r: tg.sin(r) * tg.reduce_sum(r * r), x), m, static)
    _check_gradient(lambda x: tg.scan(lambda a, v: a * v + tg.sin(a), x), m, static)
    _check_gradient(lambda x: tg.scan(lambda a, v: a * v, x, initializer=tg.ones([3], tg.float64), reverse=True), m,
                    static)
    _check_gradient(lambda x: tg.foldr(lambda a, v: a * v - a, x), m, static)
    with tg.Graph().as_default():
        p = tg.placeholder(tg.float64, (4, 3))
        assert tg.gradients(tg.reduce_sum(tg.map_fn(tg.square, p, back_prop=False)), [p]) == [None]


def test_unknown_leading_dimension_and_per_element_shapes_known_only_when_run():
    rows = np.arange(6.0).reshape(2, 3)
    with tg.Graph().as_default():
        p = tg.placeholder(tg.float64, (None, None))
        out = tg.map_fn(lambda r: r * tg.reduce_sum(r), p)
        sess = tg.Session()
        np.testing.assert_allclose(sess.run(out, {p: rows}), rows * rows.sum(1, keepdims=True))
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"ran no iteration.*give the per-step outputs"):
            sess.run(out, {p: np.zeros((0, 2))})  # as TF1's zero-size TensorArray of unknown element shape
    assert run(lambda x: tg.map_fn(tg.square, x), np.zeros((0, 2)), static=False).shape == (0, 2)


def test_empty_elems():
    empty = np.zeros((0, 3))
    got = run(lambda x: tg.map_fn(lambda r: tg.reduce_sum(r), x), empty)
    assert got.shape == (0,)
    got = run(lambda x: tg.scan(lambda a, v: a + v, x, initializer=tg.zeros([3], tg.float64)), empty)
    assert got.shape == (0, 3)
    got = run(lambda x: tg.foldl(lambda a, v: a + v, x, initializer=tg.ones([3], tg.float64)), empty)
    np.testing.assert_array_equal(got, np.ones(3))


def test_errors_name_the_culprit():
    with tg.Graph().as_default():
        empty = tg.placeholder(tg.float32, (0, 2), name="nothing")
        with pytest.raises(ValueError, match=r"foldl on elems 'nothing:0' with no elements needs an initializer"):
            tg.foldl(lambda a, v: a + v, empty)
        scalar = tg.constant(1.0, name="one")
        with pytest.raises(ValueError, match=r"not scalars: 'one:0'"):
            tg.map_fn(tg.square, scalar)
        a, b = tg.zeros([2]), tg.zeros([3])
        with pytest.raises(ValueError, match="same leading dimension"):
            tg.map_fn(lambda t: t, (a, b))
        with pytest.raises(TypeError, match="fn must be callable"):
            tg.scan(3, a)
        with pytest.raises(ValueError, match=r"dtype int32 where float32 is expected"):
            tg.map_fn(lambda v: tg.cast(v, tg.int32), a)
        with pytest.raises(ValueError, match=r"scan: fn must return the structure \('T', 'T'\)"):
            tg.scan(lambda acc, v: acc[0], a, initializer=(tg.constant(0.0), tg.constant(0.0)))


def test_classic_tf1_batch_of_images():
    """TF1's idiom: per-image statistics with map_fn, then standardising each image."""
    images = np.random.RandomState(1).uniform(0, 255, (6, 4, 4, 3)).astype(np.float32)

    def build(x):
        means = tg.map_fn(lambda img: tg.reduce_mean(img), x)
        centred = tg.map_fn(lambda img: img - tg.reduce_mean(img, axis=[0, 1]), x)
        return means, centred

    means, centred = run(build, images)
    np.testing.assert_allclose(means, images.mean(axis=(1, 2, 3)), rtol=1e-5)
    np.testing.assert_allclose(centred, images - images.mean(axis=(1, 2), keepdims=True), rtol=1e-4, atol=1e-4)
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, (6, 4, 4, 3))
        out = tg.map_fn(lambda img: tg.reduce_mean(img), x, name="per_image")
        assert out.name.startswith("per_image/")
        assert any(op.name.startswith("per_image/while/") for op in tg.get_default_graph().get_operations())


def test_get_variable_in_fn_is_made_once_as_tf1_traces_fn_once():
    rows = np.arange(6.0).reshape(3, 2)
    with tg.Graph().as_default():
        with tg.variable_scope("model"):
            def fn(r):
                return tg.reduce_sum(r * tg.get_variable("w", [2], tg.float64, tg.constant_initializer(3.0)))
            out = tg.map_fn(fn, tg.constant(rows))
        assert [v.name for v in tg.global_variables()] == ["model/w:0"]
        (w,) = tg.global_variables()
        (grad,) = tg.gradients(tg.reduce_sum(out), [w])
        sess = tg.Session()
        sess.run(tg.global_variables_initializer())
        np.testing.assert_allclose(sess.run(out), rows.sum(1) * 3)
        np.testing.assert_allclose(sess.run(grad), rows.sum(0))
