"""More TF1 ops: printing and checks, scans, contractions, segments, masks, batch norm, shuffle, transposed
convolution and scatter updates, each against numpy/PyTorch and numerical gradients (op_oracle)."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

RNG = np.random.default_rng(7)


def _run(fetch, feed=None):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetch, feed)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


# --- printing and checks ----------------------------------------------------------------------------------
def test_print_is_identity_and_prints_tf1_format(capfd):
    x = tg.constant([1.0, 2.0, 3.0, 4.0])
    y = tg.Print(x, [x, tg.constant(7)], message="vals: ", summarize=2)
    np.testing.assert_array_equal(_run(y * 2.0), [2, 4, 6, 8])
    assert capfd.readouterr().err == "vals: [1 2...][7]\n"


def test_print_first_n_and_gradient(capfd):
    x = tg.placeholder(tg.float32, [3])
    y = tg.Print(x, [x], message="m", first_n=2)
    g, = tg.gradients(tg.reduce_sum(y * y), [x])
    with tg.Session() as sess:
        for _ in range(3):
            out = sess.run(g, {x: [1.0, 2.0, 3.0]})
    np.testing.assert_allclose(out, [2, 4, 6])
    assert capfd.readouterr().err.count("m[1 2 3]") == 2


def test_tf_print_returns_an_op(capfd):
    x = tg.range(10)
    op = tg.print("x:", x, output_stream=__import__("sys").stdout)
    assert isinstance(op, tg.Operation) and tg.print.__name__ == "print"
    _run(op)
    assert capfd.readouterr().out == "x: [0 1 2 ... 7 8 9]\n"


def test_assert_raises_invalid_argument_naming_data():
    x = tg.placeholder(tg.float32, [2])
    check = tg.Assert(tg.reduce_all(x > 0), ["x must be positive", x])
    with tg.control_dependencies([check]):
        y = tg.identity(x)
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [1, 2])
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"assertion failed: \[x must be positive\] "
                                                                  r"\[1 -2\]"):
            sess.run(y, {x: [1.0, -2.0]})


@pytest.mark.parametrize("fn, good, bad", [
    (tg.assert_equal, ([1, 2], [1, 2]), ([1, 2], [1, 3])),
    (tg.assert_none_equal, ([1, 2], [3, 4]), ([1, 2], [1, 4])),
    (tg.assert_less, ([1, 2], [2, 3]), ([1, 2], [2, 2])),
    (tg.assert_less_equal, ([1, 2], [1, 3]), ([1, 4], [1, 3])),
    (tg.assert_greater, ([3, 4], [2, 3]), ([3, 3], [2, 3])),
    (tg.assert_greater_equal, ([3, 3], [2, 3]), ([1, 3], [2, 3])),
])
def test_binary_asserts(fn, good, bad):
    a, b = tg.placeholder(tg.int32, [2]), tg.placeholder(tg.int32, [2])
    op = fn(a, b, message="custom")
    with tg.Session() as sess:
        sess.run(op, {a: good[0], b: good[1]})
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"\[custom\].*did not hold"):
            sess.run(op, {a: bad[0], b: bad[1]})


def test_assert_equal_on_constants_fails_while_building():
    with pytest.raises(tg.errors.InvalidArgumentError, match="assert_equal"):
        tg.assert_equal(tg.constant(1), tg.constant(2))


@pytest.mark.parametrize("fn, good, bad", [(tg.assert_positive, [1.0], [0.0]), (tg.assert_negative, [-1.0], [0.0]),
                                           (tg.assert_non_negative, [0.0], [-1.0])])
def test_sign_asserts(fn, good, bad):
    x = tg.placeholder(tg.float32, [1], name="xx")
    op = fn(x)
    with tg.Session() as sess:
        sess.run(op, {x: good})
        with pytest.raises(tg.errors.InvalidArgumentError, match="xx:0"):
            sess.run(op, {x: bad})


def test_static_asserts():
    x = tg.placeholder(tg.float32, [2, 3], name="m")
    tg.assert_rank(x, 2)
    with pytest.raises(ValueError, match="'m:0' must have rank 3"):
        tg.assert_rank(x, 3)
    with pytest.raises(TypeError, match="must be of type int32"):
        tg.assert_type(x, tg.int32)
    with pytest.raises(TypeError, match="integer"):
        tg.assert_integer(x)
    dynamic = tg.placeholder(tg.float32, None)
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError):
        sess.run(tg.assert_rank(dynamic, 1), {dynamic: np.zeros((2, 2))})
    assert tg.debugging.assert_equal is tg.assert_equal


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the NaN/Inf is the point
def test_check_numerics_names_the_tensor():
    x = tg.placeholder(tg.float32, [2])
    y = tg.check_numerics(tg.log(x), "log of x")
    with tg.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [1.0, np.e]}), [0, 1], atol=1e-6)
        with pytest.raises(tg.errors.InvalidArgumentError, match="log of x : Tensor had NaN values"):
            sess.run(y, {x: [-1.0, 1.0]})


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the NaN/Inf is the point
def test_add_check_numerics_ops_names_the_culprit():
    x = tg.placeholder(tg.float32, [2], name="x")
    w = tg.Variable([1.0, 1.0], name="w")
    bad = tg.divide(w, x, name="ratio")
    check = tg.add_check_numerics_ops()
    with tg.Session() as sess:
        sess.run(w.initializer)
        sess.run([bad, check], {x: [1.0, 2.0]})
        with pytest.raises(tg.errors.InvalidArgumentError, match="ratio:0 : Tensor had Inf values"):
            sess.run([bad, check], {x: [0.0, 2.0]})


# --- scans, contractions, norms ----------------------------------------------------------------------------
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


@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("ij->j", [(3, 4)]),
    ("i,j->ij", [(3,), (2,)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("ij,jk", [(2, 3), (3, 2)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 2)]),
])
def test_einsum(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    check_op(lambda *ts: tg.einsum(equation, *ts), arrays,
             torch_fn=lambda *ts: torch.einsum(equation, *ts),
             numpy_fn=lambda *a: np.einsum(equation, *a))


@pytest.mark.parametrize("axes, shapes", [(1, [(2, 3), (3, 4)]), (2, [(2, 3, 4), (3, 4, 2)]),
                                          ([[0], [1]], [(3, 2), (4, 3)]), (0, [(2,), (3,)])])
def test_tensordot(axes, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    check_op(lambda a, b: tg.tensordot(a, b, axes), arrays, numpy_fn=lambda a, b: np.tensordot(a, b, axes))


@pytest.mark.parametrize("ord_, axis", [("euclidean", None), (2, 1), (1, 0), (np.inf, 1), (3, None),
                                        ("fro", [0, 1])])
def test_norm(ord_, axis):
    x = RNG.standard_normal((3, 4))
    expected = (lambda a: np.linalg.norm(a.reshape(-1), ord=2 if ord_ in ("euclidean", "fro") else ord_)) \
        if axis is None or isinstance(axis, list) else (lambda a: np.linalg.norm(a, ord=ord_, axis=axis))
    check_op(lambda t: tg.norm(t, ord=ord_, axis=axis), [x], numpy_fn=expected)


def test_linalg_namespace():
    x = RNG.standard_normal((2, 3, 3))
    check_op(tg.linalg.trace, [x], numpy_fn=lambda a: np.trace(a, axis1=-2, axis2=-1))
    check_op(tg.linalg.diag_part, [x], numpy_fn=lambda a: np.diagonal(a, axis1=-2, axis2=-1))
    check_op(tg.linalg.transpose, [x], numpy_fn=lambda a: np.swapaxes(a, -1, -2))
    np.testing.assert_array_equal(_run(tg.linalg.eye(2, 3)), np.eye(2, 3))
    p = tg.placeholder(tg.float64, [2, 2])
    with pytest.raises(NotImplementedError, match="repeated subscripts of 'ii'"):
        tg.gradients(tg.einsum("ii->", p), [p])


# --- segments and masks ---------------------------------------------------------------------------------
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


# --- batch normalization --------------------------------------------------------------------------------
def test_batch_normalization_matches_formula():
    x, mean, var, offset, scale = (RNG.standard_normal((4, 3)), RNG.standard_normal(3), RNG.uniform(0.5, 2, 3),
                                   RNG.standard_normal(3), RNG.standard_normal(3))
    check_op(lambda *ts: tg.nn.batch_normalization(*ts, variance_epsilon=1e-3), [x, mean, var, offset, scale],
             numpy_fn=lambda x, m, v, o, s: (x - m) / np.sqrt(v + 1e-3) * s + o)


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_fused_batch_norm(data_format):
    x, scale, offset = RNG.standard_normal((2, 3, 3, 2)), RNG.uniform(0.5, 2, 2), RNG.standard_normal(2)
    if data_format == "NCHW":
        x = x.transpose(0, 3, 1, 2)
    axes = (0, 1, 2) if data_format == "NHWC" else (0, 2, 3)
    bshape = (1, 1, 1, 2) if data_format == "NHWC" else (1, 2, 1, 1)

    def reference(x, s, o):
        m, v = x.mean(axis=axes), x.var(axis=axes)
        return (x - m.reshape(bshape)) / np.sqrt(v.reshape(bshape) + 1e-3) * s.reshape(bshape) + o.reshape(bshape)
    check_op(lambda *ts: tg.nn.fused_batch_norm(*ts, epsilon=1e-3, data_format=data_format)[0], [x, scale, offset],
             numpy_fn=reference)
    y, m, v = tg.nn.fused_batch_norm(tg.constant(x), tg.constant(scale), tg.constant(offset), epsilon=1e-3,
                                     data_format=data_format)
    _, m_v, v_v = _run([y, m, v])
    np.testing.assert_allclose(m_v, x.mean(axis=axes))
    np.testing.assert_allclose(v_v, x.var(axis=axes, ddof=1))  # TF1 returns the Bessel-corrected variance
    y2, m2, v2 = tg.nn.fused_batch_norm(tg.constant(x), tg.constant(scale), tg.constant(offset), mean=m_v,
                                        variance=v_v, epsilon=1e-3, data_format=data_format, is_training=False)
    y2_v = _run(y2)
    if torch is not None:
        expected = torch.nn.functional.batch_norm(
            torch.tensor(x if data_format == "NCHW" else x.transpose(0, 3, 1, 2)), torch.tensor(m_v),
            torch.tensor(v_v), torch.tensor(scale), torch.tensor(offset), training=False, eps=1e-3).numpy()
        np.testing.assert_allclose(y2_v, expected if data_format == "NCHW" else expected.transpose(0, 2, 3, 1),
                                   rtol=1e-10)
    with pytest.raises(ValueError, match="population mean"):
        tg.nn.fused_batch_norm(tg.constant(x), tg.constant(scale), tg.constant(offset), is_training=False)


# --- random_shuffle --------------------------------------------------------------------------------------
def test_random_shuffle_permutes_rows_and_is_seeded():
    def draws(seed):
        with tg.Graph().as_default():
            tg.set_random_seed(seed)
            op = tg.random.shuffle(tg.constant(np.arange(20).reshape(10, 2)))
            with tg.Session() as sess:
                return [sess.run(op) for _ in range(2)]
    a, b = draws(1), draws(1)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.array_equal(a[0], a[1])
    assert sorted(a[0][:, 0]) == list(range(0, 20, 2)) and np.all(a[0][:, 1] == a[0][:, 0] + 1)


# --- conv2d_transpose ------------------------------------------------------------------------------------
@pytest.mark.parametrize("padding, stride, in_hw, out_hw", [("SAME", 2, (3, 3), (6, 6)), ("VALID", 2, (3, 3), (7, 7)),
                                                            ("SAME", 1, (4, 3), (4, 3)), ("VALID", 1, (2, 2), (4, 4))])
def test_conv2d_transpose_against_torch(padding, stride, in_hw, out_hw):
    x, w = RNG.standard_normal((2, *in_hw, 3)), RNG.standard_normal((3, 3, 2, 3))  # HW out_channels in_channels
    out_shape = [2, *out_hw, 2]

    def torch_fn(x, w):
        y = torch.nn.functional.conv_transpose2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), stride=stride)
        # SAME: TF pads (total // 2) before; crop the full transposed output to output_shape the same way
        full = y.shape[2:]
        crops = [((f - o) // 2 if padding == "SAME" else 0) for f, o in zip(full, out_hw)]
        y = y[:, :, crops[0]:crops[0] + out_hw[0], crops[1]:crops[1] + out_hw[1]]
        return y.permute(0, 2, 3, 1)
    check_op(lambda a, b: tg.nn.conv2d_transpose(a, b, out_shape, strides=[1, stride, stride, 1], padding=padding),
             [x, w], torch_fn=torch_fn if torch is not None else None, tol32=dict(rtol=1e-4, atol=1e-4))


def test_conv2d_transpose_is_conv2d_adjoint_and_checks_shapes():
    x = RNG.standard_normal((1, 5, 5, 2))
    w = RNG.standard_normal((3, 3, 2, 4))
    y = RNG.standard_normal((1, 3, 3, 4))
    conv = _run(tg.nn.conv2d(tg.constant(x), tg.constant(w), [1, 2, 2, 1], "SAME"))
    back = _run(tg.nn.conv2d_transpose(tg.constant(y), tg.constant(w), [1, 5, 5, 2], [1, 2, 2, 1], "SAME"))
    np.testing.assert_allclose(np.sum(conv * y), np.sum(x * back), rtol=1e-5)  # <conv x, y> == <x, conv^T y>
    with pytest.raises(ValueError, match="maps 9 to 5"):
        tg.nn.conv2d_transpose(tg.constant(y), tg.constant(w), [1, 9, 9, 2], [1, 2, 2, 1], "SAME")


def test_layers_conv2d_transpose_dynamic_batch():
    x = tg.placeholder(tg.float32, [None, 4, 4, 3])
    y = tg.layers.conv2d_transpose(x, 5, 3, strides=2, padding="same")
    names = sorted(v.name for v in tg.global_variables())
    assert names == ["conv2d_transpose/bias:0", "conv2d_transpose/kernel:0"]
    assert tg.global_variables()[0].shape.as_list() in ([3, 3, 5, 3], [5])
    out = _run(y, {x: np.ones((2, 4, 4, 3))})
    assert out.shape == (2, 8, 8, 5)
    z = tg.layers.Conv2DTranspose(2, (2, 2), strides=(2, 2), padding="valid")(x)
    assert _run(z, {x: np.ones((1, 4, 4, 3))}).shape == (1, 8, 8, 2)


# --- scatter updates -------------------------------------------------------------------------------------
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
