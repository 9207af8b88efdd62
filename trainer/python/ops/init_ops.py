"""tensorflow.python.ops.init_ops: tf's initializers (tf.*_initializer, tf.initializers.*) by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "", "initializers")
