"""SGD's update writing lr * grad into a large gradient buffer that dies with it: the same variables to the bit as
var -= lr * grad into a new array, and a gradient that is fetched or read after the update left unscaled. With the
remapper on, a large weight's update and the MatMul making its gradient are one GEMM into the variable, moved up to
the gradient's place: within float32's rounding of the two kernels, and not where a step between reads the weight."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.train.dense_layer import FAN_IN, FAN_OUT, assert_gradient_kept, dense_layer
from trainer.client.config import RewriterConfig

RNG = np.random.default_rng(5)
OFF = tg.ConfigProto(graph_options=tg.GraphOptions(rewrite_options=RewriterConfig(remapping=RewriterConfig.OFF)))
LR = 0.1


def _batches(dtype, n=3):
    return [(RNG.standard_normal((16, FAN_IN)).astype(dtype), RNG.integers(0, FAN_OUT, 16)) for _ in range(n)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_update_into_the_gradient_is_var_minus_lr_times_grad_to_the_bit(dtype):
    batches = _batches(dtype)
    with tg.Graph().as_default():
        x, labels, loss, w, b = dense_layer(dtype, RNG)
        opt = tg.train.GradientDescentOptimizer(LR)
        grads_and_vars = opt.compute_gradients(loss)
        train = opt.apply_gradients(grads_and_vars)
        grads = [g for g, _ in grads_and_vars]
        with tg.Session(config=OFF) as sess:  # the remapper would fold w's gradient into its update (below)
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
    assert_gradient_kept(lambda: tg.train.GradientDescentOptimizer(LR), xs, ys, RNG)


def _train(dtype, config, batches, probe=False):
    """A ReLU layer under dense_layer's, trained by SGD on `batches`: (the dense weight and bias after, the
    plan's op types, and with `probe` each step's sum of the weight read by an op that runs between the weight's
    gradient and its update)."""
    with tg.Graph().as_default():
        x, labels = tg.placeholder(dtype, [None, FAN_IN], name="x"), tg.placeholder(tg.int64, [None], name="labels")
        w0 = tg.Variable((RNG_START.standard_normal((FAN_IN, FAN_IN)) / 16).astype(dtype), name="w0")
        w = tg.Variable((RNG_START.standard_normal((FAN_IN, FAN_OUT)) / 16).astype(dtype), name="w")
        b = tg.Variable(np.zeros(FAN_OUT, dtype), name="b")
        logits = tg.nn.bias_add(tg.matmul(tg.nn.relu(tg.matmul(x, w0)), w), b)
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        opt = tg.train.GradientDescentOptimizer(LR)
        grads_and_vars = opt.compute_gradients(loss)
        fetches = [tg.reduce_sum(w * w)] if probe else []  # built before the updates: scheduled before them
        train = opt.apply_gradients(grads_and_vars)
        with tg.Session(config=config) as sess:
            sess.run(tg.global_variables_initializer())
            probes = [sess.run(fetches + [train], {x: xs, labels: ys})[:len(fetches)] for xs, ys in batches]
            types = [op.type for *_, op in sess.plan(fetches + [train], [x, labels]).steps]
            return sess.run([w0, w, b]), types, probes


RNG_START = np.random.default_rng(8)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_large_weights_update_folds_its_gradients_matmul_within_rounding(dtype):
    batches, state = _batches(dtype), RNG_START.bit_generator.state
    (w0, w, b), types, _ = _train(dtype, None, batches)
    RNG_START.bit_generator.state = state
    (w0_, w_, b_), unfused, _ = _train(dtype, OFF, batches)
    # both weights' updates run in their gradients' places: the dense one's before the ReLU layer's gradient
    assert types.count("MatMul") == unfused.count("MatMul") - 4  # 2 forward ones fused with their epilogues
    assert types.index("ApplyGradientDescent") < types.index("ReluGrad")
    assert unfused.index("ApplyGradientDescent") > unfused.index("ReluGrad")
    eps = float(np.finfo(dtype).eps)
    for value, unfused_value in [(w0, w0_), (w, w_), (b, b_)]:  # each step's gradients within rounding too
        np.testing.assert_allclose(value, unfused_value, rtol=0,
                                   atol=len(batches) * 4 * eps * float(np.abs(unfused_value).max()))


def test_a_weight_read_between_its_gradient_and_its_update_keeps_the_update_in_place():
    batches, state = _batches(np.float32), RNG_START.bit_generator.state
    _, types, probes = _train(np.float32, None, batches, probe=True)
    RNG_START.bit_generator.state = state
    _, _, probes_ = _train(np.float32, OFF, batches, probe=True)
    assert types[types.index("Sum"):].count("ApplyGradientDescent") == 2  # the dense weight's and its bias'
    # each step's sum of squares of the weight as it was before that step's update (the update would move it by
    # about 1e-4 of itself; the first layer's fused update, within rounding, by far less)
    np.testing.assert_allclose(probes, probes_, rtol=1e-6)
