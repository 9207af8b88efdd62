"""tensorflow.python.training.gradient_descent: tf.train.GradientDescentOptimizer by TF's internal path."""
from ..views import namespace_view

__getattr__, __dir__ = namespace_view(__name__, "train")
