"""tensorflow.python.training.basic_session_run_hooks: tf.train's hooks by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "train")
