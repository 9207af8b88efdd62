"""tf.contrib.learn: TF1's deprecated high-level API; ringflow keeps only the error that says what to do."""
from ..unsupported import missing_names

_DATASETS = ("it downloads and parses data sets: load the "
             "files with numpy (np.load, np.loadtxt, np.genfromtxt), or MNIST from local files with "
             "tf.keras.datasets.mnist.load_data(path=...) or ringflow's `--dataset mnist:DIR`")

__getattr__ = missing_names(__name__, have="tf.contrib.learn is deprecated in TF1: write the loop with "
                            "tf.train.MonitoredTrainingSession and hooks, and load data with numpy",
                            reasons={"datasets": _DATASETS})
