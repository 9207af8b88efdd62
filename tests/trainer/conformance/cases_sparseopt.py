"""The sparse-update family: tf.train's optimizers stepping on gradients TF makes IndexedSlices (a gather's, an
embedding lookup's, one passed to apply_gradients), which TF1 applies by its Sparse* rules: only the named rows
(and their slots) change, and the values at repeated indices are summed first (GradientDescent subtracts them one
after the other). Three steps whose indices repeat and leave rows out, float32 and float64; and an embedding model
trained a few steps with Momentum, its losses and its table.

The hyper-parameters are tensors of the variable's dtype: TF1 makes Python numbers float32 tensors and casts them, so
a float64 variable would step by float32-rounded rates there (and TF1's proximal optimizers refuse them). Those TF1
takes only as Python numbers (Ftrl's regularization strengths, the initial accumulator values) are dyadic, exact in
float32, and the rates not powers of two, so that the order of the roundings shows.
"""
import functools

import numpy as np

from .cases import call

OPTIMIZERS = {  # c(x): a constant of the variable's dtype; the Python numbers are TF1's numbers-only arguments
    "gradient_descent": lambda tf, c: tf.train.GradientDescentOptimizer(c(0.3)),
    "momentum": lambda tf, c: tf.train.MomentumOptimizer(c(0.3), c(0.9)),
    "nesterov": lambda tf, c: tf.train.MomentumOptimizer(c(0.3), c(0.9), use_nesterov=True),
    "adagrad": lambda tf, c: tf.train.AdagradOptimizer(c(0.3), initial_accumulator_value=0.125),
    "adagrad_da": lambda tf, c: tf.train.AdagradDAOptimizer(c(0.3), tf.train.get_or_create_global_step(),
                                                            initial_gradient_squared_accumulator_value=0.125,
                                                            l1_regularization_strength=c(0.07),
                                                            l2_regularization_strength=c(0.11)),
    "rmsprop": lambda tf, c: tf.train.RMSPropOptimizer(c(0.3), decay=c(0.9), epsilon=c(1e-6)),
    "rmsprop_momentum": lambda tf, c: tf.train.RMSPropOptimizer(c(0.3), decay=c(0.9), momentum=c(0.6),
                                                                epsilon=c(1e-6)),
    "rmsprop_centered": lambda tf, c: tf.train.RMSPropOptimizer(c(0.3), decay=c(0.9), momentum=c(0.6),
                                                                epsilon=c(1e-6), centered=True),
    "adadelta": lambda tf, c: tf.train.AdadeltaOptimizer(c(1.1), rho=c(0.9), epsilon=c(1e-6)),
    "ftrl": lambda tf, c: tf.train.FtrlOptimizer(c(0.3), l1_regularization_strength=0.0625,
                                                 l2_regularization_strength=0.125),
    "ftrl_shrinkage": lambda tf, c: tf.train.FtrlOptimizer(c(0.3), l1_regularization_strength=0.0625,
                                                           l2_regularization_strength=0.125,
                                                           l2_shrinkage_regularization_strength=0.25),
    "proximal_adagrad": lambda tf, c: tf.train.ProximalAdagradOptimizer(c(0.3), initial_accumulator_value=0.125,
                                                                        l1_regularization_strength=c(0.07),
                                                                        l2_regularization_strength=c(0.11)),
    "proximal_gradient_descent": lambda tf, c: tf.train.ProximalGradientDescentOptimizer(
        c(0.3), l1_regularization_strength=c(0.07), l2_regularization_strength=c(0.11)),
    "adam": lambda tf, c: tf.train.AdamOptimizer(c(0.3), beta1=c(0.8), beta2=c(0.95), epsilon=c(1e-6)),
}
ROWS = ([0, 2, 2, 5], [2, 4], [5, 0, 0, 0])  # each step's gathered rows: repeated, and rows 1 and 3 never named
SHAPE = (6, 3)
# Within the dtype's tolerance, not bit for bit: TF's CPU kernels round these a last bit apart from numpy's formulas
# (Adam's sparse rule is made of TF's elementwise ops; the model's matmul and softmax); the other cases are TF's bits.
ROUNDED = {"gradient_descent/float32", "gradient_descent/float64", "gradient_descent/clipped", "adagrad_da",
           "adam/float32", "adam/float64", "adam/clipped", "embedding_momentum"}


def _in_turn(steps, tf):
    """Build each step after the one before (control dependencies), then the variables' values after the last."""
    step = None
    for build in steps:
        with tf.control_dependencies([step] if step is not None else []):
            step = build()
    return step


