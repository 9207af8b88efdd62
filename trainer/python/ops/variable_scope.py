"""tensorflow.python.ops.variable_scope: tf.variable_scope, tf.get_variable and their kin by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
