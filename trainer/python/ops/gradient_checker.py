"""tensorflow.python.ops.gradient_checker: tf.test.compute_gradient and compute_gradient_error by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "test")
