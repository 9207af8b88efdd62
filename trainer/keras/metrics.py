"""tf.keras.metrics: per-sample metric functions by name; fit reports their means over each epoch."""
from ..ops.gather_ops import in_top_k
from . import backend as K
from .losses import (binary_crossentropy, categorical_crossentropy, cosine_proximity, hinge,
                     kullback_leibler_divergence, logcosh, mean_absolute_error, mean_absolute_percentage_error,
                     mean_squared_error, mean_squared_logarithmic_error, poisson, sparse_categorical_crossentropy,
                     squared_hinge)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    return K.mean(K.cast(K.equal(y_true, K.cast(K.greater(y_pred, threshold), K.dtype(y_pred))), K.floatx()),
                  axis=-1)


def categorical_accuracy(y_true, y_pred):
    return K.cast(K.equal(K.argmax(y_true, axis=-1), K.argmax(y_pred, axis=-1)), K.floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    labels = K.cast(K.reshape(y_true, (-1,)) if K.ndim(y_true) == K.ndim(y_pred) else y_true, "int64")
    return K.cast(K.equal(labels, K.argmax(y_pred, axis=-1)), K.floatx())


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    return K.cast(in_top_k(y_pred, K.argmax(y_true, axis=-1), k), K.floatx())


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    labels = K.reshape(y_true, (-1,)) if K.ndim(y_true) == K.ndim(y_pred) else y_true
    return K.cast(in_top_k(y_pred, K.cast(labels, "int32"), k), K.floatx())


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
cosine = cosine_proximity

_FUNCTIONS = (binary_accuracy, categorical_accuracy, sparse_categorical_accuracy, top_k_categorical_accuracy,
              sparse_top_k_categorical_accuracy, mean_squared_error, mean_absolute_error,
              mean_absolute_percentage_error, mean_squared_logarithmic_error, hinge, squared_hinge, logcosh,
              categorical_crossentropy, sparse_categorical_crossentropy, binary_crossentropy,
              kullback_leibler_divergence, poisson, cosine_proximity)
_BY_NAME = dict({f.__name__: f for f in _FUNCTIONS}, mse=mse, MSE=mse, mae=mae, MAE=mae, mape=mape, MAPE=mape,
                msle=msle, MSLE=msle, cosine=cosine)


def serialize(metric):
    return metric.__name__


def deserialize(name, custom_objects=None):
    known = dict(_BY_NAME, **(custom_objects or {}))
    if name not in known:
        raise ValueError(f"Unknown metric function: {name!r}; known: {sorted(_BY_NAME)}")
    return known[name]


def get(identifier):
    """A metric function from its name, or a callable as is."""
    if isinstance(identifier, str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric function identifier: {identifier!r}")


def accuracy_for(loss_fn, output_shape):
    """The accuracy Keras picks for 'acc'/'accuracy': binary for one unit or binary_crossentropy, sparse for
    sparse_categorical_crossentropy, else categorical."""
    fn = getattr(loss_fn, "fn", loss_fn)
    if fn is binary_crossentropy or output_shape and output_shape[-1] == 1:
        return binary_accuracy
    if fn is sparse_categorical_crossentropy:
        return sparse_categorical_accuracy
    return categorical_accuracy


def resolve(metric, loss_fn, output_shape):
    """(function, logged name) of a metric given to compile for an output trained with `loss_fn`: 'accuracy' and
    'acc' are the accuracy that suits the loss, named 'acc'; 'crossentropy' and 'ce' likewise, named 'ce'."""
    if metric in ("accuracy", "acc", "crossentropy", "ce"):
        accuracy = accuracy_for(loss_fn, output_shape)
        if metric in ("accuracy", "acc"):
            return accuracy, "acc"
        crossentropy = {binary_accuracy: binary_crossentropy,
                        sparse_categorical_accuracy: sparse_categorical_crossentropy}.get(accuracy,
                                                                                          categorical_crossentropy)
        return crossentropy, "ce"
    fn = get(metric)
    return fn, getattr(fn, "name", None) or fn.__name__
