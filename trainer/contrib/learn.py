"""tf.contrib.learn: TF1's deprecated high-level API; ringflow keeps only the error that says what to do."""
from ..unsupported import NotInRingflow

_DATASETS = ("tf.contrib.learn.datasets is not available in ringflow: it downloads and parses data sets. Load the "
             "files with numpy (np.load, np.loadtxt, np.genfromtxt), or MNIST from local files with "
             "tf.keras.datasets.mnist.load_data(path=...) or ringflow's `--dataset mnist:DIR`")


def __getattr__(name):
    if name == "datasets":
        raise NotImplementedError(_DATASETS)
    raise NotInRingflow(f"tf.contrib.learn.{name} is not available in ringflow (tf.contrib.learn, deprecated in TF1: "
                        "write the loop with tf.train.MonitoredTrainingSession and hooks, and load data with numpy)")
