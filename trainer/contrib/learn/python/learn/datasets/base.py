"""tf.contrib.learn.datasets.base: TF1's CSV loaders, its downloader and the iris set shipped with it.

A CSV "with header" starts with a row `n_samples,n_features[,...]` (iris: `150,4,setosa,versicolor,virginica`)
and has exactly that many rows after it; one without header is all rows. The target column (last by default) is
taken out of each row and converted to `target_dtype`, the rest to `features_dtype`.
maybe_download fetches with urllib only when the file is not in the work directory yet.
"""
import collections
import csv
import os
import random
import shutil
import tempfile
import time
import urllib.error
import urllib.request

import numpy as np

from ......platform.data_checks import DatasetError, DatasetNotFound

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
TIMED_OUT = 110  # ETIMEDOUT on Linux: TF1 retries a download only for a connection that timed out


def _rows(filename):
    if not os.path.exists(filename):
        raise DatasetNotFound(f"No CSV file {filename!r}: give the path of an existing file")
    with open(filename, newline="") as csv_file:
        yield from csv.reader(csv_file)


def _split(filename, index, row, target_column, target_dtype, features_dtype):
    try:
        target = row.pop(target_column)
        return np.asarray(target, dtype=target_dtype), np.asarray(row, dtype=features_dtype)
    except (IndexError, ValueError) as error:
        raise DatasetError(f"{filename!r}, data row {index}: {error} (row {row!r}, target_column={target_column})")


def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
    """Dataset(data [n_samples, n_features], target [n_samples]) from a CSV whose first row gives both sizes."""
    rows = _rows(filename)
    header = next(rows, None)
    try:
        n_samples, n_features = int(header[0]), int(header[1])
    except (TypeError, IndexError, ValueError):
        raise DatasetError(f"{filename!r}: the header row {header!r} does not start with n_samples,n_features; "
                           "use load_csv_without_header for a CSV without that row") from None
    data = np.zeros((n_samples, n_features), dtype=features_dtype)
    target = np.zeros((n_samples,), dtype=target_dtype)
    for i, row in enumerate(rows):
        if i >= n_samples:
            raise DatasetError(f"{filename!r} has more data rows than its header's n_samples={n_samples}")
        target[i], data[i] = _split(filename, i, row, target_column, target_dtype, features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename, target_dtype, features_dtype, target_column=-1):
    """Dataset(data, target) from a CSV whose every row is an example."""
    pairs = [_split(filename, i, row, target_column, target_dtype, features_dtype)
             for i, row in enumerate(_rows(filename))]
    target = np.array([t for t, _ in pairs], dtype=target_dtype)
    return Dataset(data=np.array([d for _, d in pairs]), target=target)


def shrink_csv(filename, ratio):
    """Write every `ratio`-th row of `filename` (header included) to its `_small` twin (a.csv -> a_small.csv)."""
    small = filename.replace(".", "_small.")
    with open(small, "w", newline="") as out:
        writer = csv.writer(out)
        for i, row in enumerate(_rows(filename)):
            if i % ratio == 0:
                writer.writerow(row)


def load_iris(data_path=None):
    """Fisher's iris set: 150 examples of 4 float64 measurements (cm), classes 0-2 (setosa, versicolor,
    virginica); by default the copy shipped here."""
    return load_csv_with_header(data_path or os.path.join(DATA_DIR, "iris.csv"), target_dtype=np.int64,
                                features_dtype=np.float64)


def load_boston(data_path=None):
    """The Boston housing prices from `data_path` (ringflow does not ship TF1's copy)."""
    if data_path is None:
        raise DatasetNotFound("load_boston(): ringflow does not ship the Boston housing CSV TF1 did: pass "
                              "data_path= a CSV with header (506,13,...) or load your data with numpy")
    return load_csv_with_header(data_path, target_dtype=np.float64, features_dtype=np.float64)


def retry(initial_delay, max_delay, factor=2.0, jitter=0.25, is_retriable=None):
    """A decorator that retries a call after delays growing by `factor` up to `max_delay` seconds (each jittered
    by ±jitter), then calls once more; an error is_retriable refuses is raised at once."""
    if factor < 1:
        raise ValueError(f"factor must be >= 1; was {factor:f}")
    if jitter >= 1:
        raise ValueError(f"jitter must be < 1; was {jitter:f}")

    def delays():
        delay = initial_delay
        while delay <= max_delay:
            yield delay * random.uniform(1 - jitter, 1 + jitter)
            delay *= factor

    def wrap(fn):
        def wrapped(*args, **kwargs):
            for delay in delays():
                try:
                    return fn(*args, **kwargs)
                except Exception as error:  # noqa: BLE001  (is_retriable decides)
                    if is_retriable is None:
                        continue
                    if not is_retriable(error):
                        raise
                    time.sleep(delay)
            return fn(*args, **kwargs)
        return wrapped
    return wrap


def _timed_out(error):
    return isinstance(error, OSError) and error.errno == TIMED_OUT


@retry(initial_delay=1.0, max_delay=16.0, is_retriable=_timed_out)
def urlretrieve_with_retry(url, filename=None):
    """urllib's urlretrieve, retried while the connection times out."""
    return urllib.request.urlretrieve(url, filename)


def maybe_download(filename, work_directory, source_url):
    """The path of `filename` in `work_directory`, downloaded from `source_url` (the file's whole URL) first if
    it is not there yet."""
    os.makedirs(work_directory, exist_ok=True)
    filepath = os.path.join(work_directory, filename)
    if os.path.exists(filepath):
        return filepath
    with tempfile.TemporaryDirectory() as scratch:
        part = os.path.join(scratch, filename)
        try:
            urlretrieve_with_retry(source_url, part)
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise DatasetNotFound(f"maybe_download: could not download {source_url!r} ({error}): put the file at "
                                  f"{filepath!r} and run again") from error
        shutil.copyfile(part, filepath)
    print("Successfully downloaded", filename, os.path.getsize(filepath), "bytes.")
    return filepath
