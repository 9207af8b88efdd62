"""tensorflow.python.ops.map_fn: tf.map_fn by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
