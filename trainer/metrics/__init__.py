"""tf.metrics: streaming evaluation metrics, each a (value, update_op) pair over running totals in local variables
(metrics_impl.py: means, errors, confusion counts, precision, recall, auc; confusion.py: the per-threshold and
per-class metrics; top_k.py: precision, recall and average precision at k)."""
from .confusion import (false_negatives_at_thresholds, false_positives_at_thresholds, mean_iou,
                        mean_per_class_accuracy, precision_at_thresholds, recall_at_thresholds,
                        sensitivity_at_specificity, specificity_at_sensitivity, true_negatives_at_thresholds,
                        true_positives_at_thresholds)
from .metrics_impl import (accuracy, auc, false_negatives, false_positives, mean, mean_absolute_error,
                           mean_cosine_distance, mean_relative_error, mean_squared_error, mean_tensor,
                           percentage_below, precision, recall, root_mean_squared_error, true_negatives,
                           true_positives)
from ..unsupported import missing_names

__all__ = ["accuracy", "auc", "false_negatives", "false_negatives_at_thresholds", "false_positives",
           "false_positives_at_thresholds", "mean", "mean_absolute_error", "mean_cosine_distance", "mean_iou",
           "mean_per_class_accuracy", "mean_relative_error", "mean_squared_error", "mean_tensor", "percentage_below",
           "precision", "precision_at_thresholds", "recall", "recall_at_thresholds", "root_mean_squared_error",
           "sensitivity_at_specificity", "specificity_at_sensitivity", "true_negatives",
           "true_negatives_at_thresholds", "true_positives", "true_positives_at_thresholds"]

from .top_k import (average_precision_at_k, precision_at_k, precision_at_top_k, recall_at_k,  # noqa: E402
                    recall_at_top_k, sparse_average_precision_at_k, sparse_precision_at_k)

__all__ += ["average_precision_at_k", "precision_at_k", "precision_at_top_k", "recall_at_k", "recall_at_top_k",
            "sparse_average_precision_at_k", "sparse_precision_at_k"]
__getattr__ = missing_names(__name__, have=f"ringflow's tf.metrics has {', '.join(__all__)}")
