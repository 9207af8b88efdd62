"""Stand-in for TF1's `tensorflow.examples.tutorials.mnist.input_data`: MNIST-shaped data made in-process.

The programs in this directory are TF1 programs whose only change besides the import line is their data
source: the tests run without network, so instead of downloading MNIST they call `read_data_sets` here, which
returns the same structure (`.train`, `.validation`, `.test`, each with `images`, `labels`, `num_examples`,
`next_batch`). Each class is a fixed random "prototype" image; a sample is its prototype plus Gaussian noise,
clipped to [0, 1] like MNIST pixels. The classes are separable, so a linear model reaches high accuracy.
"""
import collections

import numpy as np

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


class DataSet:
    """Images (N, image_size**2) float32 in [0, 1] and labels (int or one-hot), served in shuffled batches."""

    def __init__(self, images, labels, seed):
        self.images, self.labels = images, labels
        self.num_examples = len(images)
        self.epochs_completed = 0
        self._rng = np.random.RandomState(seed)
        self._order = self._rng.permutation(self.num_examples)
        self._index = 0

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """The next `batch_size` examples; a new permutation starts each epoch (`fake_data` is ignored)."""
        if self._index + batch_size > self.num_examples:
            self.epochs_completed += 1
            self._order = self._rng.permutation(self.num_examples) if shuffle else np.arange(self.num_examples)
            self._index = 0
        pick = self._order[self._index:self._index + batch_size]
        self._index += batch_size
        return self.images[pick], self.labels[pick]


def read_data_sets(train_dir=None, fake_data=False, one_hot=False, image_size=28, num_classes=10, train_size=2000,
                   validation_size=200, test_size=500, noise=0.35, seed=0):
    """Train/validation/test sets drawn from the same class prototypes; `train_dir`, `fake_data` are unused."""
    del train_dir, fake_data  # nothing is downloaded
    rng = np.random.RandomState(seed)
    prototypes = rng.uniform(0.0, 1.0, size=(num_classes, image_size * image_size))

    def draw(n, part):
        part_rng = np.random.RandomState(seed * 1000 + part)
        labels = part_rng.randint(num_classes, size=n)
        images = prototypes[labels] + part_rng.normal(0.0, noise, size=(n, image_size * image_size))
        images = np.clip(images, 0.0, 1.0).astype(np.float32)
        if one_hot:
            labels = np.eye(num_classes, dtype=np.float32)[labels]
        return DataSet(images, labels, seed=seed * 1000 + part)

    return Datasets(train=draw(train_size, 1), validation=draw(validation_size, 2), test=draw(test_size, 3))
