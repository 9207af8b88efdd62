"""tensorflow.python.util.compat: tf.compat (as_bytes, as_text, ...) by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "compat")
