"""The small building blocks the models share."""
import numpy as np

import trainer as tg

from .spec import ModelSpec


def flatten(x):
    """(n, ...) -> (n, prod(...))."""
    return tg.reshape(x, [-1, int(np.prod(x.shape[1:]))])


def dense(x, units, name, activation=None, seed=None):
    """x @ kernel + bias, glorot-uniform kernel, zero bias."""
    with tg.variable_scope(name):
        kernel = tg.get_variable("kernel", [x.shape[-1], units], dtype=x.dtype,
                                 initializer=tg.glorot_uniform_initializer(seed=seed))
        bias = tg.get_variable("bias", [units], dtype=x.dtype, initializer=tg.zeros_initializer())
    y = tg.matmul(x, kernel) + bias
    return activation(y) if activation else y


def classification(model, logits, labels):
    """Softmax cross-entropy loss and accuracy for integer class labels."""
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    predictions = tg.argmax(logits, 1)
    correct = tg.cast(tg.equal(predictions, tg.cast(labels, predictions.dtype)), logits.dtype)
    return ModelSpec(loss=loss, predictions=predictions, metrics={"accuracy": tg.reduce_mean(correct)})
