"""Small synthetic sets whose optimum is known in closed form, and the input functions the canned tests feed."""
import numpy as np

import trainer as tf

COEF, BIAS = np.array([1.5, -2.0], np.float32), 0.3
QUIET = dict(log_step_count_steps=100000, save_summary_steps=100000)  # no per-step logging in the tests


def config(**kwargs):
    """A quiet RunConfig with a graph seed: the tests compare trained models with closed forms at fixed step counts,
    which an unseeded start passes only most of the time."""
    return tf.estimator.RunConfig(**{**QUIET, "tf_random_seed": 42, **kwargs})


def linear(rows=100, seed=0, noise=0.0):
    """x [rows, 2] and y = x·COEF + BIAS (+ noise): least squares recovers COEF and BIAS."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 2)).astype(np.float32)
    return x, (x @ COEF + BIAS + noise * rng.normal(size=rows)).astype(np.float32)


def least_squares(x, y):
    """(weights, bias) minimizing the squared error."""
    solution = np.linalg.lstsq(np.c_[x, np.ones(len(x))], y, rcond=None)[0]
    return solution[:-1], solution[-1]


def clusters(rows=120, classes=3, seed=0):
    """x [rows, 2] around one well-separated centre per class, and the int32 classes: separable."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(classes, size=rows).astype(np.int32)
    centres = 4.0 * np.stack([np.cos(2 * np.pi * np.arange(classes) / classes),
                              np.sin(2 * np.pi * np.arange(classes) / classes)], axis=1)
    return (centres[labels] + 0.3 * rng.normal(size=(rows, 2))).astype(np.float32), labels


def repeated(features, labels=None, batch_size=None):
    """Batches (the whole set by default) forever, in order."""
    features = features if isinstance(features, dict) else {"x": features}
    rows = len(next(iter(features.values())))
    return tf.estimator.inputs.numpy_input_fn(features, labels, batch_size=batch_size or rows, num_epochs=None,
                                              shuffle=False)


def once(features, labels=None, batch_size=32):
    """One pass in batches of batch_size, in order."""
    features = features if isinstance(features, dict) else {"x": features}
    return tf.estimator.inputs.numpy_input_fn(features, labels, batch_size=batch_size, num_epochs=1, shuffle=False)


X_COLUMN = tf.feature_column.numeric_column("x", shape=2)
