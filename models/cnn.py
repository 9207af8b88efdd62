"""LeNet-style convolutional classifier for 28×28 single-channel images (MNIST, Fashion-MNIST)."""
import numpy as np

import trainer as tg

from .layers import classification, dense, flatten
from .spec import require


def conv(x, filters, size, name, padding, seed):
    with tg.variable_scope(name):
        kernel = tg.get_variable("kernel", [size, size, x.shape[-1], filters], dtype=x.dtype,
                                 initializer=tg.glorot_uniform_initializer(seed=seed))
        bias = tg.get_variable("bias", [filters], dtype=x.dtype, initializer=tg.zeros_initializer())
    return tg.nn.relu(tg.nn.conv2d(x, kernel, strides=1, padding=padding) + bias)


def pool(x):
    return tg.nn.max_pool(x, ksize=2, strides=2, padding="VALID")


def build(features, labels, task, seed=0):
    require("cnn", task, "classes")
    pixels = int(np.prod(features.shape[1:]))
    if pixels != 28 * 28:
        raise ValueError(f"model 'cnn' needs 28×28 images (784 values per sample), got samples of shape "
                         f"{tuple(features.shape[1:])!r}; use 'mlp' or 'logistic' for other data")
    x = tg.reshape(features, [-1, 28, 28, 1])
    x = pool(conv(x, 6, 5, "conv1", "SAME", seed))        # 14×14×6
    x = pool(conv(x, 16, 5, "conv2", "VALID", seed + 1))  # 5×5×16
    x = dense(flatten(x), 120, "fc1", activation=tg.nn.relu, seed=seed + 2)
    x = dense(x, 84, "fc2", activation=tg.nn.relu, seed=seed + 3)
    return classification("cnn", dense(x, task.num_outputs, "logits", seed=seed + 4), labels)
