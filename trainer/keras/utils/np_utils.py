"""keras.utils' numpy helpers: to_categorical and normalize."""
import numpy as np


def to_categorical(y, num_classes=None, dtype="float32"):
    """Integer class labels (any shape) -> one-hot rows with a last axis of num_classes (default max + 1); a
    trailing axis of size 1 is dropped first, as Keras does."""
    y = np.array(y, dtype="int")
    shape = y.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    y = y.ravel()
    num_classes = num_classes or int(np.max(y)) + 1
    out = np.zeros((y.shape[0], num_classes), dtype=dtype)
    out[np.arange(y.shape[0]), y] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """x divided by its `order`-norm along `axis` (zero norms left as they are)."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
