"""The dense layer the update kernels' tests train: large enough that its weight's update takes the gradient's buffer
(DONATED_GRADIENT_SIZE), small enough that it is not walked in blocks (BLOCKED_BYTES)."""
import numpy as np

import trainer as tg

FAN_IN, FAN_OUT = 320, 256  # 81,920 weights


def dense_layer(dtype, rng):
    """A dense layer and a softmax loss, its weight drawn from `rng`: (x, labels, loss, weight, bias)."""
    x, labels = tg.placeholder(dtype, [None, FAN_IN], name="x"), tg.placeholder(tg.int64, [None], name="labels")
    w = tg.Variable((rng.standard_normal((FAN_IN, FAN_OUT)) / 16).astype(dtype), name="w")
    b = tg.Variable(np.zeros(FAN_OUT, dtype), name="b")
    logits = tg.nn.bias_add(tg.matmul(x, w), b)
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    return x, labels, loss, w, b


def assert_gradient_kept(make_optimizer, xs, ys, rng):
    """A weight's gradient read again after the update it fed (under a control dependency) is the value read before:
    an update that takes the gradient's buffer (buffer donation, a fused update) must leave a tensor something still
    reads alone."""
    with tg.Graph().as_default():
        x, labels, loss, _, _ = dense_layer(np.float32, rng)
        optimizer = make_optimizer()
        grads_and_vars = optimizer.compute_gradients(loss)
        gw = grads_and_vars[0][0]
        before = tg.reduce_sum(gw * gw)
        step = optimizer.apply_gradients(grads_and_vars)
        with tg.control_dependencies([step]):
            after = tg.reduce_sum(gw * gw)
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            expected = sess.run(before, {x: xs, labels: ys})
            assert sess.run(after, {x: xs, labels: ys}) == expected
