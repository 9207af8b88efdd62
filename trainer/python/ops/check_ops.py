"""tensorflow.python.ops.check_ops: tf.debugging's asserts (tf.assert_*) by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "debugging", "")
