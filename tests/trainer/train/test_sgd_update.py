"""SGD's update writing lr * grad into a large gradient buffer that dies with it: the same variables to the bit as
var -= lr * grad into a new array, and a gradient that is fetched or read after the update left unscaled."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(5)
LR = 0.1
FAN_IN, FAN_OUT = 320, 256  # 81,920 weights: over the size from which the update takes the gradient's buffer


def _model(dtype):
    """A dense layer and a softmax loss; returns (x, labels, loss, weight, bias)."""
    x, labels = tg.placeholder(dtype, [None, FAN_IN], name="x"), tg.placeholder(tg.int64, [None], name="labels")
    w = tg.Variable((RNG.standard_normal((FAN_IN, FAN_OUT)) / 16).astype(dtype), name="w")
    b = tg.Variable(np.zeros(FAN_OUT, dtype), name="b")
    logits = tg.nn.bias_add(tg.matmul(x, w), b)
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    return x, labels, loss, w, b


def _batches(dtype, n=3):
    return [(RNG.standard_normal((16, FAN_IN)).astype(dtype), RNG.integers(0, FAN_OUT, 16)) for _ in range(n)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_update_into_the_gradient_is_var_minus_lr_times_grad_to_the_bit(dtype):
    batches = _batches(dtype)
    with tg.Graph().as_default():
        x, labels, loss, w, b = _model(dtype)
        opt = tg.train.GradientDescentOptimizer(LR)
        grads_and_vars = opt.compute_gradients(loss)
        train = opt.apply_gradients(grads_and_vars)
        grads = [g for g, _ in grads_and_vars]
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            start = sess.run([w, b])
            for xs, ys in batches:  # the gradient buffers die with the update
                sess.run(train, {x: xs, labels: ys})
            donated = sess.run([w, b])
            w.load(start[0], sess)
            b.load(start[1], sess)
            for xs, ys in batches:  # fetched too, so the update takes a new array for lr * grad
                before = sess.run([w, b])
                fetched, _ = sess.run([grads, train], {x: xs, labels: ys})
                # TF1 reads the Python float LR as float32 and casts it to the variables' dtype
                by_hand = [v - dtype(np.float32(LR)) * g for v, g in zip(before, fetched)]
                after = sess.run([w, b])
                for a, e in zip(after, by_hand):
                    np.testing.assert_array_equal(a, e)
            for a, e in zip(sess.run([w, b]), donated):
                assert a.dtype == dtype
                np.testing.assert_array_equal(a, e)


def test_a_gradient_read_after_the_update_is_not_scaled():
    (xs, ys), = _batches(np.float32, 1)
    with tg.Graph().as_default():
        x, labels, loss, w, b = _model(np.float32)
        opt = tg.train.GradientDescentOptimizer(LR)
        grads_and_vars = opt.compute_gradients(loss)
        gw = grads_and_vars[0][0]
        train = opt.apply_gradients(grads_and_vars)
        before = tg.reduce_sum(gw * gw)
        with tg.control_dependencies([train]):
            after = tg.reduce_sum(gw * gw)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            expected = sess.run(before, {x: xs, labels: ys})
            assert sess.run(after, {x: xs, labels: ys}) == expected
