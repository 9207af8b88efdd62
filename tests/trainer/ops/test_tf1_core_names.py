"""TF1 top-level names added for programs that use them: the other divisions, inverse/hyperbolic trigonometry,
masks, linspace, where(condition), tuple/identity_n, qr and the shape-scaled initializers, each against numpy,
PyTorch (where installed) or closed forms."""
import numpy as np
import pytest

import trainer as tg
from trainer.ops import scaling_initializers
from tests.trainer.op_oracle import check_op

try:
    import torch
except ImportError:
    torch = None

RNG = np.random.default_rng(3)
A = RNG.uniform(-0.9, 0.9, (3, 4))
B = RNG.uniform(0.5, 2.0, (4,)) * np.where(RNG.random(4) > 0.5, 1.0, -1.0)


def _run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


def test_integer_divisions_follow_tf1_and_c():
    x, y = np.array([7, -7, 7, -7, 0], np.int32), np.array([2, 2, -2, -2, 3], np.int32)
    with tg.Graph().as_default():
        got = _run([tg.div(x, y), tg.floor_div(x, y), tg.truncatediv(x, y), tg.truncatemod(x, y),
                    tg.div(x.astype(np.float32), y.astype(np.float32)), tg.realdiv(x * 1.0, y * 1.0)])
        floats = _run(tg.truncatediv([7.5, -7.5], 2.0))  # TF1's TruncateDiv takes floats too: toward zero
        with pytest.raises(TypeError, match="divides floats"):
            tg.realdiv(1, 2)
    np.testing.assert_array_equal(floats, [3.0, -3.0])
    np.testing.assert_array_equal(got[0], x // y)   # Python 2's / on ints is floor division
    np.testing.assert_array_equal(got[1], x // y)
    np.testing.assert_array_equal(got[2], np.trunc(x / y).astype(np.int32))  # C's / rounds toward zero
    np.testing.assert_array_equal(got[3], np.fmod(x, y))
    np.testing.assert_allclose(got[4], x / y, rtol=1e-6)
    np.testing.assert_allclose(got[5], x / y)
    assert got[0].dtype == np.int32 and got[4].dtype == np.float32


def test_div_no_nan_is_zero_with_zero_gradients_where_the_divisor_is_zero():
    check_op(lambda a, b: tg.div_no_nan(a, b), [A, B], torch_fn=torch and (lambda a, b: a / b))
    with tg.Graph().as_default():
        x, y = tg.constant([3.0, 4.0], tg.float64), tg.constant([0.0, 2.0], tg.float64)
        out = tg.math.divide_no_nan(x, y)
        got = _run([out, tg.gradients(tg.reduce_sum(out), [x, y])])
    np.testing.assert_array_equal(got[0], [0.0, 2.0])
    np.testing.assert_array_equal(got[1][0], [0.0, 0.5])
    np.testing.assert_array_equal(got[1][1], [0.0, -1.0])


def test_scalar_mul_needs_a_scalar():
    check_op(lambda a: tg.scalar_mul(2.5, a), [A], numpy_fn=lambda a: 2.5 * a)
    with tg.Graph().as_default(), pytest.raises(ValueError, match="needs a scalar"):
        tg.scalar_mul([1.0, 2.0], tg.ones([2]))


@pytest.mark.parametrize("name,shift,numpy_fn", [
    ("asin", 0.0, np.arcsin), ("acos", 0.0, np.arccos), ("atan", 0.0, np.arctan), ("sinh", 0.0, np.sinh),
    ("cosh", 0.0, np.cosh), ("asinh", 0.0, np.arcsinh), ("acosh", 2.0, np.arccosh), ("atanh", 0.0, np.arctanh),
])
def test_inverse_and_hyperbolic_trigonometry(name, shift, numpy_fn):
    torch_fn = torch and getattr(torch, name)
    check_op(getattr(tg, name), [A + shift], torch_fn=torch_fn, numpy_fn=numpy_fn)
    assert getattr(tg.math, name) is getattr(tg, name)


def test_atan2_rint_and_log_sigmoid():
    check_op(tg.atan2, [A, B], torch_fn=torch and torch.atan2, numpy_fn=np.arctan2)
    check_op(lambda a: tg.log_sigmoid(a * 30.0), [A], numpy_fn=lambda a: -np.logaddexp(0, -a * 30.0),
             torch_fn=torch and (lambda a: torch.nn.functional.logsigmoid(a * 30.0)))
    with tg.Graph().as_default():
        got = _run([tg.rint([0.5, 1.5, -2.5, 2.7]), tg.log_sigmoid(tg.constant([-200.0, 200.0]))])
    np.testing.assert_array_equal(got[0], [0.0, 2.0, -2.0, 3.0])
    np.testing.assert_allclose(got[1], [-200.0, 0.0])


def test_sequence_mask():
    lengths = np.array([[1, 3], [0, 2]])
    with tg.Graph().as_default():
        fed = tg.placeholder(tg.int32, [2, 2])
        masks = [tg.sequence_mask(lengths, 4), tg.sequence_mask(fed), tg.sequence_mask([2, 1], 3, dtype=tg.float32)]
        assert masks[0].shape.as_list() == [2, 2, 4] and masks[1].shape.as_list() == [2, 2, None]
        got = _run(masks, {fed: lengths})
    np.testing.assert_array_equal(got[0], np.arange(4) < lengths[..., None])
    np.testing.assert_array_equal(got[1], np.arange(3) < lengths[..., None])
    np.testing.assert_array_equal(got[2], [[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])


def _band(a, lower, upper):
    m, n = np.indices(a.shape[-2:])
    keep = ((lower < 0) | (m - n <= lower)) & ((upper < 0) | (n - m <= upper))
    return np.where(keep, a, 0.0)


@pytest.mark.parametrize("lower,upper", [(0, -1), (-1, 0), (1, 1), (0, 0)])
def test_matrix_band_part(lower, upper):
    batch = RNG.standard_normal((2, 3, 4))
    check_op(lambda a: tg.matrix_band_part(a, lower, upper), [batch], numpy_fn=lambda a: _band(a, lower, upper))
    check_op(lambda a: tg.linalg.band_part(a, tg.constant(lower), upper), [batch], dynamic=True,
             numpy_fn=lambda a: _band(a, lower, upper))


def test_broadcast_to_and_its_gradient():
    check_op(lambda b: tg.broadcast_to(b, [3, 4]), [B], numpy_fn=lambda b: np.broadcast_to(b, (3, 4)),
             torch_fn=torch and (lambda b: b.expand(3, 4)))
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 4])
        assert tg.broadcast_to(tg.ones([1, 4]), tg.shape(x)).shape.as_list() == [None, 4]
        flags = _run(tg.broadcast_to([True, False], [2, 2]))
    np.testing.assert_array_equal(flags, [[True, False], [True, False]])


def test_linspace_matches_numpy_and_has_no_gradient():
    with tg.Graph().as_default():
        start = tg.constant(-1.0, tg.float64)
        num = tg.placeholder(tg.int32, [])
        fixed, fed, single = tg.linspace(start, 2.0, 7), tg.lin_space(0.0, 1.0, num), tg.linspace(3.0, 5.0, 1)
        assert fixed.shape == (7,) and fed.shape.as_list() == [None]
        assert tg.gradients(tg.reduce_sum(fixed), [start]) == [None]
        got = _run([fixed, fed, single], {num: 5})
    np.testing.assert_allclose(got[0], np.linspace(-1.0, 2.0, 7), rtol=1e-12)
    np.testing.assert_allclose(got[1], np.linspace(0.0, 1.0, 5), rtol=1e-6)
    np.testing.assert_array_equal(got[2], [3.0])


def test_where_with_one_argument_gives_coordinates():
    cond = A > 0.2
    with tg.Graph().as_default():
        fed = tg.placeholder(tg.bool, [None, 4])
        rows = tg.where(fed)
        assert rows.shape.as_list() == [None, 2] and rows.dtype == tg.int64
        both = tg.where_v2(fed, 1.0, tg.zeros([4]))
        got = _run([rows, both], {fed: cond})
        with pytest.raises(ValueError, match="both x and y, or neither"):
            tg.where(fed, 1.0)
    np.testing.assert_array_equal(got[0], np.argwhere(cond))
    np.testing.assert_array_equal(got[1], cond.astype(np.float32))


def test_tuple_gates_every_tensor_on_all_of_them_and_identity_n():
    with tg.Graph().as_default():
        counter = tg.Variable(0)
        a, bump, none = tg.tuple([tg.constant(1.0), counter.assign_add(1), None])
        x, y = tg.identity_n([tg.constant(2.0), tg.constant([3, 4])])
        with tg.Session() as sess:
            sess.run(counter.initializer)
            assert sess.run(a) == 1.0 and sess.run(counter) == 1  # fetching `a` ran the assign too
            assert sess.run(x) == 2.0 and sess.run(y).tolist() == [3, 4]
        assert none is None and tg.is_tensor(a) and not tg.is_tensor(1.0) and tg.is_tensor(counter)


def test_small_names():
    assert tg.newaxis is None and tg.OpError is tg.errors.OpError
    assert tg.AggregationMethod.DEFAULT == tg.AggregationMethod.ADD_N == 0
    assert tg.no_regularizer(tg.constant(1.0)) is None
    with tg.Graph().as_default():
        tg.set_random_seed(5)
        assert tg.get_seed(3) == (5, 3)
        x = tg.ones([2, 3])
        assert x[:, tg.newaxis].shape == (2, 1, 3)


def test_qr_reconstructs_with_orthonormal_q_and_upper_triangular_r():
    a = RNG.standard_normal((2, 5, 3))
    with tg.Graph().as_default():
        q, r = tg.qr(a)
        qf, rf = tg.linalg.qr(a, full_matrices=True)
        assert q.shape == (2, 5, 3) and r.shape == (2, 3, 3) and qf.shape == (2, 5, 5) and rf.shape == (2, 5, 3)
        q, r, qf, rf = _run([q, r, qf, rf])
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    np.testing.assert_allclose(qf @ rf, a, atol=1e-12)
    np.testing.assert_allclose(np.swapaxes(q, 1, 2) @ q, np.broadcast_to(np.eye(3), (2, 3, 3)), atol=1e-12)
    np.testing.assert_array_equal(np.tril(r, -1), 0.0)


def _draw(initializer, shape):
    with tg.Graph().as_default():
        tg.set_random_seed(1)
        return _run(initializer(shape, tg.float64))


@pytest.mark.parametrize("mode,n", [("fan_in", 400), ("fan_out", 300), ("fan_avg", 350)])
@pytest.mark.parametrize("distribution", ["truncated_normal", "normal", "untruncated_normal", "uniform"])
def test_variance_scaling_draws_variance_scale_over_the_fan(mode, n, distribution):
    values = _draw(tg.variance_scaling_initializer(2.0, mode, distribution), (400, 300))
    variance = 2.0 / n
    assert abs(values.var() / variance - 1.0) < 0.03  # 120000 draws: the sample variance is within ~1%
    if distribution in ("truncated_normal", "normal"):
        assert np.abs(values).max() <= 2.0 * np.sqrt(variance) / scaling_initializers.TRUNCATED_STDDEV + 1e-12
    if distribution == "uniform":
        assert np.abs(values).max() <= np.sqrt(3.0 * variance)


def test_glorot_normal_uniform_unit_scaling_random_uniform_and_orthogonal():
    conv = _draw(tg.glorot_normal_initializer(), (3, 3, 40, 60))  # fans count the 3x3 window
    assert abs(conv.var() / (2.0 / (9 * 40 + 9 * 60)) - 1.0) < 0.05
    unit = _draw(tg.uniform_unit_scaling_initializer(factor=1.5), (200, 50))
    assert np.abs(unit).max() <= 1.5 * np.sqrt(3.0 / 200) and unit.max() > 0.95 * 1.5 * np.sqrt(3.0 / 200)
    uniform = _draw(tg.random_uniform_initializer(-2.0, 3.0), (1000,))
    assert uniform.min() >= -2.0 and uniform.max() < 3.0 and abs(uniform.mean() - 0.5) < 0.15
    for shape in [(6, 4), (4, 6), (2, 3, 5)]:
        w = _draw(tg.orthogonal_initializer(gain=2.0), shape).reshape(-1, shape[-1])
        gram = w.T @ w if w.shape[0] >= w.shape[1] else w @ w.T
        np.testing.assert_allclose(gram, 4.0 * np.eye(len(gram)), atol=1e-10)
    with pytest.raises(ValueError, match="mode must be one of"):
        tg.variance_scaling_initializer(mode="fan_sum")
    with tg.Graph().as_default():
        v = tg.get_variable("w", [5, 3], initializer=tg.glorot_normal_initializer(seed=1))
        assert v.shape == (5, 3)
