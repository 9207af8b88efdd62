"""tensorflow.python.platform.tf_logging: tf.logging by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "logging")
