"""tensorflow.contrib.learn.python.learn: the datasets, preprocessing and estimators packages, MetricSpec."""
from . import datasets, estimators, metric_spec, preprocessing  # noqa: F401
