"""tensorflow.python.ops.embedding_ops: tf.nn.embedding_lookup by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "nn", "")
