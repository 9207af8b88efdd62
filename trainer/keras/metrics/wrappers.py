"""Keras' metric classes that are running means of a per-sample function, with TF 1.15's default names."""
from ..losses import categorical_hinge, cosine_similarity
from . import functions as F
from .base import MeanMetricWrapper


def smoothed(y_true, label_smoothing, classes):
    """Labels pulled towards 1 / classes by `label_smoothing`, as Keras' cross-entropies smooth them."""
    return y_true * (1.0 - label_smoothing) + label_smoothing / classes if label_smoothing else y_true


def wrapper(class_name, fn, default_name, doc, **defaults):
    """A MeanMetricWrapper subclass of `fn` taking name, dtype and the keyword arguments in `defaults`."""
    def __init__(self, name=default_name, dtype=None, **kwargs):
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"{class_name} got unexpected keyword arguments {sorted(unknown)}")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **dict(defaults, **kwargs))

    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


def _binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    return F.binary_crossentropy(smoothed(y_true, label_smoothing, 2.0), y_pred, from_logits=from_logits)


def _categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    classes = y_true.shape[-1]
    return F.categorical_crossentropy(smoothed(y_true, label_smoothing, float(classes or 1)), y_pred,
                                      from_logits=from_logits)


def _sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    return F.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


Accuracy = wrapper("Accuracy", F.accuracy, "accuracy", "How often predictions equal labels.")
BinaryAccuracy = wrapper("BinaryAccuracy", F.binary_accuracy, "binary_accuracy",
                         "How often predictions above `threshold` match binary labels.", threshold=0.5)
CategoricalAccuracy = wrapper("CategoricalAccuracy", F.categorical_accuracy, "categorical_accuracy",
                              "How often the arg max of the predictions matches the one-hot labels'.")
SparseCategoricalAccuracy = wrapper("SparseCategoricalAccuracy", F.sparse_categorical_accuracy,
                                    "sparse_categorical_accuracy",
                                    "How often the arg max of the predictions matches the integer labels.")
TopKCategoricalAccuracy = wrapper("TopKCategoricalAccuracy", F.top_k_categorical_accuracy,
                                  "top_k_categorical_accuracy", "How often one-hot labels are in the top k.", k=5)
SparseTopKCategoricalAccuracy = wrapper("SparseTopKCategoricalAccuracy", F.sparse_top_k_categorical_accuracy,
                                        "sparse_top_k_categorical_accuracy",
                                        "How often integer labels are in the top k.", k=5)
CosineSimilarity = wrapper("CosineSimilarity", lambda y_true, y_pred, axis=-1: -cosine_similarity(y_true, y_pred, axis),
                           "cosine_similarity", "The mean cosine similarity of labels and predictions.", axis=-1)
MeanAbsoluteError = wrapper("MeanAbsoluteError", F.mean_absolute_error, "mean_absolute_error", "The mean of |error|.")
MeanAbsolutePercentageError = wrapper("MeanAbsolutePercentageError", F.mean_absolute_percentage_error,
                                      "mean_absolute_percentage_error", "The mean of 100 |error / label|.")
MeanSquaredError = wrapper("MeanSquaredError", F.mean_squared_error, "mean_squared_error", "The mean of error**2.")
MeanSquaredLogarithmicError = wrapper("MeanSquaredLogarithmicError", F.mean_squared_logarithmic_error,
                                      "mean_squared_logarithmic_error", "The mean squared error of log(1 + x).")
Hinge = wrapper("Hinge", F.hinge, "hinge", "The mean hinge loss.")
SquaredHinge = wrapper("SquaredHinge", F.squared_hinge, "squared_hinge", "The mean squared hinge loss.")
CategoricalHinge = wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge",
                           "The mean categorical hinge loss.")
LogCoshError = wrapper("LogCoshError", F.logcosh, "logcosh", "The mean of log(cosh(error)).")
Poisson = wrapper("Poisson", F.poisson, "poisson", "The mean Poisson loss.")
KLDivergence = wrapper("KLDivergence", F.kullback_leibler_divergence, "kullback_leibler_divergence",
                       "The mean Kullback-Leibler divergence of predictions from labels.")
BinaryCrossentropy = wrapper("BinaryCrossentropy", _binary_crossentropy, "binary_crossentropy",
                             "The mean binary cross-entropy.", from_logits=False, label_smoothing=0)
CategoricalCrossentropy = wrapper("CategoricalCrossentropy", _categorical_crossentropy, "categorical_crossentropy",
                                  "The mean categorical cross-entropy.", from_logits=False, label_smoothing=0)
SparseCategoricalCrossentropy = wrapper("SparseCategoricalCrossentropy", _sparse_categorical_crossentropy,
                                        "sparse_categorical_crossentropy",
                                        "The mean sparse categorical cross-entropy.", from_logits=False, axis=-1)

CLASSES = (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy, TopKCategoricalAccuracy,
           SparseTopKCategoricalAccuracy, CosineSimilarity, MeanAbsoluteError, MeanAbsolutePercentageError,
           MeanSquaredError, MeanSquaredLogarithmicError, Hinge, SquaredHinge, CategoricalHinge, LogCoshError, Poisson,
           KLDivergence, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy)
