"""tensorflow.python.ops.special_math_ops: tf.einsum and tf.math's special functions by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "", "math")
