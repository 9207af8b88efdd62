"""tensorflow.python.ops.rnn: tf.nn.dynamic_rnn and its kin by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "nn")
