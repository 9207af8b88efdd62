"""tg.nn ops: activations, softmax, losses, bias_add, conv2d, max_pool and dropout, through the oracle."""
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


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax(name):
    check_op(getattr(tg.nn, name), [LOGITS], torch_fn=F and (lambda t: getattr(F, name)(t, dim=-1)))
    check_op(getattr(tg.nn, name), [RNG.standard_normal((2, 3, 4))], dynamic=True,
             torch_fn=F and (lambda t: getattr(F, name)(t, dim=-1)))


def test_softmax_cross_entropy():
    labels = RNG.dirichlet(np.ones(5), size=4)
    check_op(lambda y, x: tg.nn.softmax_cross_entropy_with_logits(labels=y, logits=x), [labels, LOGITS],
             torch_fn=F and (lambda y, x: F.cross_entropy(x, y, reduction="none")))


def test_sparse_softmax_cross_entropy():
    labels = np.array([0, 4, 2, 2], dtype=np.int64)
    check_op(lambda x, y: tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x), [LOGITS, labels],
             torch_fn=F and (lambda x, y: F.cross_entropy(x, y, reduction="none")))


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
    with tg.Graph().as_default():
        x = tg.ones([4])
        assert tg.nn.dropout(x, rate=0.5, training=False) is x
        with pytest.raises(ValueError, match="rate"):
            tg.nn.dropout(x, rate=1.0)


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
