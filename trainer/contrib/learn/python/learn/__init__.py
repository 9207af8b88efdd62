"""tensorflow.contrib.learn.python.learn: the datasets, preprocessing and estimators packages, MetricSpec, monitors."""
from . import datasets, estimators, metric_spec, monitors, preprocessing  # noqa: F401
