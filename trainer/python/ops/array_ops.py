"""tensorflow.python.ops.array_ops: TF's array ops (tf.*, tf.linalg.*, tf.math.*) by the path its tests use."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "", "linalg", "math")
