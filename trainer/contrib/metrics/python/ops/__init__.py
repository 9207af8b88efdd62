"""tensorflow.contrib.metrics.python.ops: the streaming metrics (metric_ops)."""
from . import metric_ops  # noqa: F401
