"""tf.keras.metrics: the per-sample metric functions (functions.py), the stateful Metric classes (base.py: Metric,
Mean, Sum, ...; wrappers.py: the running means of the functions; confusion.py: counts at thresholds, Precision,
Recall, AUC, MeanIoU, ...) and their lookup by name (lookup.py). The namespace only."""
# ruff: noqa: F401
from .base import Mean, MeanMetricWrapper, MeanRelativeError, MeanTensor, Metric, RootMeanSquaredError, Sum
from .confusion import (AUC, FalseNegatives, FalsePositives, MeanIoU, Precision, Recall, SensitivityAtSpecificity,
                        SpecificityAtSensitivity, TrueNegatives, TruePositives)
from .functions import (KLD, MAE, MAPE, MSE, MSLE, binary_accuracy, binary_crossentropy, categorical_accuracy,
                        categorical_crossentropy, cosine, cosine_proximity, hinge, kld, kullback_leibler_divergence,
                        logcosh, mae, mape, mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
                        mean_squared_logarithmic_error, mse, msle, poisson, sparse_categorical_accuracy,
                        sparse_categorical_crossentropy, sparse_top_k_categorical_accuracy, squared_hinge,
                        top_k_categorical_accuracy)
from .lookup import accuracy_for, deserialize, get, resolve, serialize
from .wrappers import (Accuracy, BinaryAccuracy, BinaryCrossentropy, CategoricalAccuracy, CategoricalCrossentropy,
                       CategoricalHinge, CosineSimilarity, Hinge, KLDivergence, LogCoshError, MeanAbsoluteError,
                       MeanAbsolutePercentageError, MeanSquaredError, MeanSquaredLogarithmicError, Poisson,
                       SparseCategoricalAccuracy, SparseCategoricalCrossentropy, SparseTopKCategoricalAccuracy,
                       SquaredHinge, TopKCategoricalAccuracy)
