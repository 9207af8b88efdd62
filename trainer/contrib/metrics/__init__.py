"""tf.contrib.metrics: the streaming metrics, predictions first, on tf.metrics (python/ops/metric_ops.py says which
map onto it and which raise NotImplementedError), the one-batch accuracy, and aggregate_metrics / aggregate_metric_map.
slim.metrics is this module."""
from ...unsupported import missing_names
from .python.ops.metric_ops import (
    accuracy, aggregate_metric_map, aggregate_metrics, auc_using_histogram, cohen_kappa, confusion_matrix,
    count, f1_score, precision_at_recall, recall_at_precision, sparse_recall_at_top_k, streaming_accuracy,
    streaming_auc, streaming_concat, streaming_covariance, streaming_curve_points, streaming_dynamic_auc,
    streaming_false_negative_rate, streaming_false_negative_rate_at_thresholds, streaming_false_negatives,
    streaming_false_negatives_at_thresholds, streaming_false_positive_rate,
    streaming_false_positive_rate_at_thresholds, streaming_false_positives,
    streaming_false_positives_at_thresholds, streaming_mean, streaming_mean_absolute_error,
    streaming_mean_cosine_distance, streaming_mean_iou, streaming_mean_relative_error,
    streaming_mean_squared_error, streaming_mean_tensor, streaming_pearson_correlation,
    streaming_percentage_less, streaming_precision, streaming_precision_at_thresholds,
    streaming_precision_recall_at_equal_thresholds, streaming_recall, streaming_recall_at_k,
    streaming_recall_at_thresholds, streaming_root_mean_squared_error, streaming_sensitivity_at_specificity,
    streaming_sparse_average_precision_at_k, streaming_sparse_average_precision_at_top_k,
    streaming_sparse_precision_at_k, streaming_sparse_precision_at_top_k, streaming_sparse_recall_at_k,
    streaming_specificity_at_sensitivity, streaming_true_negatives, streaming_true_negatives_at_thresholds,
    streaming_true_positives, streaming_true_positives_at_thresholds)

__all__ = ["accuracy", "aggregate_metric_map", "aggregate_metrics", "auc_using_histogram", "cohen_kappa",
           "confusion_matrix", "count", "f1_score", "precision_at_recall", "recall_at_precision",
           "sparse_recall_at_top_k", "streaming_accuracy", "streaming_auc", "streaming_concat",
           "streaming_covariance", "streaming_curve_points", "streaming_dynamic_auc", "streaming_false_negative_rate",
           "streaming_false_negative_rate_at_thresholds", "streaming_false_negatives",
           "streaming_false_negatives_at_thresholds", "streaming_false_positive_rate",
           "streaming_false_positive_rate_at_thresholds", "streaming_false_positives",
           "streaming_false_positives_at_thresholds", "streaming_mean", "streaming_mean_absolute_error",
           "streaming_mean_cosine_distance", "streaming_mean_iou", "streaming_mean_relative_error",
           "streaming_mean_squared_error", "streaming_mean_tensor", "streaming_pearson_correlation",
           "streaming_percentage_less", "streaming_precision", "streaming_precision_at_thresholds",
           "streaming_precision_recall_at_equal_thresholds", "streaming_recall", "streaming_recall_at_k",
           "streaming_recall_at_thresholds", "streaming_root_mean_squared_error",
           "streaming_sensitivity_at_specificity", "streaming_sparse_average_precision_at_k",
           "streaming_sparse_average_precision_at_top_k", "streaming_sparse_precision_at_k",
           "streaming_sparse_precision_at_top_k", "streaming_sparse_recall_at_k",
           "streaming_specificity_at_sensitivity", "streaming_true_negatives",
           "streaming_true_negatives_at_thresholds", "streaming_true_positives",
           "streaming_true_positives_at_thresholds"]

__getattr__ = missing_names(__name__, have="tf.contrib.metrics here has the streaming metrics, accuracy, "
                            "aggregate_metrics, aggregate_metric_map and confusion_matrix")
