"""tensorflow.python.ops.logging_ops: tf.Print and tf.print by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
