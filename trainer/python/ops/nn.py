"""tensorflow.python.ops.nn: tf.nn by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "nn", "")
