"""tensorflow.python.training.training_util: tf.train.get_global_step and its kin by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "train")
