"""tf.contrib.learn.python.learn.datasets.mnist: TF1's MNIST reader (what the tutorials import as
tensorflow.examples.tutorials.mnist.input_data, as in TF1), on the IDX files in a local directory
(train-images-idx3-ubyte.gz and the three others, gzipped or not). Nothing is downloaded.

read_data_sets returns Datasets(train, validation, test): the first `validation_size` training examples are the
validation set. Images are [N, 784] float32 in [0, 1] (reshape=False keeps [N, 28, 28, 1]; dtype=uint8 keeps
the bytes), labels are uint8 class ids or float64 one-hot rows. DataSet.next_batch shuffles with numpy's global
generator as TF1 does, seeded from `seed` (or the graph seed) when the DataSet is made.
"""
import collections
import os

import numpy as np

from ......platform.data_checks import DatasetError, DatasetNotFound
from ......platform.data_files import read_idx
from ......framework.dtypes import as_dtype, float32, uint8
from ......framework.random_seed import get_seed

SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
TRAIN_IMAGES, TRAIN_LABELS = "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"
TEST_IMAGES, TEST_LABELS = "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])
_WHERE = "input_data.read_data_sets"


def _read(train_dir, filename, source_url, ndim):
    for name in (filename, filename[:-3]):
        path = os.path.join(train_dir, name)
        if os.path.exists(path):
            array = read_idx(_WHERE, path)
            if array.ndim != ndim or array.dtype != np.uint8:
                raise DatasetError(f"{_WHERE}: {path!r} holds {array.dtype} values of shape {array.shape}; MNIST's "
                                   f"{filename} holds uint8 values in {ndim} dimensions")
            return array
    raise DatasetNotFound(f"{_WHERE}: no {filename!r} (or {filename[:-3]!r}) in {train_dir!r}, and ringflow never "
                          f"downloads: put the file there (TF1 fetches it from {source_url}{filename})")


def dense_to_one_hot(labels_dense, num_classes):
    """Class ids [N] as one-hot rows [N, num_classes] (float64, as TF1's tutorial makes them)."""
    one_hot = np.zeros((len(labels_dense), num_classes))
    one_hot[np.arange(len(labels_dense)), labels_dense.ravel()] = 1
    return one_hot


class DataSet:
    """Images and labels with next_batch; fake_data=True serves constant fake examples instead."""

    def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=float32, reshape=True, seed=None):
        seed1, seed2 = get_seed(seed)
        np.random.seed(seed1 if seed is None else seed2)
        dtype = as_dtype(dtype)
        if dtype not in (uint8, float32):
            raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
        self.fake_data, self.one_hot = fake_data, one_hot
        if fake_data:
            self._num_examples = 10000
        else:
            if images.shape[0] != labels.shape[0]:
                raise ValueError(f"images.shape: {images.shape} labels.shape: {labels.shape}")
            self._num_examples = images.shape[0]
            if reshape:
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype == float32:
                images = images.astype(np.float32) * np.float32(1.0 / 255.0)
        self._images, self._labels = images, labels
        self._epochs_completed = self._index_in_epoch = 0

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: self._num_examples)
    epochs_completed = property(lambda self: self._epochs_completed)

    def _shuffle(self):
        order = np.arange(self._num_examples)
        np.random.shuffle(order)
        self._images, self._labels = self._images[order], self._labels[order]

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """The next `batch_size` examples; an epoch's end wraps into the next (reshuffled) epoch."""
        if fake_data:
            label = [1] + [0] * 9 if self.one_hot else 0
            return [[1] * 784 for _ in range(batch_size)], [label for _ in range(batch_size)]
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch += batch_size
            return self._images[start:self._index_in_epoch], self._labels[start:self._index_in_epoch]
        self._epochs_completed += 1
        images_rest, labels_rest = self._images[start:], self._labels[start:]
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - (self._num_examples - start)
        end = self._index_in_epoch
        return (np.concatenate((images_rest, self._images[:end]), axis=0),
                np.concatenate((labels_rest, self._labels[:end]), axis=0))


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=float32, reshape=True, validation_size=5000,
                   seed=None, source_url=SOURCE_URL):
    """Datasets(train, validation, test) from the four MNIST files in `train_dir`."""
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    if fake_data:
        return Datasets(*(DataSet([], [], fake_data=True, one_hot=one_hot, **options) for _ in range(3)))
    source_url = source_url or SOURCE_URL
    images = {name: _read(train_dir, name, source_url, 3)[..., None] for name in (TRAIN_IMAGES, TEST_IMAGES)}
    labels = {name: _read(train_dir, name, source_url, 1) for name in (TRAIN_LABELS, TEST_LABELS)}
    if one_hot:
        labels = {name: dense_to_one_hot(value, 10) for name, value in labels.items()}
    train_images, train_labels = images[TRAIN_IMAGES], labels[TRAIN_LABELS]
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. Received: "
                         f"{validation_size}.")
    return Datasets(
        train=DataSet(train_images[validation_size:], train_labels[validation_size:], **options),
        validation=DataSet(train_images[:validation_size], train_labels[:validation_size], **options),
        test=DataSet(images[TEST_IMAGES], labels[TEST_LABELS], **options))


def load_mnist(train_dir="MNIST-data"):
    """read_data_sets(train_dir) (TF1's shorthand)."""
    return read_data_sets(train_dir)
