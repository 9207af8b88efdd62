"""Math ops: forward and gradient of every elementwise, matrix and reduction op through the oracle."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

T = torch

RNG_NEG = np.random.default_rng(7)
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
    ("squared_difference", tg.squared_difference, T and (lambda x, y: (x - y) ** 2), _signed),
    ("floormod", tg.floormod, T and T.remainder, _signed),
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
    ("sin", tg.sin, T and T.sin, _signed),
    ("cos", tg.cos, T and T.cos, _signed),
    ("tan", tg.math.tan, T and T.tan, lambda shape, rng: rng.uniform(-1.2, 1.2, shape)),
    ("log1p", tg.log1p, T and T.log1p, _positive),
    ("expm1", tg.math.expm1, T and T.expm1, _signed),
    ("reciprocal", tg.reciprocal, T and T.reciprocal, _signed),
    ("rsqrt", tg.rsqrt, T and T.rsqrt, _positive),
    ("sigmoid", tg.sigmoid, T and T.sigmoid, _signed),
    ("tanh", tg.tanh, T and T.tanh, _signed),
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


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_of_batches_broadcasts_the_batch_dims(transpose_a, transpose_b):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((2, 1, 4, 3) if transpose_a else (2, 1, 3, 4))
    b = rng.standard_normal((3, 5, 4) if transpose_b else (3, 4, 5))
    swap = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
    check_op(lambda x, y: tg.matmul(x, y, transpose_a=transpose_a, transpose_b=transpose_b), [a, b],
             numpy_fn=lambda x, y: (swap(x) if transpose_a else x) @ (swap(y) if transpose_b else y))


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)], ids=str)
@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "logsumexp"])
def test_reductions(name, axis, keepdims, dynamic):
    x = np.random.default_rng(4).standard_normal((2, 3, 4))
    fn = getattr(tg, f"reduce_{name}")
    numpy_fn = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod,
                "logsumexp": lambda a, axis, keepdims: np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdims))}[name]
    torch_axis = tuple(range(3)) if axis is None else axis

    def torch_fn(t):
        if name in ("max", "min"):
            return getattr(t, "a" + name)(dim=torch_axis, keepdim=keepdims)
        return getattr(T, name)(t, dim=torch_axis, keepdim=keepdims)
    check_op(lambda t: fn(t, axis=axis, keepdims=keepdims), [x], torch_fn=torch_fn if T and name != "prod" else None,
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


@pytest.mark.parametrize("build", [tg.subtract, tg.squared_difference], ids=["subtract", "squared_difference"])
def test_the_gradient_of_a_broadcast_operand_is_negated_after_its_sum(build):
    """As TF1's _SubGrad: the Neg acts on the (4,) sum, not on the (64, 4) gradient (a batch norm's mean)."""
    x, y = RNG_NEG.standard_normal((64, 4)), RNG_NEG.standard_normal(4)
    with tg.Graph().as_default() as graph:
        xt, yt = tg.constant(x), tg.constant(y)
        dy, = tg.gradients(build(xt, yt), [yt])
        negs = [op for op in graph.get_operations() if op.type == "Neg"]
        with tg.Session() as sess:
            value = sess.run(dy)
    assert [op.outputs[0].shape.as_list() for op in negs] == [[4]]
    expected = -np.ones((64, 4)).sum(0) if build is tg.subtract else (-2.0 * (x - y)).sum(0)
    np.testing.assert_allclose(value, expected, rtol=1e-12)


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


def test_prod_gradient_is_exact_with_zeros():
    x = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0], [1.5, -2.0, 4.0]])
    check_op(lambda t: tg.reduce_prod(t, axis=1), [x], numpy_fn=lambda a: a.prod(1))


def test_reduce_keyword_aliases_and_bool_and_count_reductions():
    x = np.array([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]])
    with tg.Graph().as_default():
        t = tg.constant(x)
        flags = tg.constant(x > 0)
        out = [tg.reduce_sum(t, reduction_indices=[1], keep_dims=True), tg.reduce_mean(t, 0, True),
               tg.reduce_max(t, axis=tg.constant(1)), tg.reduce_any(flags, 1), tg.reduce_all(flags, 0),
               tg.count_nonzero(t), tg.count_nonzero(t, axis=1, dtype=tg.int32), tg.math.reduce_min(t, 1)]
        with pytest.raises(ValueError, match="both 'reduction_indices' and 'axis'"):
            tg.reduce_sum(t, axis=0, reduction_indices=0)
        with pytest.raises(TypeError, match="bool"):
            tg.reduce_any(t)
        with tg.Session() as sess:
            v = sess.run(out)
    np.testing.assert_allclose(v[0], x.sum(1, keepdims=True))
    np.testing.assert_allclose(v[1], x.mean(0, keepdims=True))
    np.testing.assert_allclose(v[2], x.max(1))
    assert v[3].tolist() == [True, True] and v[4].tolist() == [False, False, False]
    assert v[5] == 3 and v[5].dtype == np.int64 and v[6].tolist() == [2, 1] and v[6].dtype == np.int32
    np.testing.assert_allclose(v[7], x.min(1))
    assert out[5].op.graph is not None


def test_logsumexp_is_stable_and_handles_infinities():
    with tg.Graph().as_default():
        x = tg.constant([[1000.0, 1000.0], [-np.inf, 0.0], [-np.inf, -np.inf]])
        with tg.Session() as sess:
            v = sess.run(tg.reduce_logsumexp(x, axis=1))
    np.testing.assert_allclose(v, [1000 + np.log(2), 0.0, -np.inf])


def test_rounding_integer_division_and_logic():
    a, b = np.array([-7.5, -2.5, 0.5, 2.5, 7.0]), np.array([2.0, -2.0, 3.0, 2.0, -4.0])
    with tg.Graph().as_default():
        x, y = tg.constant(a), tg.constant(b)
        p, q = tg.constant([True, True, False]), tg.constant([True, False, False])
        i, j = tg.constant([7, -7]), tg.constant([2, 2])
        out = [tg.floor(x), tg.ceil(x), tg.round(x), x % y, x // y, tg.mod(i, j), tg.floordiv(i, j), i / j,
               tg.truediv(tg.constant([1], dtype=tg.int16), tg.constant([2], dtype=tg.int16)),
               p & q, p | q, p ^ q, ~p, tg.logical_xor(p, q), tg.is_finite(x / 0.0), tg.is_nan(x - x)]
        g = tg.gradients(tg.reduce_sum(tg.floormod(x, y)), [x, y])
        with tg.Session() as sess:
            v = sess.run(out + g)
        with pytest.raises(TypeError, match="bool"):
            tg.logical_and(x, x)
    for got, want in zip(v[:5], [np.floor(a), np.ceil(a), np.round(a), np.mod(a, b), np.floor_divide(a, b)]):
        np.testing.assert_array_equal(got, want)
    assert v[5].tolist() == [1, 1] and v[6].tolist() == [3, -4]
    assert v[7].dtype == np.float64 and v[7].tolist() == [3.5, -3.5] and v[8].dtype == np.float32
    assert [x.tolist() for x in v[9:14]] == [[True, False, False], [True, True, False], [False, True, False],
                                             [False, False, True], [False, True, False]]
    assert v[14].tolist() == [False] * 5 and v[15].tolist() == [False] * 5
    np.testing.assert_allclose(v[16], np.ones(5))
    np.testing.assert_allclose(v[17], -np.floor_divide(a, b))


def test_stop_gradient_and_clipping():
    x = np.array([-2.0, 0.5, 3.0])
    check_op(lambda t: tg.clip_by_value(t, -1.0, 1.0), [x], numpy_fn=lambda a: np.clip(a, -1, 1))
    check_op(lambda t: tg.clip_by_norm(t, 2.0), [x], numpy_fn=lambda a: a * 2.0 / np.linalg.norm(a))
    check_op(lambda t: tg.clip_by_norm(t, 10.0), [x], numpy_fn=lambda a: a)
    with tg.Graph().as_default():
        a, b = tg.constant([3.0, 0.0]), tg.constant([[4.0]])
        (ca, none, cb), norm = tg.clip_by_global_norm([a, None, b], 2.5)
        with tg.Session() as sess:
            va, vb, vn, vg = sess.run([ca, cb, norm, tg.global_norm([a, b])])
        t = tg.constant(x)
        g_stop, = tg.gradients(tg.reduce_sum(t * tg.stop_gradient(t)), [t])
        assert tg.gradients(tg.stop_gradient(t), [t]) == [None]
        with tg.Session() as sess:
            np.testing.assert_allclose(sess.run(g_stop), x)  # d(t * c)/dt with c = t held constant
    assert none is None and vn == 5.0 and vg == 5.0
    np.testing.assert_allclose(va, [1.5, 0.0])
    np.testing.assert_allclose(vb, [[2.0]])


def test_ops_are_named_as_tf1_names_them():
    with tg.Graph().as_default():
        a, b = tg.constant(1.0), tg.constant(2.0)
        ops = {"LessEqual": a <= b, "GreaterEqual": a >= b, "Less": a < b, "Greater": a > b, "add": a + b,
               "sub": a - b, "mul": a * b, "truediv": a / b, "pow": a ** b, "Neg": -a, "mod": a % b,
               "floordiv": a // b}
        for name, t in ops.items():
            assert t.op.name == name, (name, t.op.name)
        assert (a <= b).op.type == "LessEqual" and (a >= b).op.type == "GreaterEqual"
        assert (a % b).op.type == "FloorMod" and (a / b).op.type == "RealDiv"
    for module, names in [(tg, ["divide", "negative", "less_equal", "greater_equal", "not_equal", "squared_difference",
                                "reduce_logsumexp", "stop_gradient", "is_finite", "floormod", "truediv"]),
                          (tg.nn, ["log_softmax", "softmax", "relu6", "softplus", "leaky_relu"]),
                          (tg.math, ["reduce_min", "logical_xor", "in_top_k", "argmin"])]:
        for name in names:
            assert getattr(module, name).__name__ == name


def test_reductions_over_axes_the_run_computes_match_tf():
    # TF 1.15 takes a Tensor of axes (its own gradient graphs compute them with BroadcastGradientArgs); the values
    # and gradients below are TensorFlow's for these feeds
    with tg.Graph().as_default(), tg.Session() as sess:
        x = tg.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        axes = tg.placeholder(tg.int32, [None])
        total, peak, mean = tg.reduce_sum(x, axes), tg.reduce_max(x, axes, keepdims=True), tg.reduce_mean(x, axes)
        assert total.shape.ndims is None and peak.shape.as_list() == [None, None]
        grad = tg.gradients([total, peak, mean], x)[0]
        assert sess.run(total, {axes: [1]}).tolist() == [6.0, 15.0]
        assert sess.run(peak, {axes: [1]}).tolist() == [[3.0], [6.0]]
        assert sess.run(total, {axes: []}).tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
        assert sess.run(total, {axes: [-1, 0]}) == 21.0
        np.testing.assert_allclose(sess.run(grad, {axes: [1]}), [[4 / 3, 4 / 3, 7 / 3]] * 2, rtol=1e-6)
        np.testing.assert_allclose(sess.run(grad, {axes: [0, 1]}), [[7 / 6] * 3, [7 / 6, 7 / 6, 13 / 6]], rtol=1e-6)
        with pytest.raises(tg.errors.InvalidArgumentError, match="Invalid reduction dimension \\(2 for input with 2"):
            sess.run(total, {axes: [2]})
        with pytest.raises(NotImplementedError, match="Prod .* computed while the graph runs"):
            tg.gradients(tg.reduce_prod(x, axes), x)


def test_div_no_nan_is_one_op_with_tf1s_gradients():
    with tg.Graph().as_default(), tg.Session() as sess:
        x, y = tg.constant([1.0, -2.0, 3.0]), tg.constant([2.0, 0.0, -4.0])
        q = tg.div_no_nan(x, y)
        assert q.op.type == "DivNoNan" and q.op.name == "div_no_nan"
        gx, gy = tg.gradients(q, [x, y])
        assert sess.run(q).tolist() == [0.5, 0.0, -0.75]
        assert sess.run(gx).tolist() == [0.5, 0.0, -0.25]  # 1/y, 0 where y is 0
        assert sess.run(gy).tolist() == [-0.25, 0.0, -3 / 16]  # -x/y², 0 where y is 0
        assert tg.div_no_nan(tg.constant([3]), tg.constant([0])).dtype == tg.float64  # integers divide as floats


@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((4,), (3, 4)), ((3, 1), (1, 4)), ((3, 1), (3, 4)), ((5,), ())],
                         ids=str)
@pytest.mark.parametrize("build", [tg.add, tg.subtract, tg.multiply, tg.divide], ids=lambda f: f.__name__)
def test_a_binary_op_on_a_dead_buffer_writes_in_place_only_where_the_result_fits(build, shapes):
    """Operand 0 made by an op and read by nobody else is written in place; where the broadcast result is larger
    than it, the result is a new array of the broadcast shape, with the same values either way."""
    a, b = _positive(shapes[0], RNG_NEG).astype(np.float32), _positive(shapes[1], RNG_NEG).astype(np.float32)
    with tg.Graph().as_default():
        ta, tb = tg.constant(a), tg.constant(b)
        with tg.Session() as sess:
            in_place, kept = sess.run([build(tg.negative(tg.negative(ta)), tb), build(ta, tb)])
    expected = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.true_divide}
    assert in_place.shape == kept.shape == np.broadcast_shapes(a.shape, b.shape)
    np.testing.assert_array_equal(in_place, expected[build.__name__](a, b))
    np.testing.assert_array_equal(kept, in_place)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7,), (3, 5), (70, 70)], ids=str)
def test_the_gradient_of_a_mean_is_the_upstream_gradient_over_the_count_in_the_dtype(shape, dtype):
    with tg.Graph().as_default():
        x, g = tg.placeholder(dtype, shape), tg.placeholder(dtype, [])
        grad = tg.gradients(tg.reduce_mean(x), [x], grad_ys=g)[0]
        with tg.Session() as sess:
            value = sess.run(grad, {x: np.zeros(shape, dtype), g: np.array(3, dtype)})
    assert value.dtype == dtype
    np.testing.assert_array_equal(value, np.full(shape, np.array(3, dtype) / int(np.prod(shape)), dtype))


def test_integer_true_division_casts_inside_its_own_name_scope_as_tf1():
    with tg.Graph().as_default() as graph:
        b, a = tg.constant([[0, 1], [2, 3]]), tg.constant([2, 2])
        first, second = tg.truediv(b, a), b / a
        names = [op.name for op in graph.get_operations()][2:]
        assert names == ["truediv/Cast", "truediv/Cast_1", "truediv", "truediv_1/Cast", "truediv_1/Cast_1",
                         "truediv_1"]
        assert (first.name, second.name, first.dtype) == ("truediv:0", "truediv_1:0", np.float64)
