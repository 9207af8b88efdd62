"""unique, sort/argsort, reverse, reverse_sequence, matrix_inverse/determinant, conv1d, selu & co., multinomial and
random_crop against numpy, numerical gradients and (where installed) PyTorch."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, numerical_gradient, torch

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


@pytest.mark.parametrize("axis", [[1], [0, 2], [-1]])
def test_reverse_and_its_gradient(axis):
    x = RNG.standard_normal((2, 3, 4))
    check_op(lambda t: tg.reverse(t, axis), [x], numpy_fn=lambda a: np.flip(a, axis),
             torch_fn=lambda t: torch.flip(t, [a % 3 for a in axis]))
    assert tg.reverse_v2 is tg.reverse


def test_reverse_names_a_repeated_or_bad_axis():
    with tg.Graph().as_default():
        x = tg.constant(np.zeros((2, 3)))
        with pytest.raises(tg.errors.InvalidArgumentError, match="axis 1 is specified more than once"):
            tg.reverse(x, [1, -1])
        with pytest.raises(ValueError, match="axis 2 is out of range for 'Const:0' of rank 2"):
            tg.reverse(x, [2])


def _reverse_sequence_np(x, lengths, seq_axis, batch_axis):
    out = x.copy()
    for b, n in enumerate(lengths):
        src = [slice(None)] * x.ndim
        src[batch_axis], src[seq_axis] = b, slice(0, n)
        dst = tuple(src)
        out[dst] = np.flip(x[dst], axis=seq_axis - (batch_axis < seq_axis))
    return out


@pytest.mark.parametrize("seq_axis,batch_axis", [(1, 0), (0, 2)])
def test_reverse_sequence_and_its_gradient(seq_axis, batch_axis):
    shape = (4, 3, 2)
    x = RNG.standard_normal(shape)
    lengths = np.array([3, 0, 1, 2][:shape[batch_axis]], dtype=np.int64)
    check_op(lambda t, n: tg.reverse_sequence(t, n, seq_axis=seq_axis, batch_axis=batch_axis), [x, lengths],
             numpy_fn=lambda a, n: _reverse_sequence_np(a, n, seq_axis, batch_axis))


def test_reverse_sequence_takes_tf1s_old_names_and_checks_lengths():
    x = np.arange(6.0).reshape(2, 3)
    with tg.Graph().as_default():
        n = tg.placeholder(tg.int32, [None])
        y = tg.reverse_sequence(x, n, seq_dim=1, batch_dim=0)
        np.testing.assert_array_equal(run(y, {n: [3, 2]}), [[2, 1, 0], [4, 3, 5]])
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"seq_lengths value 4 is not in \[0, 3\]"):
            run(y, {n: [4, 1]})
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"seq_lengths has shape \(3,\).*2 entries"):
            run(y, {n: [1, 1, 1]})


def _well_conditioned(*batch, n=3):
    return RNG.standard_normal((*batch, n, n)) + 3 * np.eye(n)


@pytest.mark.parametrize("batch", [(), (2,), (2, 2)])
def test_matrix_inverse_and_its_gradient(batch):
    a = _well_conditioned(*batch)
    check_op(tg.matrix_inverse, [a], numpy_fn=np.linalg.inv, torch_fn=torch and torch.linalg.inv)
    check_op(lambda t: tg.linalg.inv(t, adjoint=True), [a],
             numpy_fn=lambda m: np.linalg.inv(np.swapaxes(m, -1, -2)))


@pytest.mark.parametrize("batch", [(), (3,)])
def test_matrix_determinant_and_its_gradient(batch):
    a = _well_conditioned(*batch)
    check_op(tg.matrix_determinant, [a], numpy_fn=np.linalg.det, torch_fn=torch and torch.linalg.det)
    assert tg.linalg.det is tg.matrix_determinant


def test_singular_matrix_raises_invalid_argument_when_run():
    with tg.Graph().as_default():
        p = tg.placeholder(tg.float64, [None, 3, 3])
        inv = tg.matrix_inverse(p)
        det = tg.matrix_determinant(p)
        singular = np.array([[1., 0., -1.], [-1., 1., 0.], [0., -1., 1.]])  # TF1's own test matrix
        feed = {p: np.stack([np.eye(3), singular])}
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"Input is not invertible\. \(matrix 1 of"):
            run(inv, feed)
        np.testing.assert_allclose(run(det, feed), [1.0, 0.0], atol=1e-12)  # det itself is fine: 0
        with pytest.raises(ValueError, match=r"square matrices, got 'Const:0' of shape \(2, 3\)"):
            tg.matrix_inverse(np.zeros((2, 3)))


@pytest.mark.parametrize("stride,padding,dilation", [(1, "VALID", 1), (2, "SAME", 1), (1, "SAME", 2)])
def test_conv1d_matches_torch_and_numerical_gradient(stride, padding, dilation):
    x, w = RNG.standard_normal((2, 7, 3)), RNG.standard_normal((3, 3, 4))

    def torch_conv(t, f):
        import torch.nn.functional as F
        k = (3 - 1) * dilation + 1
        out_w = -(-7 // stride) if padding == "SAME" else (7 - k) // stride + 1
        total = max((out_w - 1) * stride + k - 7, 0) if padding == "SAME" else 0
        t = F.pad(t.permute(0, 2, 1), (total // 2, total - total // 2))
        return F.conv1d(t, f.permute(2, 1, 0), stride=stride, dilation=dilation).permute(0, 2, 1)

    check_op(lambda t, f: tg.nn.conv1d(t, f, stride=stride, padding=padding, dilations=dilation), [x, w],
             torch_fn=torch_conv if torch else None)


def test_conv1d_ncw_equals_nwc_and_checks_arguments():
    x, w = RNG.standard_normal((2, 6, 3)), RNG.standard_normal((2, 3, 5))
    with tg.Graph().as_default():
        nwc = tg.nn.conv1d(x, w, stride=[1, 2, 1], padding="SAME")
        ncw = tg.nn.conv1d(input=np.transpose(x, (0, 2, 1)), filters=w, stride=2, padding="SAME", data_format="NCW")
        assert nwc.shape == (2, 3, 5)
        a, b = run([nwc, ncw])
        with pytest.raises(ValueError, match="data_format must be 'NWC' or 'NCW', got 'NHCW'"):
            tg.nn.conv1d(x, w, 1, "SAME", data_format="NHCW")
        with pytest.raises(ValueError, match=r"3-D input.*'conv1d_2/Const:0' of shape \(2, 6\)"):
            tg.nn.conv1d(x[..., 0], w, 1, "SAME")
    np.testing.assert_allclose(np.transpose(b, (0, 2, 1)), a, rtol=1e-12)


def _selu_np(x):
    return 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0)))


def test_activations_and_their_gradients():
    x = RNG.standard_normal((3, 4)) * 2
    x[np.abs(x) < 1e-3] = 0.5  # keep finite differences away from the kinks
    check_op(tg.nn.selu, [x], numpy_fn=_selu_np, torch_fn=torch and torch.selu)
    check_op(tg.nn.softsign, [x], numpy_fn=lambda a: a / (1 + np.abs(a)),
             torch_fn=torch and torch.nn.functional.softsign)
    check_op(tg.nn.swish, [x], numpy_fn=lambda a: a / (1 + np.exp(-a)), torch_fn=torch and torch.nn.functional.silu)
    check_op(tg.nn.crelu, [x], numpy_fn=lambda a: np.maximum(np.concatenate([a, -a], -1), 0))
    check_op(lambda t: tg.nn.crelu(t, axis=0), [x], numpy_fn=lambda a: np.maximum(np.concatenate([a, -a], 0), 0))


def test_second_order_gradients_of_selu_and_softsign():
    x = np.array([-1.5, -0.3, 0.4, 2.0])
    for fn in (tg.nn.selu, tg.nn.softsign):
        with tg.Graph().as_default():
            p = tg.placeholder(tg.float64, [4])
            g, = tg.gradients(tg.reduce_sum(fn(p)), [p])
            gg, = tg.gradients(tg.reduce_sum(g * g), [p])
            with tg.Session() as sess:
                value = sess.run(gg, {p: x})
                numeric, = numerical_gradient(lambda v: np.sum(sess.run(g, {p: v[0]}) ** 2), [x])
        np.testing.assert_allclose(value, numeric, rtol=1e-5, atol=1e-6, err_msg=fn.__name__)


def test_weighted_cross_entropy_with_logits():
    x, z = RNG.standard_normal((3, 4)) * 3, RNG.uniform(size=(3, 4))

    def reference(a, b, q=2.5):
        s = 1 / (1 + np.exp(-a))
        return -(q * b * np.log(s) + (1 - b) * np.log(1 - s))

    check_op(lambda t, u: tg.nn.weighted_cross_entropy_with_logits(labels=u, logits=t, pos_weight=2.5), [x, z],
             numpy_fn=reference)
    check_op(lambda t, u: tg.nn.weighted_cross_entropy_with_logits(targets=u, logits=t, pos_weight=0.5), [x, z],
             numpy_fn=lambda a, b: reference(a, b, 0.5))
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="`labels` or `targets`"):
            tg.nn.weighted_cross_entropy_with_logits(logits=x, pos_weight=1.0)


def test_multinomial_follows_the_probabilities_and_the_seed():
    probs = np.array([[0.1, 0.0, 0.6, 0.3], [0.0, 0.0, 0.0, 1.0]])
    with np.errstate(divide="ignore"):
        logits = np.log(probs)
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        draws = tg.multinomial(logits, 20000, seed=1)
        small = tg.random.categorical(logits, 5, dtype=tg.int32)
        with tg.Session() as sess:
            d, s = sess.run([draws, small])
            again = sess.run(draws)
    assert d.dtype == np.int64 and s.dtype == np.int32 and d.shape == (2, 20000) and draws.shape == (2, 20000)
    np.testing.assert_allclose(np.bincount(d[0], minlength=4) / 20000, probs[0], atol=0.015)
    assert (d[1] == 3).all() and (d[0] != 1).all()  # zero-probability classes are never drawn
    assert not np.array_equal(d, again)
    with tg.Graph().as_default():
        tg.set_random_seed(3)
        np.testing.assert_array_equal(run(tg.multinomial(logits, 20000, seed=1)), d)


def test_random_crop_picks_a_window_and_routes_its_gradient():
    x = np.arange(60.0).reshape(5, 4, 3)
    with tg.Graph().as_default():
        v = tg.Variable(x)
        crop = tg.random_crop(v, [2, 3, 3], seed=5)
        grad, = tg.gradients(tg.reduce_sum(crop * crop), [v])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            seen = set()
            for _ in range(30):
                c, g = sess.run([crop, grad])
                i, j = int(c[0, 0, 0]) // 12, int(c[0, 0, 0]) % 12 // 3
                np.testing.assert_array_equal(c, x[i:i + 2, j:j + 3])
                expected = np.zeros_like(x)
                expected[i:i + 2, j:j + 3] = 2 * c
                np.testing.assert_array_equal(g, expected)
                seen.add((i, j))
        assert crop.shape == (2, 3, 3) and len(seen) > 4
        too_big = tg.random_crop(v, [6, 1, 1])
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            with pytest.raises(tg.errors.InvalidArgumentError, match=r"Need value.shape >= size, got \[5, 4, 3\]"):
                sess.run(too_big)
