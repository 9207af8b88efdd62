"""What a training set must look like, checked once when it is loaded.

Each problem raises DatasetError (a ValueError) in one line that names the dataset, says what is wrong with
the offending value and where it sits, and what to do. The loaders in datasets.py read files; this module
judges the arrays they read, so every format gets the same checks.
"""
import numpy as np

from .footprint import count, human

# Above a million classes a dense softmax layer is the wrong tool (extreme classification samples the output
# layer instead), and a label that large nearly always means a damaged or misread file: with 784 features the
# output layer alone would already hold 784 x 1e6 float32 weights = 2.9 GiB.
MAX_CLASSES = 1_000_000


class DatasetError(ValueError):
    """A training set that cannot be used; the message says which, what is wrong and what to do."""


class DatasetNotFound(DatasetError, FileNotFoundError):
    """A dataset file or directory that does not exist."""


def _at(index):
    return index[0] if len(index) == 1 else index


def _first(mask):
    return tuple(int(i) for i in np.argwhere(mask)[0])


def check_dtype(where, name, dtype):
    """Arrays must hold real numbers: objects would need unpickling, strings and dates are not features."""
    dtype = np.dtype(dtype)
    if dtype.hasobject:
        raise DatasetError(f"{where}: array {name!r} holds Python objects (dtype {dtype}); reading them would "
                           "mean unpickling, which ringflow never does (a pickle can run any code): save plain "
                           "numbers instead, e.g. np.savez(FILE, x=x.astype(np.float32), y=y.astype(np.int64))")
    if dtype.kind in "US":
        how = ("class names to ids with np.unique(y, return_inverse=True)[1]" if name == "y"
               else "e.g. np.asarray(x, dtype=np.float32)")
        raise DatasetError(f"{where}: array {name!r} holds strings (dtype {dtype}); convert them to numbers "
                           f"({how})")
    if dtype.kind not in "biuf":
        raise DatasetError(f"{where}: array {name!r} holds {dtype} values, which are not real numbers; "
                           "save it as float32 (features, targets) or int64 (class ids)")


def check_shapes(where, x, y):
    """One row of x per label in y, at least one sample, at least one feature."""
    if x.ndim == 0:
        raise DatasetError(f"{where}: x is a single value {x.item()!r}, not samples: x needs one row per sample, "
                           "shape (n,) or (n, features...)")
    if y.ndim == 0:
        raise DatasetError(f"{where}: y is a single value {y.item()!r}, not labels: y needs one entry per sample, "
                           "shape (n,) or (n, k)")
    if y.ndim > 2:
        raise DatasetError(f"{where}: y has shape {y.shape!r}; labels are (n,) class ids or targets, "
                           "or (n, k) 0/1 labels")
    if len(x) != len(y):
        raise DatasetError(f"{where}: x has {len(x)} samples but y has {len(y)}: they must pair up one to "
                           "one (same first dimension)")
    if len(x) == 0:
        raise DatasetError(f"{where}: the dataset holds no samples (x has shape {x.shape!r}): nothing to "
                           "train on")
    if count(x.shape[1:]) == 0:
        raise DatasetError(f"{where}: the samples have no features (x has shape {x.shape!r})")


def check_finite(where, name, a, allow=False):
    """NaN or inf anywhere makes every loss NaN, so they are refused unless the caller asks to keep them."""
    if allow or a.dtype.kind != "f":
        return
    bad = ~np.isfinite(a)
    if bad.any():
        index = _first(bad)
        raise DatasetError(f"{where}: {name} holds {float(a[index])!r} at index {_at(index)!r} "
                           f"({int(bad.sum())} non-finite value(s) in all), which makes every loss NaN; clean "
                           "them (np.nan_to_num, or drop those rows) or keep them with --allow-nonfinite-data "
                           "(datasets.load(..., allow_nonfinite=True))")


