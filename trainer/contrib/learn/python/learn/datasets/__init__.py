"""tf.contrib.learn.datasets: TF1's MNIST reader on local files; its downloaders and other data sets are not here."""
from ......unsupported import missing_names
from . import mnist

_DOWNLOADS = ("it downloads and parses data sets: load the files with numpy (np.load, np.loadtxt, np.genfromtxt), "
              "MNIST from local files with tf.contrib.learn.datasets.mnist.read_data_sets(dir), "
              "tf.keras.datasets.mnist.load_data(path=...) or ringflow's `--dataset mnist:DIR`")

__getattr__ = missing_names(__name__, have="of tf.contrib.learn.datasets only mnist is here",
                            reasons=dict.fromkeys(["base", "load_dataset", "load_iris", "load_boston"], _DOWNLOADS))
