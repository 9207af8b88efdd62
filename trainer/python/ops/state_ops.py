"""tensorflow.python.ops.state_ops: tf.assign and its kin by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
