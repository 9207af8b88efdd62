"""Run a Keras layer on numpy inputs: its output and the gradients of sum(output * seed) for its inputs and
weights, for comparison with closed forms or PyTorch."""
import numpy as np

import trainer as tg
from trainer.keras import backend as K


def run_layer(layer, *inputs, seed=0, training=None):
    """(output, [d/d input...], [d/d weight...]) of sum(layer(inputs) * r), r a fixed random array."""
    placeholders = [K.placeholder(shape=x.shape, dtype=x.dtype) for x in inputs]
    kwargs = {} if training is None else {"training": training}
    out = layer(placeholders[0] if len(placeholders) == 1 else placeholders, **kwargs)
    r = np.random.RandomState(seed).uniform(-1, 1, K.int_shape(out)).astype(np.float32)
    loss = K.sum(out * r)
    wrt = [p for p, x in zip(placeholders, inputs) if x.dtype.kind == "f"] + layer.trainable_weights
    grads = tg.gradients(loss, wrt)
    values = K.get_session().run([out] + grads, dict(zip(placeholders, inputs)))
    n = len(wrt) - len(layer.trainable_weights)
    return values[0], values[1:1 + n], values[1 + n:], r
