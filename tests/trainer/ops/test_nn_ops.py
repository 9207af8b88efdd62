"""tg.nn ops: activations, softmax, losses, bias_add, conv2d, max_pool and dropout, through the oracle."""
import math
import warnings

import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

F = torch and torch.nn.functional
RNG = np.random.default_rng(0)
LOGITS = RNG.standard_normal((4, 5)) * 2


def _away_from_zero(shape):
    x = RNG.uniform(0.1, 2.0, shape)
    return x * RNG.choice([-1.0, 1.0], shape)


@pytest.mark.parametrize("shape", [(7,), (3, 4)], ids=str)
@pytest.mark.parametrize("name", ["relu", "sigmoid", "tanh"])
def test_activations(name, shape):
    check_op(getattr(tg.nn, name), [_away_from_zero(shape)], torch_fn=torch and getattr(torch, name))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32])
def test_relu_of_large_arrays_is_numpys_maximum_to_the_bit(dtype):
    """Large arrays take the SIMD path (blocks of zeros): the same bits as np.maximum(x, 0), NaN payloads and signed
    zeros included, whether the kernel writes in place (a dead input buffer) or into a new array."""
    specials = [-0.0, 0.0, np.nan, -np.nan, np.inf, -np.inf, 1e-45, -1e-45] if dtype != np.int32 else [0, -1, 1]
    x = RNG.standard_normal(7 * 7025) * 100  # not a whole number of blocks
    x[RNG.integers(0, x.size, 400)] = RNG.choice(specials, 400)
    x = x.astype(dtype).reshape(-1, 7)
    with tg.Graph().as_default():
        c = tg.constant(x)
        with tg.Session() as sess:
            kept, in_place = sess.run([tg.nn.relu(c), tg.nn.relu(tg.negative(tg.negative(c)))])
    expected = np.maximum(x, 0)
    for value in (kept, in_place):
        assert value.dtype == dtype and value.tobytes() == expected.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sigmoid_tails_are_exact_and_quiet(dtype):
    """Far from 0 the sigmoid neither overflows nor loses its tail: sigmoid(-x) = exp(-x) / (1 + exp(-x))."""
    x = np.array([-1000.0, -80.0, -30.0, -5.0, 0.0, 5.0, 30.0, 1000.0])
    expected = [0.0 if v < -700 else math.exp(v) / (1 + math.exp(v)) if v < 0 else 1 / (1 + math.exp(-v)) for v in x]
    with tg.Graph().as_default(), warnings.catch_warnings():
        warnings.simplefilter("error")
        with tg.Session() as sess:
            value = sess.run(tg.nn.sigmoid(tg.constant(x.astype(dtype))))
    assert value.dtype == dtype
    np.testing.assert_allclose(value, np.array(expected, dtype=dtype), rtol=4 * np.finfo(dtype).eps, atol=0)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax(name):
    check_op(getattr(tg.nn, name), [LOGITS], torch_fn=F and (lambda t: getattr(F, name)(t, dim=-1)))
    check_op(getattr(tg.nn, name), [RNG.standard_normal((2, 3, 4))], dynamic=True,
             torch_fn=F and (lambda t: getattr(F, name)(t, dim=-1)))


def test_softmax_cross_entropy():
    # v2 differentiates labels too; TF1's v1 stops the gradient at the labels.
    labels = RNG.dirichlet(np.ones(5), size=4)
    check_op(lambda y, x: tg.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x), [labels, LOGITS],
             torch_fn=F and (lambda y, x: F.cross_entropy(x, y, reduction="none")))
    check_op(lambda y, x: tg.nn.softmax_cross_entropy_with_logits(labels=y, logits=x), [labels, LOGITS], wrt=[1],
             torch_fn=F and (lambda y, x: F.cross_entropy(x, y, reduction="none")))
    with tg.Graph().as_default():
        y, x = tg.constant(labels), tg.constant(LOGITS)
        assert tg.gradients(tg.nn.softmax_cross_entropy_with_logits(labels=y, logits=x), [y]) == [None]
        with pytest.raises(ValueError, match="named arguments"):
            tg.nn.softmax_cross_entropy_with_logits(y, x)


