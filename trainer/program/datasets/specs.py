"""Training sets found by a spec string `NAME` or `NAME:ARG` (`synthetic-linear`, `mnist:DIR`, `npz:FILE`, ...).

A Dataset says what its labels are (`task`) so a model can refuse data it cannot learn from: "regression"
(y float, one target per sample), "classes" (y int64 class ids in [0, num_outputs)) or "multilabel"
(y float 0/1, num_outputs labels per sample). The synthetic sets are drawn from fixed seeds, so every rank
and every run sees the same data; --seed only changes the initial weights and the shuffle.

Whatever is wrong with a dataset (a missing or damaged file, the wrong format, strings, NaN, a label of 1e8)
raises DatasetError, a ValueError, in one line naming the spec and the file (see dataset_checks/dataset_files).
"""
import os
from dataclasses import dataclass

import numpy as np

from ...platform import data_checks as dataset_checks
from ...platform.data_checks import DatasetError, DatasetNotFound, check_finite, class_count, infer
from ...platform.data_files import read_idx, read_npz

TASKS = ("regression", "classes", "multilabel")
__all__ = ["Dataset", "DatasetError", "DatasetNotFound", "TASKS", "check_fits", "load", "names", "usage"]


@dataclass(frozen=True)
class Dataset:
    name: str
    x: np.ndarray
    y: np.ndarray
    task: str
    num_outputs: int

    def __len__(self):
        return len(self.x)


def synthetic_linear(arg, allow_nonfinite=False):
    """The seeds' regression: y = 2x + 0.3·noise on 100 points evenly spaced in [-1, 1]."""
    x = np.linspace(-1, 1, 100)
    y = 2 * x + np.random.default_rng(0).standard_normal(x.shape) * 0.3
    return Dataset("synthetic-linear", x[:, None], y, "regression", 1)


def synthetic_classes(arg, allow_nonfinite=False, n=2048, features=20, classes=4):
    """Gaussian blobs around random centres: a learnable multi-class problem."""
    rng = np.random.default_rng(1)
    centres = rng.standard_normal((classes, features)) * 1.5
    y = rng.integers(0, classes, n)
    x = centres[y] + rng.standard_normal((n, features))
    return Dataset("synthetic-classes", x.astype(np.float32), y.astype(np.int64), "classes", classes)


def synthetic_multilabel(arg, allow_nonfinite=False, n=2048, features=20, labels=5):
    """Each label is an independent noisy linear threshold of the features, so samples carry 0..5 labels."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((n, features))
    w = rng.standard_normal((features, labels))
    y = (x @ w + 0.5 * rng.standard_normal((n, labels)) > 0.3).astype(np.float32)
    return Dataset("synthetic-multilabel", x.astype(np.float32), y, "multilabel", labels)


_MNIST_FILES = "train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz]"


def _find(where, directory, stem):
    for name in (stem, stem + ".gz"):
        if os.path.exists(os.path.join(directory, name)):
            return os.path.join(directory, name)
    raise DatasetNotFound(f"{where}: no {stem!r} or {stem + '.gz'!r} in {directory!r}. Nothing is downloaded: put "
                          f"the MNIST (or Fashion-MNIST) training files {_MNIST_FILES} there")


def mnist(directory, allow_nonfinite=False):
    """The MNIST / Fashion-MNIST training set from IDX files in a local directory, pixels scaled to [0, 1]."""
    where = f"dataset {'mnist:' + directory!r}"
    if not directory:
        raise DatasetError("dataset 'mnist:' needs a directory: --dataset mnist:DIR")
    if not os.path.isdir(directory):
        if os.path.exists(directory):
            raise DatasetError(f"{where}: {directory!r} is a file; mnist:DIR takes the directory holding "
                               f"{_MNIST_FILES}")
        raise DatasetNotFound(f"{where}: directory {directory!r} does not exist. Nothing is downloaded: create it "
                              f"and put the MNIST (or Fashion-MNIST) training files {_MNIST_FILES} there")
    images = read_idx(where, _find(where, directory, "train-images-idx3-ubyte"))
    labels = read_idx(where, _find(where, directory, "train-labels-idx1-ubyte"))
    if images.ndim != 3:
        raise DatasetError(f"{where}: the image file holds an array of shape {images.shape!r}, not (n, rows, "
                           "cols) images: are the image and label files swapped?")
    if labels.ndim != 1:
        raise DatasetError(f"{where}: the label file holds an array of shape {labels.shape!r}, not (n,) labels: "
                           "are the image and label files swapped?")
    if len(images) != len(labels):
        raise DatasetError(f"{where}: {len(images)} images but {len(labels)} labels: the two files do not belong "
                           "together (one from the test set?)")
    if len(images) == 0:
        raise DatasetError(f"{where}: the files hold no images: nothing to train on")
    check_finite(where, "the image file", images, allow_nonfinite)
    classes = class_count(where, labels, images[0].size, minimum=10)
    return Dataset(f"mnist:{directory}", images.astype(np.float32) / 255.0, labels.astype(np.int64), "classes",
                   classes)


def npz(path, allow_nonfinite=False):
    """Arrays `x` and `y` from an .npz file; the task follows from y (ints: classes, 2-D 0/1: multilabel)."""
    if not path:
        raise DatasetError("dataset 'npz:' needs a file: --dataset npz:FILE")
    where = f"dataset {'npz:' + path!r}"
    x, y = read_npz(where, path)
    x, y, task, outputs = infer(where, x, y, allow_nonfinite)
    return Dataset(f"npz:{path}", x, y, task, outputs)


_LOADERS = {
    "synthetic-linear": synthetic_linear,
    "synthetic-classes": synthetic_classes,
    "synthetic-multilabel": synthetic_multilabel,
    "mnist": mnist,
    "npz": npz,
}
_USAGE = {"mnist": "mnist:DIR", "npz": "npz:FILE"}  # the loaders that take an argument


def names():
    """The known spec prefixes."""
    return sorted(_LOADERS)


def usage(name):
    """How a spec for loader `name` is written, e.g. 'mnist:DIR'."""
    return _USAGE.get(name, name)


def load(spec, allow_nonfinite=False):
    """The dataset a spec names, e.g. 'synthetic-classes', 'mnist:/data/mnist', 'npz:train.npz'.

    NaN or inf in the features or regression targets raise DatasetError unless allow_nonfinite=True."""
    name, sep, arg = str(spec).partition(":")
    if name not in _LOADERS:
        raise DatasetError(f"unknown dataset {spec!r}; known: {', '.join(usage(n) for n in names())}")
    if sep and name not in _USAGE:
        raise DatasetError(f"dataset {name!r} takes no argument, got {spec!r}")
    return _LOADERS[name](arg, allow_nonfinite=allow_nonfinite)


def check_fits(dataset, dtype):
    """Refuse a dataset whose features or targets would overflow to inf when cast to `dtype` for training."""
    where = f"dataset {dataset.name!r}"
    dataset_checks.check_fits(where, "x", dataset.x, dtype)
    dataset_checks.check_fits(where, "y", dataset.y, dtype)
