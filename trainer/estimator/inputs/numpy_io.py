"""tf.estimator.inputs.numpy_input_fn: an input_fn reading batches of rows from numpy arrays (a dict or one array).

As in TF1, the rows go through a queue of queue_capacity rows that num_threads queue-runner threads fill (feeding.py):
a monitored session (an Estimator's) starts them; a plain Session needs tf.train.start_queue_runners(sess) first.
"""
import numpy as np

from ...ops.core_ops import as_string_array
from .feeding import enqueue_data

_TARGET_KEY = "__target_key__"
_ARRAY_KEY = "__direct_np_input__"


def _features(x):
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return dict(sorted(x.items()))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return {_ARRAY_KEY: x}
    raise TypeError(f"x must be a dict or array; got {type(x).__name__}")


def _array(values):
    """values as an array; text (str or bytes) as a tg.string array of bytes, as TF1 feeds it."""
    array = np.asarray(values)
    return as_string_array(array) if array.dtype.kind in "SU" else array


def _unique_target_key(columns):
    key = _TARGET_KEY
    while key in columns:
        key += "_n"
    return key


def _columns(x, y):
    """All arrays by key in a fixed order, the feature keys, and the target key(s) (None, a key, or a list)."""
    columns = _features(x)
    feature_keys = list(columns)
    if y is None:
        target_keys = None
    elif isinstance(y, dict):
        if not y:
            raise ValueError("y cannot be empty dict, use None instead.")
        target_keys = sorted(y)
        duplicates = set(feature_keys) & set(target_keys)
        if duplicates:
            raise ValueError(f"{len(duplicates)} duplicate keys are found in both x and y: {sorted(duplicates)}")
        columns.update(sorted(y.items()))
    else:
        target_keys = _unique_target_key(columns)
        columns[target_keys] = y
    columns = {k: _array(v) for k, v in columns.items()}
    if len({v.shape[0] if v.ndim else None for v in columns.values()}) != 1:
        x_shapes = {k: columns[k].shape for k in feature_keys}
        y_shapes = (None if target_keys is None else columns[target_keys].shape if isinstance(target_keys, str)
                    else {k: columns[k].shape for k in target_keys})
        raise ValueError("Length of tensors in x and y is mismatched. All elements in x and y must have the same "
                         f"length.\nShapes in x: {x_shapes}\nShapes in y: {y_shapes}\n")
    return columns, feature_keys, target_keys


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1):
    """An input_fn returning (features, targets) Tensors that hold the next batch at each run.

    features is a dict with x's keys (or one Tensor if x is an array); targets likewise for y, and only
    features are returned when y is None. After num_epochs passes over the rows (None: forever) of each of the
    num_threads threads, a run raises tg.errors.OutOfRangeError, which ends an Estimator's
    train/evaluate/predict normally.
    """
    if not isinstance(shuffle, bool):
        raise TypeError(f"shuffle must be explicitly set as boolean; got {shuffle!r} (True for training, False "
                        "for evaluation and prediction)")
    for name, value in (("batch_size", batch_size), ("queue_capacity", queue_capacity),
                        ("num_threads", num_threads)):
        if not isinstance(value, (int, np.integer)) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if num_epochs is not None and (not isinstance(num_epochs, (int, np.integer)) or num_epochs <= 0):
        raise ValueError(f"num_epochs must be a positive integer or None (forever), got {num_epochs!r}")

    def input_fn():
        columns, feature_keys, target_keys = _columns(x, y)
        queue = enqueue_data(list(columns.values()), queue_capacity, shuffle, num_threads, batch_size, num_epochs)
        # endless input gives full batches (a known batch size); a limited one ends with a short batch
        batch = queue.dequeue_many(batch_size) if num_epochs is None else queue.dequeue_up_to(batch_size)
        batch = dict(zip(columns, batch[1:]))  # less the row numbers
        features = batch[_ARRAY_KEY] if isinstance(x, np.ndarray) else {k: batch[k] for k in feature_keys}
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, batch[target_keys]
        return features, {k: batch[k] for k in target_keys}
    return input_fn
