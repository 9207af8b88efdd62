"""tensorflow.python.ops.random_ops: tf.random_* (tf.random.*) by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "", "random")
