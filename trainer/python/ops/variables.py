"""tensorflow.python.ops.variables: tf.Variable and the variable collections by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
