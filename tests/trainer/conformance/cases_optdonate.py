"""The optimizer-update family: three steps of tf.train's Momentum, Nesterov momentum and Adam, compared with TF
bit for bit, float32 and float64, on a small variable (its values) and on one large enough to be updated in blocks
(trainer/train/training_ops.py; the sum of its values' bit patterns as int32 words, which keeps the fixture small).

The hyper-parameters are tensors of the variable's dtype, so that this family checks the kernels alone: Python
numbers are float32 tensors cast to the variable's dtype in TF1 and ringflow alike (cases_hyper32.py).
"""
import functools

import numpy as np

from .cases import call

SHAPES = {"small": (7, 5), "blocked": (1100, 1000)}  # 4.4 MB in float32: over training_ops.BLOCKED_BYTES
OPTIMIZERS = {
    "momentum": lambda tf, c: tf.train.MomentumOptimizer(c(0.05), c(0.9)),
    "nesterov": lambda tf, c: tf.train.MomentumOptimizer(c(0.05), c(0.9), use_nesterov=True),
    "adam": lambda tf, c: tf.train.AdamOptimizer(c(0.05), c(0.8), c(0.95), c(1e-3)),
}
STEPS = 3


def trained(optimizer, dtype, shape, tf):
    """The variable after STEPS updates by constant gradients, each step after the one before."""
    rng = np.random.default_rng(len(shape) + shape[0])
    start = rng.standard_normal(shape).astype(dtype)
    grads = [(rng.standard_normal(shape) * 0.1).astype(dtype) for _ in range(STEPS)]
    v = tf.Variable(start, name="v")
    opt = OPTIMIZERS[optimizer](tf, lambda x: tf.constant(x, dtype=dtype))
    step = None
    for g in grads:
        with tf.control_dependencies([step] if step is not None else []):
            step = opt.apply_gradients([(tf.constant(g), v)])
    with tf.control_dependencies([step]):
        value = tf.identity(v)
    if shape == SHAPES["small"]:
        return value
    return tf.reduce_sum(tf.cast(tf.bitcast(value, tf.int32), tf.int64))


def embedding_trained(optimizer, tf):
    """An embedding table after two steps whose gradients (IndexedSlices in TF) touch rows [0, 1], then [2]."""
    v = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2), name="embedding")
    opt = OPTIMIZERS[optimizer](tf, lambda x: tf.constant(x, dtype=tf.float32))
    step = None
    for rows in ([0, 1], [2]):
        with tf.control_dependencies([step] if step is not None else []):
            step = opt.minimize(tf.reduce_sum(tf.gather(v, tf.constant(rows))))
    with tf.control_dependencies([step]):
        return tf.identity(v)


def cases():
    found = {}
    for optimizer in OPTIMIZERS:
        for dtype in ("float32", "float64"):
            for size, shape in SHAPES.items():
                build = functools.partial(trained, optimizer, dtype, shape)
                case = call("identity", {"build": build})
                case["exact"] = True
                found[f"optdonate/train.{optimizer}/{dtype}/{size}"] = case
        case = call("identity", {"build": functools.partial(embedding_trained, optimizer)})
        case["exact"] = True
        found[f"optdonate/train.{optimizer}/sparse_rows"] = case
    return found