@pytest.mark.parametrize("fn", [tg.nn.softmax_cross_entropy_with_logits, tg.nn.softmax_cross_entropy_with_logits_v2],
                         ids=["v1", "v2"])
@pytest.mark.parametrize("labels", [lambda y: tg.constant(y), lambda y: y, lambda y: y.tolist(),
                                    lambda y: tg.constant(y.astype(np.int32))],
                         ids=["float64_tensor", "float64_numpy", "python", "int32_tensor"])
def test_softmax_cross_entropy_casts_the_labels_to_the_logits_dtype(fn, labels):
    # TF's nn_ops converts the labels as they come, then casts them to the dtype the logits are computed in
    onehot = np.eye(5)[[0, 3, 1, 4]]
    expected = -(onehot * (LOGITS - np.log(np.exp(LOGITS).sum(-1, keepdims=True)))).sum(-1)
    with tg.Graph().as_default():
        logits = tg.constant(LOGITS.astype(np.float32))
        loss = fn(labels=labels(onehot), logits=logits)
        grad, = tg.gradients(loss, [logits])
        with tg.Session() as sess:
            value, grad_value = sess.run([loss, grad])
    assert loss.dtype == tg.float32 and grad.dtype == tg.float32
    np.testing.assert_allclose(value, expected, rtol=1e-5)
    softmax = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    np.testing.assert_allclose(grad_value, softmax - onehot, rtol=1e-5, atol=1e-6)


def test_softmax_cross_entropy_of_half_logits_is_computed_in_float32():
    # as TF: float16 logits are cast up, the loss is cast back; the float64 labels still get their gradient
    onehot = np.eye(5)[[0, 3, 1, 4]]
    with tg.Graph().as_default():
        logits, labels = tg.constant(LOGITS.astype(np.float16)), tg.constant(onehot)
        loss = tg.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
        to_logits, to_labels = tg.gradients(loss, [logits, labels])
        with tg.Session() as sess:
            value = sess.run(loss)
    assert (loss.dtype, to_logits.dtype, to_labels.dtype) == (tg.float16, tg.float16, tg.float64)
    expected = -(onehot * (LOGITS - np.log(np.exp(LOGITS).sum(-1, keepdims=True)))).sum(-1)
    np.testing.assert_allclose(value, expected, rtol=2e-3)


def test_softmax_and_cross_entropy_along_another_axis():
    x, labels = RNG.standard_normal((5, 3)), RNG.dirichlet(np.ones(5), size=3).T
    check_op(lambda t: tg.nn.softmax(t, axis=0), [x], torch_fn=F and (lambda t: F.softmax(t, dim=0)))
    check_op(lambda t: tg.nn.log_softmax(t, dim=0), [x], torch_fn=F and (lambda t: F.log_softmax(t, dim=0)))
    check_op(lambda y, t: tg.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=t, axis=0), [labels, x],
             numpy_fn=lambda y, t: -(y * (t - np.log(np.exp(t).sum(0)))).sum(0))
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="both 'dim' and 'axis'"):
            tg.nn.softmax(tg.constant(x), axis=0, dim=0)


def test_sparse_softmax_cross_entropy():
    labels = np.array([0, 4, 2, 2], dtype=np.int64)
    check_op(lambda x, y: tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x), [LOGITS, labels],
             torch_fn=F and (lambda x, y: F.cross_entropy(x, y, reduction="none")))


@pytest.mark.parametrize("device", ["cpu", "strict"])
@pytest.mark.parametrize("bad,dtype", [(7, np.int64), (5, np.int32), (-1, np.int64)])
def test_a_sparse_label_out_of_range_is_tf1s_invalid_argument_error(device, bad, dtype):
    if device == "strict":
        from tests.trainer import strict_device
        device = strict_device.use()
    labels, logits = tg.placeholder(dtype, [None]), tg.placeholder(tg.float64, [None, 5])
    loss = tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    with tg.Session(device=device) as sess:
        good = sess.run(loss, {labels: np.array([1, 4, 0], dtype), logits: np.zeros((3, 5))})
        np.testing.assert_allclose(good, np.full(3, np.log(5)))  # uniform logits: log(classes) whatever the label
        with pytest.raises(tg.errors.InvalidArgumentError) as err:
            sess.run(loss, {labels: np.array([1, bad, 3], dtype), logits: np.zeros((3, 5))})
    assert (f"Received a label value of {bad} which is outside the valid range of [0, 5).  Label values: 1 {bad} 3"
            in str(err.value))


