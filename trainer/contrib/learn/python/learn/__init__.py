"""tensorflow.contrib.learn.python.learn: the datasets package."""
from . import datasets  # noqa: F401
