"""tensorflow.python.framework.constant_op: tf.constant and its kin by the path TF's tests import them from."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
