"""tf.contrib.estimator: TF 1.15's v1 heads and the head-taking canned estimators, the same objects as tg.estimator's.

The rest of TF1's contrib.estimator (multi_label_head, multi_head, poisson and logistic regression heads, add_metrics,
the RNN estimators, ...) is not here: naming it raises NotInRingflow.
"""
from ..estimator import (DNNEstimator, DNNLinearCombinedEstimator, LinearEstimator, binary_classification_head,
                         multi_class_head, regression_head)
from ..unsupported import missing_names

__all__ = ["DNNEstimator", "DNNLinearCombinedEstimator", "LinearEstimator", "binary_classification_head",
           "multi_class_head", "regression_head"]

__getattr__ = missing_names(__name__, have=f"tf.contrib.estimator here has {', '.join(__all__)}")