def test_sigmoid_cross_entropy():
    labels = RNG.uniform(0, 1, (3, 4))
    check_op(lambda y, x: tg.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x), [labels, _away_from_zero((3, 4))],
             torch_fn=F and (lambda y, x: F.binary_cross_entropy_with_logits(x, y, reduction="none")))


def test_l2_loss_and_mean_squared_error():
    x, y = RNG.standard_normal((3, 4)), RNG.standard_normal((3, 4))
    check_op(tg.nn.l2_loss, [x], torch_fn=torch and (lambda t: (t * t).sum() / 2))
    check_op(lambda a, b: tg.losses.mean_squared_error(a, b), [x, y], torch_fn=F and (lambda a, b: F.mse_loss(b, a)))


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4)], ids=str)
def test_bias_add(shape):
    check_op(tg.nn.bias_add, [RNG.standard_normal(shape), RNG.standard_normal(shape[-1:])],
             torch_fn=torch and (lambda x, b: x + b))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(9, 1000, 32), (70001, 3), (300, 512), (200, 513)], ids=str)
def test_bias_add_of_large_arrays_is_numpys_add_to_the_bit(shape, dtype):
    """Large arrays of short rows add the bias tiled into blocks: the same bits as np.add(x, b), NaNs, infinities and
    signed zeros included, in place (a dead input buffer) or into a new array, whole blocks or not."""
    x = RNG.standard_normal(shape) * 100
    x.reshape(-1)[RNG.integers(0, x.size, 400)] = RNG.choice([-0.0, 0.0, np.nan, np.inf, -np.inf, 1e-45], 400)
    b = RNG.standard_normal(shape[-1:]) * 100
    b[:3] = [-0.0, np.inf, np.nan]
    with np.errstate(over="ignore"):
        x, b = x.astype(dtype), b.astype(dtype)
    with tg.Graph().as_default(), np.errstate(invalid="ignore", over="ignore"):  # inf - inf, float16's range
        c, bias = tg.constant(x), tg.constant(b)
        with tg.Session() as sess:
            kept, in_place = sess.run([tg.nn.bias_add(c, bias), tg.nn.bias_add(tg.negative(tg.negative(c)), bias)])
        expected = np.add(x, b)
    for value in (kept, in_place):
        assert value.dtype == dtype and value.tobytes() == expected.tobytes()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(64, 10), (512, 10), (6, 9, 9, 16)], ids=str)
def test_bias_add_gradient_is_the_sum_over_every_axis_but_the_last(shape, dtype):
    """BiasAddGrad (numpy's reduction for few values, one GEMV for many float32/float64 ones) against the exact sum,
    within the dtype's rounding of it."""
    g = (RNG.standard_normal(shape) * 4).astype(dtype)
    with tg.Graph().as_default():
        x, b = tg.placeholder(dtype, shape), tg.placeholder(dtype, shape[-1:])
        db = tg.gradients(tg.reduce_sum(tg.nn.bias_add(x, b) * tg.constant(g)), [b])[0]
        with tg.Session() as sess:
            value = sess.run(db, {x: np.zeros(shape, dtype), b: np.zeros(shape[-1:], dtype)})
    exact = g.astype(np.float64).reshape(-1, shape[-1]).sum(axis=0)
    rows = np.abs(g).astype(np.float64).reshape(-1, shape[-1])
    bound = float(np.finfo(dtype).eps) * len(rows) * rows.sum(axis=0)
    assert value.dtype == dtype and value.shape == shape[-1:]
    assert np.all(np.abs(value - exact) <= bound)


