"""tensorflow.python.ops.functional_ops: tf.map_fn, tf.scan and tf.fold* by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
