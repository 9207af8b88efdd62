"""tensorflow.python.ops.rnn_cell_impl: tf.nn.rnn_cell by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "nn.rnn_cell")
