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
