"""tensorflow.contrib.learn.python.learn: the datasets, preprocessing and estimators packages."""
from . import datasets, estimators, preprocessing  # noqa: F401
