"""tensorflow.python.ops.nn_ops: tf.nn's ops by the path TF's tests import them from."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "nn", "")
