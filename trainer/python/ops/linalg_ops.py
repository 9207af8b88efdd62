"""tensorflow.python.ops.linalg_ops: tf.linalg's ops by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "linalg", "")