def test_huge_logits_give_finite_losses_and_gradients():
    logits = np.array([[1e4, -1e4, 0.0], [-5e3, 5e3, 1e3]], dtype=np.float32)
    with tg.Graph().as_default():
        x = tg.constant(logits)
        labels = tg.constant(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], dtype=np.float32))
        losses = [tg.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x),
                  tg.nn.sparse_softmax_cross_entropy_with_logits(labels=tg.constant([1, 0]), logits=x),
                  tg.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=x),
                  tg.nn.log_softmax(x), tg.nn.softmax(x), tg.nn.sigmoid(x)]
        grads = [tg.gradients(tg.reduce_sum(loss), [x])[0] for loss in losses]
        with tg.Session() as sess:
            values = sess.run(losses + grads)
    for value in values:
        assert np.all(np.isfinite(value)), value
    np.testing.assert_allclose(values[0], [2e4, 1e4], rtol=1e-6)


def _torch_same_pad(x, kh, kw, sh, sw):
    pads = []
    for size, k, s in [(x.shape[3], kw, sw), (x.shape[2], kh, sh)]:
        out = -(-size // s)
        total = max((out - 1) * s + k - size, 0)
        pads += [total // 2, total - total // 2]
    return F.pad(x, pads)


def _torch_conv(x, w, stride, padding):
    x, w = x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1)
    if padding == "SAME":
        x = _torch_same_pad(x, w.shape[2], w.shape[3], stride, stride)
    return F.conv2d(x, w, stride=stride).permute(0, 2, 3, 1)


def _torch_pool(x, k, stride, padding):
    x = x.permute(0, 3, 1, 2)
    if padding == "SAME":
        x = F.pad(x, [0, 0, 0, 0], value=0.0)
        pads = []
        for size in (x.shape[3], x.shape[2]):
            out = -(-size // stride)
            total = max((out - 1) * stride + k - size, 0)
            pads += [total // 2, total - total // 2]
        x = F.pad(x, pads, value=-float("inf"))
    return F.max_pool2d(x, k, stride).permute(0, 2, 3, 1)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride,size,k", [(1, 5, 3), (2, 6, 3), (2, 5, 2), (3, 7, 1)], ids=str)
def test_conv2d(stride, size, k, padding):
    x, w = RNG.standard_normal((2, size, size - 1, 3)), RNG.standard_normal((k, k, 3, 2))
    check_op(lambda a, b: tg.nn.conv2d(a, b, strides=[1, stride, stride, 1], padding=padding), [x, w],
             torch_fn=F and (lambda a, b: _torch_conv(a, b, stride, padding)))


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("stride,size,k", [(2, 4, 2), (2, 5, 3), (1, 4, 2)], ids=str)
def test_max_pool(stride, size, k, padding):
    x = RNG.permutation(2 * size * size * 2).reshape(2, size, size, 2) / 7.0  # distinct values: no ties
    check_op(lambda a: tg.nn.max_pool(a, ksize=[1, k, k, 1], strides=[1, stride, stride, 1], padding=padding), [x],
             torch_fn=F and (lambda a: _torch_pool(a, k, stride, padding)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ksize,strides,padding", [(2, 2, "VALID"), (3, 2, "SAME"), (2, 1, "SAME")], ids=str)
def test_relu_gradient_through_max_pooling_masks_the_pooled_gradient(ksize, strides, padding, dtype):
    """relu then max_pool: the ReLU's gradient is the mask applied before the pooling gradient (on pooled values),
    equal to the bit to ReluGrad after MaxPoolGrad (the same graph with an identity between the two), ties of
    zeros and of equal positive values included."""
    x = np.round(RNG.standard_normal((3, 9, 8, 4)) * 2).astype(dtype)  # many equal values per window
    seed, grads = RNG.integers(1 << 30), []
    for between in (None, tg.identity):
        with tg.Graph().as_default() as graph:
            a = tg.constant(x)
            r = tg.nn.relu(a)
            y = tg.nn.max_pool(r if between is None else between(r), ksize, strides, padding)
            weights = np.random.default_rng(seed).standard_normal(y.shape).astype(dtype)
            grad = tg.gradients(tg.reduce_sum(y * weights), [a])[0]
            with tg.Session() as sess:
                grads.append(sess.run(grad))
            masked = [op.outputs[0].shape for op in graph.get_operations() if op.type == "ReluGrad"]
            assert masked == [y.shape if between is None else a.shape]
    assert grads[0].dtype == dtype
    np.testing.assert_array_equal(grads[0], grads[1])
    assert np.count_nonzero(grads[0]) and np.count_nonzero(grads[0]) < x.size


def test_conv_with_unknown_batch_size():
    with tg.Graph().as_default():
        x = tg.placeholder(tg.float32, [None, 8, 8, 3])
        y = tg.nn.max_pool(tg.nn.conv2d(x, tg.zeros([3, 3, 3, 4]), strides=1, padding="SAME"), ksize=2, strides=2,
                           padding="VALID")
        assert y.shape == (None, 4, 4, 4)
        with tg.Session() as sess:
            assert sess.run(y, {x: np.ones((5, 8, 8, 3))}).shape == (5, 4, 4, 4)


def test_dropout_is_reproducible_from_seeds_and_scales_the_kept_values():
    def run(graph_seed, op_seed):
        with tg.Graph().as_default():
            tg.set_random_seed(graph_seed)
            x = tg.ones([1000])
            y = tg.nn.dropout(x, rate=0.25, seed=op_seed)
            g, = tg.gradients(tg.reduce_sum(y * 3.0), [x])
            with tg.Session() as sess:
                first, grad = sess.run([y, g])
                second = sess.run(y)
        return first, grad, second
    a, grad, a2 = run(1, 7)
    b, _, b2 = run(1, 7)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a, a2)  # a fresh mask each run
    assert set(np.unique(a)) == {0.0, np.float32(1 / 0.75)} and 0.2 < np.mean(a == 0) < 0.3
    np.testing.assert_allclose(grad, 3 * a)
    assert not np.array_equal(run(1, 8)[0], a)


def test_dropout_second_argument_is_the_keep_probability():
    # TF1: dropout(x, 0.9) keeps 90% (scaled by 1/0.9); rate=0.9 keeps 10%.
    with tg.Graph().as_default():
        tg.set_random_seed(0)
        x = tg.ones([20000])
        keep90, keep10 = tg.nn.dropout(x, 0.9), tg.nn.dropout(x, rate=0.9)
        assert keep90.name == "dropout/mul_1:0"
        with tg.Session() as sess:
            a, b = sess.run([keep90, keep10])
    assert abs(np.mean(a != 0) - 0.9) < 0.01 and abs(np.mean(b != 0) - 0.1) < 0.01
    np.testing.assert_allclose(np.unique(a), [0.0, 1 / 0.9], rtol=1e-6)
    np.testing.assert_allclose(np.unique(b), [0.0, 1 / 0.1], rtol=1e-6)


def test_dropout_keep_prob_fed_through_a_placeholder():
    with tg.Graph().as_default():
        x = tg.constant(np.arange(1.0, 2001.0, dtype=np.float32))
        keep_prob = tg.placeholder(tg.float32)
        y = tg.nn.dropout(x, keep_prob, seed=1)
        g, kg = tg.gradients(tg.reduce_sum(y), [x, keep_prob])
        with tg.Session() as sess:
            identity = sess.run(y, {keep_prob: 1.0})
            half, grad, keep_grad = sess.run([y, g, kg], {keep_prob: 0.5})
            with pytest.raises(ValueError, match="keep_prob 0.0"):
                sess.run(y, {keep_prob: 0.0})
    np.testing.assert_array_equal(identity, np.arange(1.0, 2001.0))
    kept = half != 0
    assert 0.45 < kept.mean() < 0.55
    np.testing.assert_allclose(half[kept], 2 * np.arange(1.0, 2001.0)[kept])
    np.testing.assert_allclose(grad, 2.0 * kept)
    # d/dkeep of sum(x * mask / keep) = -sum(y) / keep
    np.testing.assert_allclose(keep_grad, -half.sum() / 0.5, rtol=1e-5)


def test_dropout_noise_shape_shares_decisions_along_broadcast_dims():
    with tg.Graph().as_default():
        x = tg.ones([64, 8])
        rows = tg.nn.dropout(x, 0.5, noise_shape=[64, 1], seed=3)
        cols = tg.nn.dropout(tg.placeholder(tg.float32, [None, 8]), 0.5, noise_shape=[1, None], seed=3)
        with tg.Session() as sess:
            r = sess.run(rows)
            c = sess.run(cols, {cols.op.inputs[0]: np.ones((64, 8), np.float32)})
    assert all(len(set(row)) == 1 for row in r) and 0 < (r[:, 0] == 0).mean() < 1
    assert all(len(set(col)) == 1 for col in c.T) and 0 < (c[0] == 0).mean() < 1


def test_dropout_validation_names_the_value():
    with tg.Graph().as_default():
        x = tg.ones([4])
        assert tg.nn.dropout(x, 1.0) is x and tg.nn.dropout(x, rate=0.0) is x
        for kwargs, match in [(dict(keep_prob=0.0), r"keep_prob must be in \(0, 1\], got 0.0"),
                              (dict(keep_prob=1.5), "got 1.5"), (dict(rate=1.0), r"rate must be in \[0, 1\), got 1.0"),
                              (dict(keep_prob=0.5, rate=0.5), "not both"), ({}, "keep_prob"),
                              (dict(keep_prob=0.5, noise_shape=[2]), r"noise_shape \[2\]"),
                              (dict(keep_prob=tg.constant([0.5, 0.5])), "scalar")]:
            with pytest.raises(ValueError, match=match):
                tg.nn.dropout(x, **kwargs)
        with pytest.raises(TypeError):
            tg.nn.dropout(x, 0.5, training=False)  # TF1's tf.nn.dropout has no training=
        with pytest.raises(ValueError, match="floating point"):
            tg.nn.dropout(tg.constant([1, 2]), 0.5)


def test_in_place_kernels_never_clobber_values_still_needed():
    # The session runs relu/bias_add/add/... in place on dead buffers only: views, later reads and fetches
    # of a buffer keep it alive.
    rng = np.random.default_rng(3)
    x, w, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 5)), rng.standard_normal(5)
    with tg.Graph().as_default():
        h = tg.matmul(tg.constant(x), tg.constant(w))
        r = tg.nn.relu(h)
        row = r[0]
        s = tg.nn.bias_add(r, tg.constant(b))
        t = tg.nn.relu(s) * 2.0 + row
        u = -tg.transpose(h)
        with tg.Session() as sess:
            rv, tv, uv, hv = sess.run([r, t, u, h])
            tv2 = sess.run(t)
    hx = x @ w
    rx = np.maximum(hx, 0)
    np.testing.assert_allclose(hv, hx)
    np.testing.assert_allclose(rv, rx)
    np.testing.assert_allclose(tv, np.maximum(rx + b, 0) * 2 + rx[0])
    np.testing.assert_allclose(tv2, tv)
    np.testing.assert_allclose(uv, -hx.T)


@pytest.mark.parametrize("name,torch_name", [("relu6", "relu6"), ("elu", "elu"), ("softplus", "softplus"),
                                             ("leaky_relu", "leaky_relu")])
def test_more_activations(name, torch_name):
    x = _away_from_zero((3, 4)) * 4  # values on both sides of 0 and 6, none at the kinks
    check_op(getattr(tg.nn, name), [x], torch_fn=F and getattr(F, torch_name) if name != "leaky_relu" else
             F and (lambda t: F.leaky_relu(t, 0.2)))
    check_op(lambda t: tg.gradients(tg.reduce_sum(getattr(tg.nn, name)(t) * t), [t])[0], [x])  # second order


def test_l2_normalize_moments_xw_plus_b():
    x, w, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2)), RNG.standard_normal(2)
    check_op(lambda t: tg.nn.l2_normalize(t, axis=1), [x], numpy_fn=lambda a: a / np.linalg.norm(a, axis=1,
                                                                                                 keepdims=True))
    check_op(lambda t: tg.nn.l2_normalize(t, dim=0), [x], numpy_fn=lambda a: a / np.linalg.norm(a, axis=0))
    check_op(lambda t: tg.nn.moments(t, axes=[0])[0], [x], numpy_fn=lambda a: a.mean(0))
    check_op(lambda t: tg.nn.moments(t, axes=[0])[1], [x], numpy_fn=lambda a: a.var(0))
    check_op(lambda t: tg.nn.moments(t, [0, 1], keep_dims=True)[1], [x], numpy_fn=lambda a: a.var(keepdims=True))
    check_op(tg.nn.xw_plus_b, [x, w, b], numpy_fn=lambda a, c, d: a @ c + d)


