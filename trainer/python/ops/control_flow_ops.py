"""tensorflow.python.ops.control_flow_ops: tf.cond, tf.while_loop, tf.group and their kin by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
