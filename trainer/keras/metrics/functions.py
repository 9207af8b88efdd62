"""Keras' per-sample metric functions; fit reports their means over each epoch."""
from ...ops.gather_ops import in_top_k
from .. import backend as K
from ..losses import (KLD, MAE, MAPE, MSE, MSLE, binary_crossentropy, categorical_crossentropy,  # noqa: F401
                     cosine, cosine_proximity, hinge, kld, kullback_leibler_divergence, logcosh, mae, mape,
                     mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
                     mean_squared_logarithmic_error, mse, msle, poisson, sparse_categorical_crossentropy,
                     squared_hinge)


def accuracy(y_true, y_pred):
    """1 where the prediction equals the label, else 0."""
    if K.dtype(y_true) != K.dtype(y_pred):
        y_pred = K.cast(y_pred, K.dtype(y_true))
    return K.cast(K.equal(y_true, y_pred), K.floatx())


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


# the short names are the losses' own (keras.metrics.mse is keras.losses.mse), as in Keras

_FUNCTIONS = (binary_accuracy, categorical_accuracy, sparse_categorical_accuracy, top_k_categorical_accuracy,
              sparse_top_k_categorical_accuracy, mean_squared_error, mean_absolute_error,
              mean_absolute_percentage_error, mean_squared_logarithmic_error, hinge, squared_hinge, logcosh,
              categorical_crossentropy, sparse_categorical_crossentropy, binary_crossentropy,
              kullback_leibler_divergence, poisson, cosine_proximity)
BY_NAME = dict({f.__name__: f for f in _FUNCTIONS}, mse=mse, MSE=mse, mae=mae, MAE=mae, mape=mape, MAPE=mape,
               msle=msle, MSLE=msle, kld=kld, KLD=kld, cosine=cosine)

