"""tensorflow.contrib.metrics.python: the path of TF1's contrib.metrics.python.ops package."""