def gathered(optimizer, dtype, tf):
    """The variable after three steps of minimizing a weighted sum of squares of its gathered rows."""
    rng = np.random.default_rng(7)
    v = tf.Variable(rng.standard_normal(SHAPE).astype(dtype), name="v")
    weights = [tf.constant(rng.standard_normal((len(rows), SHAPE[1])).astype(dtype)) for rows in ROWS]
    opt = OPTIMIZERS[optimizer](tf, lambda x: tf.constant(x, dtype=dtype))

    def step(rows, w):
        return lambda: opt.minimize(tf.reduce_sum(w * tf.square(tf.gather(v, tf.constant(rows)))))
    last = _in_turn([step(rows, w) for rows, w in zip(ROWS, weights)], tf)
    with tf.control_dependencies([last]):
        return tf.identity(v)


def given_slices(optimizer, tf):
    """The variable after two apply_gradients of IndexedSlices built by hand (int64 indices, one repeated)."""
    v = tf.Variable(np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3), name="v")
    opt = OPTIMIZERS[optimizer](tf, lambda x: tf.constant(x, dtype=tf.float32))
    values = np.arange(9, dtype=np.float32).reshape(3, 3) / 8 - 0.5

    def step(indices):
        slices = tf.IndexedSlices(tf.constant(values), tf.constant(indices, tf.int64), tf.constant([5, 3]))
        return lambda: opt.apply_gradients([(slices, v)])
    last = _in_turn([step([4, 1, 4]), step([0, 1, 2])], tf)
    with tf.control_dependencies([last]):
        return tf.identity(v)


def clipped(optimizer, tf):
    """The variable after three steps whose gathered gradients are clipped by their global norm (TF: the norm of
    the IndexedSlices' values, a repeated row counted once for each time it is named; the clipped gradient is
    still an IndexedSlices)."""
    rng = np.random.default_rng(5)
    v = tf.Variable(rng.standard_normal(SHAPE).astype(np.float32), name="v")
    opt = OPTIMIZERS[optimizer](tf, lambda x: tf.constant(x, dtype=tf.float32))

    def step(rows):
        def build():
            loss = tf.reduce_sum(tf.square(tf.gather(v, tf.constant(rows)))) * 4.0
            grads, variables = zip(*opt.compute_gradients(loss))
            grads, _ = tf.clip_by_global_norm(grads, 1.5)
            return opt.apply_gradients(zip(grads, variables))
        return build
    last = _in_turn([step(rows) for rows in ROWS], tf)
    with tf.control_dependencies([last]):
        return tf.identity(v)


def embedding_model(tf):
    """An embedding lookup, averaged per example, into a softmax layer: five Momentum steps' losses, then the
    table (rows no example names keep their values and their momentum)."""
    rng = np.random.default_rng(11)
    table = tf.Variable(rng.standard_normal((10, 4)).astype(np.float32) * 0.5, name="embedding")
    dense = tf.Variable(rng.standard_normal((4, 3)).astype(np.float32) * 0.5, name="dense")
    batches = [rng.integers(0, 7, size=(4, 3)) for _ in range(5)]
    labels = [rng.integers(0, 3, size=4) for _ in range(5)]
    opt = tf.train.MomentumOptimizer(0.5, 0.875)
    losses, step = [], None
    for ids, label in zip(batches, labels):
        with tf.control_dependencies([step] if step is not None else []):
            features = tf.reduce_mean(tf.nn.embedding_lookup(table, tf.constant(ids)), axis=1)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=tf.constant(label), logits=tf.matmul(features, dense)))
            losses.append(loss)
            step = opt.minimize(loss)
    with tf.control_dependencies([step]):
        return tf.concat([tf.stack(losses), tf.reshape(table, [-1])], 0)


def cases():
    found = {}
    for optimizer in OPTIMIZERS:
        for dtype in ("float32", "float64"):
            found[f"sparseopt/{optimizer}/{dtype}"] = call("identity", {
                "build": functools.partial(gathered, optimizer, dtype)})
        found[f"sparseopt/{optimizer}/indexed_slices"] = call("identity", {
            "build": functools.partial(given_slices, optimizer)})
    for optimizer in ("momentum", "adam", "gradient_descent"):
        found[f"sparseopt/{optimizer}/clipped"] = call("identity", {"build": functools.partial(clipped, optimizer)})
    found["sparseopt/embedding_momentum"] = call("identity", {"build": embedding_model})
    for name, case in found.items():
        case["exact"] = not {name.split("/")[1], "/".join(name.split("/")[1:])} & ROUNDED
    return found
