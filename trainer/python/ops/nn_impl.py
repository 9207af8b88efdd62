"""tensorflow.python.ops.nn_impl: tf.nn's functions by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "nn", "")
