"""tf.contrib.learn.datasets: TF1's MNIST reader on local files, the CSV loaders and downloader (base), and
load_dataset for the sets ringflow can give: iris (shipped) and mnist (from local files)."""
from ......unsupported import missing_names
from . import base, mnist
from .base import load_boston, load_iris

DATASETS = {"iris": base.load_iris, "boston": base.load_boston, "mnist": mnist.load_mnist}
_ABSENT = {"dbpedia": "TF1 downloads DBpedia's 560,000 texts; ringflow never downloads data sets: load them with "
                      "numpy or the csv module"}


def load_dataset(name, size="small", test_with_fake_data=False):
    """The data set `name`: iris (Dataset), boston (needs its CSV: see load_boston), mnist (Datasets, from the
    IDX files in ./MNIST-data)."""
    if name in _ABSENT:
        raise NotImplementedError(f"load_dataset({name!r}) is not available in ringflow ({_ABSENT[name]})")
    if name not in DATASETS:
        raise ValueError(f"Name of dataset is not found: {name}; ringflow knows {sorted(DATASETS)}")
    return DATASETS[name]()


__getattr__ = missing_names(__name__, have="tf.contrib.learn.datasets here has base, mnist, load_dataset, "
                            "load_iris, load_boston",
                            reasons={"make_dataset": "synthetic sets (circles, spirals, blobs): draw them with numpy"})