def class_count(where, y, features, minimum=1):
    """The number of classes integer labels y need, refused when negative or absurdly large."""
    if y.dtype.kind not in "biu":
        raise DatasetError(f"{where}: class labels must be integer ids 0..classes-1, got {y.dtype.name} values "
                           f"such as {y.flat[0].item()!r}")
    low, high = int(y.min()), int(y.max())
    if low < 0:
        raise DatasetError(f"{where}: class label {low} at index {_at(_first(y < 0))!r} is negative; class ids "
                           "count from 0 (0 .. classes-1)")
    classes = max(minimum, high + 1)
    if classes > MAX_CLASSES:
        weights = features * classes
        raise DatasetError(
            f"{where}: label {high} at index {_at(_first(y == high))!r} would make {classes} classes: the output "
            f"layer alone would hold {features} features x {classes} classes = {weights} weights = "
            f"{human(weights * 4)} as float32, beyond the {MAX_CLASSES} classes ringflow accepts. Such a label "
            "usually means a damaged or misread file: check np.unique(y); renumber sparse ids to 0..k-1 with "
            "np.unique(y, return_inverse=True)[1]")
    return classes


def multilabel(where, y):
    """(n, k) labels that are each 0 or 1, as float32."""
    if y.shape[1] == 0:
        raise DatasetError(f"{where}: y has shape {y.shape!r}: no labels per sample")
    bad = (y != 0) & (y != 1)
    if bad.any():
        index = _first(bad)
        if y.shape[1] == 1:
            hint = " If these are regression targets, save y as a vector of shape (n,) (y.ravel())."
        elif y.dtype.kind == "f":
            hint = (f" If these are {y.shape[1]} regression targets per sample: multi-output regression is not "
                    "supported; train one target per run (y[:, j], a vector of shape (n,)), or build your own "
                    "model on the graph API (tg.losses.mean_squared_error takes (n, k) targets).")
        else:
            hint = ""
        raise DatasetError(f"{where}: y of shape {y.shape!r} is read as multi-label 0/1 labels, but holds "
                           f"{y[index].item()!r} at index {index!r}: use 1 where a sample has a label and 0 where "
                           f"not.{hint}")
    return y.astype(np.float32)


def check_fits(where, name, a, dtype):
    """Values beyond `dtype`'s range would turn into inf when the data is cast for training."""
    dtype = np.dtype(dtype)
    if a.dtype.kind != "f" or dtype.kind != "f" or a.dtype.itemsize <= dtype.itemsize:
        return
    with np.errstate(invalid="ignore"):
        big = np.isfinite(a) & (np.abs(a) > np.finfo(dtype).max)
    if big.any():
        index = _first(big)
        raise DatasetError(f"{where}: {name} holds {a[index].item()!r} at index {_at(index)!r}, beyond "
                           f"{dtype.name}'s range (+-{np.finfo(dtype).max:.3g}); it would become inf: train with "
                           "--dtype float64 or rescale the data")


def features(x):
    """x as floats (float64 kept, anything else float32), one row per sample."""
    x = x[:, None] if x.ndim == 1 else x
    return x.astype(np.float64 if x.dtype == np.float64 else np.float32, copy=False)


def infer(where, x, y, allow_nonfinite=False):
    """(x, y, task, num_outputs) from arrays whose labels tell the task: integer (n,) class ids, (n, k) 0/1
    labels, or float (n,) regression targets."""
    check_dtype(where, "x", x.dtype)
    check_dtype(where, "y", y.dtype)
    check_shapes(where, x, y)
    check_finite(where, "x", x, allow_nonfinite)
    x = features(x)
    if y.ndim == 2:
        return x, multilabel(where, y), "multilabel", y.shape[1]
    if y.dtype.kind in "biu":
        return x, y.astype(np.int64), "classes", class_count(where, y, count(x.shape[1:]))
    check_finite(where, "y", y, allow_nonfinite)
    return x, y.astype(np.float64), "regression", 1
