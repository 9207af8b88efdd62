"""Training sets found by a spec string `NAME` or `NAME:ARG` (`synthetic-linear`, `mnist:DIR`, `npz:FILE`, ...).

A Dataset says what its labels are (`task`) so a model can refuse data it cannot learn from: "regression"
(y float, one target per sample), "classes" (y int64 class ids in [0, num_outputs)) or "multilabel"
(y float 0/1, num_outputs labels per sample). The synthetic sets are drawn from fixed seeds, so every rank
and every run sees the same data; --seed only changes the initial weights and the shuffle.
"""
import gzip
import os
from dataclasses import dataclass

import numpy as np

TASKS = ("regression", "classes", "multilabel")


@dataclass(frozen=True)
class Dataset:
    name: str
    x: np.ndarray
    y: np.ndarray
    task: str
    num_outputs: int

    def __len__(self):
        return len(self.x)


def synthetic_linear(arg):
    """The seeds' regression: y = 2x + 0.3·noise on 100 points evenly spaced in [-1, 1]."""
    x = np.linspace(-1, 1, 100)
    y = 2 * x + np.random.default_rng(0).standard_normal(x.shape) * 0.3
    return Dataset("synthetic-linear", x[:, None], y, "regression", 1)


def synthetic_classes(arg, n=2048, features=20, classes=4):
    """Gaussian blobs around random centres: a learnable multi-class problem."""
    rng = np.random.default_rng(1)
    centres = rng.standard_normal((classes, features)) * 1.5
    y = rng.integers(0, classes, n)
    x = centres[y] + rng.standard_normal((n, features))
    return Dataset("synthetic-classes", x.astype(np.float32), y.astype(np.int64), "classes", classes)


def synthetic_multilabel(arg, n=2048, features=20, labels=5):
    """Each label is an independent noisy linear threshold of the features, so samples carry 0..5 labels."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((n, features))
    w = rng.standard_normal((features, labels))
    y = (x @ w + 0.5 * rng.standard_normal((n, labels)) > 0.3).astype(np.float32)
    return Dataset("synthetic-multilabel", x.astype(np.float32), y, "multilabel", labels)


_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path):
    """An IDX file (the MNIST format), gzipped or not."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    if len(raw) < 4 or raw[:2] != b"\0\0" or raw[2] not in _IDX_DTYPES:
        raise ValueError(f"{path!r} is not an IDX file (magic {raw[:4]!r})")
    ndim = raw[3]
    dims = tuple(int(d) for d in np.frombuffer(raw, ">i4", ndim, offset=4))
    dtype = np.dtype(_IDX_DTYPES[raw[2]])
    expected = 4 + 4 * ndim + int(np.prod(dims)) * dtype.itemsize
    if len(raw) != expected:
        raise ValueError(f"{path!r} holds {len(raw)} bytes, its header {dims!r} says {expected}: "
                         "the file is truncated or damaged")
    return np.frombuffer(raw, dtype, offset=4 + 4 * ndim).reshape(dims)


def _find(directory, stem):
    for name in (stem, stem + ".gz"):
        if os.path.isfile(os.path.join(directory, name)):
            return os.path.join(directory, name)
    raise FileNotFoundError(
        f"mnist: no {stem!r} or {stem + '.gz'!r} in {directory!r}. Nothing is downloaded: put the MNIST (or "
        f"Fashion-MNIST) training files train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz] there")


def mnist(directory):
    """The MNIST / Fashion-MNIST training set from IDX files in a local directory, pixels scaled to [0, 1]."""
    if not directory:
        raise ValueError("mnist needs a directory: --dataset mnist:DIR")
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"mnist: directory {directory!r} does not exist. Nothing is downloaded: create it and "
                                "put the MNIST (or Fashion-MNIST) training files train-images-idx3-ubyte[.gz] and "
                                "train-labels-idx1-ubyte[.gz] there")
    images = read_idx(_find(directory, "train-images-idx3-ubyte"))
    labels = read_idx(_find(directory, "train-labels-idx1-ubyte"))
    if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
        raise ValueError(f"mnist: images {images.shape!r} and labels {labels.shape!r} in {directory!r} do not "
                         "match: expected (n, rows, cols) and (n,)")
    x = images.astype(np.float32) / 255.0
    y = labels.astype(np.int64)
    return Dataset(f"mnist:{directory}", x, y, "classes", max(10, int(y.max()) + 1))


def npz(path):
    """Arrays `x` and `y` from an .npz file; the task follows from y (ints: classes, 2-D 0/1: multilabel)."""
    if not path:
        raise ValueError("npz needs a file: --dataset npz:FILE")
    with np.load(path, allow_pickle=False) as f:
        missing = {"x", "y"} - set(f.files)
        if missing:
            raise ValueError(f"{path!r} lacks array(s) {sorted(missing)!r}; it holds {sorted(f.files)!r}")
        x, y = f["x"], f["y"]
    if len(x) != len(y):
        raise ValueError(f"{path!r}: x has {len(x)} samples, y has {len(y)}")
    if x.ndim == 1:
        x = x[:, None]
    x = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
    if y.ndim == 1 and np.issubdtype(y.dtype, np.integer):
        if len(y) and y.min() < 0:
            raise ValueError(f"{path!r}: class labels must be non-negative, found {int(y.min())}")
        return Dataset(f"npz:{path}", x, y.astype(np.int64), "classes", int(y.max()) + 1 if len(y) else 1)
    if y.ndim == 2 and np.isin(y, (0, 1)).all():
        return Dataset(f"npz:{path}", x, y.astype(np.float32), "multilabel", y.shape[1])
    if y.ndim == 1:
        return Dataset(f"npz:{path}", x, y.astype(np.float64), "regression", 1)
    raise ValueError(f"{path!r}: cannot tell the task from y of shape {y.shape!r} and dtype {y.dtype}: "
                     "use integer class ids (n,), 0/1 labels (n, k) or float targets (n,)")


_LOADERS = {
    "synthetic-linear": synthetic_linear,
    "synthetic-classes": synthetic_classes,
    "synthetic-multilabel": synthetic_multilabel,
    "mnist": mnist,
    "npz": npz,
}
_TAKES_ARG = {"mnist", "npz"}


def names():
    """The known spec prefixes."""
    return sorted(_LOADERS)


def load(spec):
    """The dataset a spec names, e.g. 'synthetic-classes', 'mnist:/data/mnist', 'npz:train.npz'."""
    name, sep, arg = str(spec).partition(":")
    if name not in _LOADERS:
        raise ValueError(f"unknown dataset {spec!r}; known: {', '.join(_usage(n) for n in names())}")
    if sep and name not in _TAKES_ARG:
        raise ValueError(f"dataset {name!r} takes no argument, got {spec!r}")
    return _LOADERS[name](arg)


def _usage(name):
    return {"mnist": "mnist:DIR", "npz": "npz:FILE"}.get(name, name)
