"""tensorflow.python.training.session_run_hook: tf.train.SessionRunHook and its kin by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "train")
