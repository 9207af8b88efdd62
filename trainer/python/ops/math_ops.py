"""tensorflow.python.ops.math_ops: TF's math ops (tf.*, tf.math.*, tf.linalg.*) by the path its tests use."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "", "math", "linalg")
