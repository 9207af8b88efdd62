"""tf.contrib.learn: TF1's deprecated high-level API. ringflow keeps its MNIST reader (datasets.mnist, which TF1's
tutorials import as input_data) and, for the rest, the error that says what to do."""
from ...unsupported import missing_names
from .python.learn import datasets

__getattr__ = missing_names(__name__, have="tf.contrib.learn is deprecated in TF1: write the loop with "
                            "tf.train.MonitoredTrainingSession and hooks, and load data with numpy")
