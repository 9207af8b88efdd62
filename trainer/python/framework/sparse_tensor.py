"""tensorflow.python.framework.sparse_tensor: tf.SparseTensor and tf.SparseTensorValue by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "")