def test_top_k_and_in_top_k():
    x = np.array([[1.0, 3.0, 3.0, 0.5], [4.0, -1.0, 2.0, 8.0]])
    distinct = RNG.permutation(12).reshape(3, 4) / 3.0  # the gradient is defined away from ties
    check_op(lambda t: tg.nn.top_k(t, k=2)[0], [distinct], numpy_fn=lambda a: -np.sort(-a, axis=1)[:, :2])
    with tg.Graph().as_default():
        values, indices = tg.nn.top_k(tg.constant(x), 3)
        hits = tg.nn.in_top_k(tg.constant(x), tg.constant([2, 1]), 1)
        ties = tg.nn.in_top_k(tg.constant([[1.0, 2.0, 2.0, 2.0]]), tg.constant([3]), 1)
        with tg.Session() as sess:
            v, i, h, t = sess.run([values, indices, hits, ties])
    assert indices.dtype == np.int32 and i.tolist() == [[1, 2, 0], [3, 0, 2]]  # ties: lower index first
    assert h.tolist() == [True, False] and t.tolist() == [True]  # ties at the boundary count


def test_embedding_lookup_matches_indexing_and_scatters_its_gradient():
    table, ids = RNG.standard_normal((5, 3)), np.array([[0, 3], [3, 4]])
    check_op(lambda p: tg.nn.embedding_lookup(p, tg.constant(ids)), [table], numpy_fn=lambda p: p[ids])
    check_op(lambda p: tg.gather(p, tg.constant([2, 0, 2]), axis=1), [table], numpy_fn=lambda p: p[:, [2, 0, 2]])
    with tg.Graph().as_default():
        shards = [tg.constant(table[i::2]) for i in range(2)]  # "mod": id i lives in shard i % 2, row i // 2
        by_mod = tg.nn.embedding_lookup(shards, tg.constant(ids))
        by_div = tg.nn.embedding_lookup([tg.constant(table[:3]), tg.constant(table[3:])], tg.constant(ids),
                                        partition_strategy="div")
        clipped = tg.nn.embedding_lookup(tg.constant(table), tg.constant([1]), max_norm=0.5)
        bad = tg.gather(tg.constant(table), tg.constant([5]))
        with tg.Session() as sess:
            m, d, c = sess.run([by_mod, by_div, clipped])
            with pytest.raises(ValueError, match=r"index 5 is not in \[0, 5\)"):
                sess.run(bad)
    np.testing.assert_allclose(m, table[ids])
    np.testing.assert_allclose(d, table[ids])
    np.testing.assert_allclose(c, table[[1]] * min(1.0, 0.5 / np.linalg.norm(table[1])), rtol=1e-6)


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64, np.uint8, np.uint64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6, 5), (2, 3, 5), (40, 10), (4, 8, 5), (20, 200)], ids=str)
def test_sparse_softmax_cross_entropy_is_the_stable_formula_to_the_bit(shape, dtype, label_dtype):
    """Loss log(sum(exp(x - max))) - (x - max)[label] and gradient softmax - one_hot, by numpy in that order (the
    row maximum taken over columns for many short rows), NaN and -inf logits included."""
    logits = (RNG.standard_normal(shape) * 3).astype(dtype)
    logits.reshape(-1, shape[-1])[:2, 1] = [np.nan, -np.inf]
    labels = RNG.integers(0, shape[-1], shape[:-1]).astype(label_dtype)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    picked = np.take_along_axis(shifted, labels[..., None].astype(np.int64), -1)[..., 0]
    total = np.exp(shifted).sum(axis=-1, keepdims=True)
    one_hot = np.eye(shape[-1], dtype=dtype)[labels]
    with tg.Graph().as_default():
        x = tg.constant(logits)
        loss = tg.nn.sparse_softmax_cross_entropy_with_logits(labels=tg.constant(labels), logits=x)
        with tg.Session() as sess:
            value, grad = sess.run([loss, tg.gradients(tg.reduce_sum(loss), [x])[0]])
    assert value.dtype == grad.dtype == dtype
    np.testing.assert_array_equal(value, np.log(total[..., 0]) - picked)
    np.testing.assert_array_equal(grad, np.exp(shifted) / total - one_hot)
