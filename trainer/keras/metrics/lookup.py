"""Metrics by name and config: what compile, get() and deserialize() make of a metric identifier."""
from ..utils.generic_utils import deserialize_keras_object, serialize_keras_object
from .base import Mean, MeanMetricWrapper, MeanRelativeError, MeanTensor, Metric, RootMeanSquaredError, Sum
from .confusion import (AUC, FalseNegatives, FalsePositives, MeanIoU, Precision, Recall, SensitivityAtSpecificity,
                        SpecificityAtSensitivity, TrueNegatives, TruePositives)
from .functions import (BY_NAME, binary_accuracy, binary_crossentropy, categorical_accuracy, categorical_crossentropy,
                        sparse_categorical_accuracy, sparse_categorical_crossentropy)
from .wrappers import CLASSES as WRAPPERS

CLASSES = {c.__name__: c for c in WRAPPERS + (Mean, Sum, MeanTensor, MeanRelativeError, RootMeanSquaredError, AUC,
                                              FalseNegatives, FalsePositives, TrueNegatives, TruePositives, Precision,
                                              Recall, SensitivityAtSpecificity, SpecificityAtSensitivity, MeanIoU)}


def serialize(metric):
    """A metric function's name, or a Metric's {'class_name', 'config'}."""
    return serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """The metric function or Metric a name or config stands for."""
    return deserialize_keras_object(config, dict(BY_NAME, **CLASSES), custom_objects, "metric function")


def get(identifier):
    """A metric from its name or config, or a callable (a function or a Metric) as is."""
    if isinstance(identifier, (str, dict)):
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
    'acc' are the accuracy that suits the loss, named 'acc'; 'crossentropy' and 'ce' likewise, named 'ce'. A
    MeanMetricWrapper comes back as its per-sample function under its name, any other Metric as itself."""
    if metric in ("accuracy", "acc", "crossentropy", "ce"):
        accuracy = accuracy_for(loss_fn, output_shape)
        if metric in ("accuracy", "acc"):
            return accuracy, "acc"
        crossentropy = {binary_accuracy: binary_crossentropy,
                        sparse_categorical_accuracy: sparse_categorical_crossentropy}.get(accuracy,
                                                                                          categorical_crossentropy)
        return crossentropy, "ce"
    fn = get(metric)
    if isinstance(fn, MeanMetricWrapper):
        return fn.per_sample, fn.name
    if isinstance(fn, Metric):
        return fn, fn.name
    return fn, getattr(fn, "name", None) or fn.__name__
