"""tensorflow.python.framework.dtypes: tf.dtypes (tf.float32, tf.as_dtype, tf.DType) by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "dtypes", "")
