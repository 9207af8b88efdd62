"""Small learnable data sets for the corpus programs, standing in for the downloads of the public programs.

Each corpus program is a public TF1 program whose data loading is replaced by a call here (the tests run
without network, on 2 cores): MNIST-like images, CIFAR-like colour images, a text made of word groups, iris-
and abalone-like tables, and the files keras.datasets.mnist reads. Everything is drawn from fixed seeds.
"""
import collections
import gzip
import struct

import numpy as np

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


class DataSet:
    """TF1 input_data's DataSet: `images`, `labels`, `num_examples` and shuffled `next_batch`."""

    def __init__(self, images, labels, seed):
        self.images, self.labels = images, labels
        self.num_examples = len(images)
        self._rng = np.random.RandomState(seed)
        self._order = self._rng.permutation(self.num_examples)
        self._index = 0

    def next_batch(self, batch_size, shuffle=True):
        if self._index + batch_size > self.num_examples:
            self._order = self._rng.permutation(self.num_examples) if shuffle else np.arange(self.num_examples)
            self._index = 0
        pick = self._order[self._index:self._index + batch_size]
        self._index += batch_size
        return self.images[pick], self.labels[pick]


def _prototypes(rng, classes, size):
    """One stroke-like pattern per class: the brightest fifth of a smoothed random field is 1, the rest 0."""
    side = int(round(np.sqrt(size)))
    raw = rng.uniform(size=(classes, side + 4, side + 4))
    smooth = sum(raw[:, i:i + side, j:j + side] for i in range(5) for j in range(5)).reshape(classes, -1)
    return (smooth >= np.percentile(smooth, 80, axis=1, keepdims=True)).astype(np.float64)


def mnist(one_hot=True, side=28, train_size=1000, test_size=200, seed=0):
    """MNIST-shaped digits: (N, side*side) float32 in [0, 1], mostly 0 like MNIST's background; each of the
    10 classes is a pattern at a random intensity, with noise, and dim pixels cut to 0."""
    rng = np.random.RandomState(seed)
    prototypes = _prototypes(rng, 10, side * side)

    def draw(n, part):
        part_rng = np.random.RandomState(seed * 100 + part)
        labels = part_rng.randint(10, size=n)
        images = prototypes[labels] * part_rng.uniform(0.5, 1.0, size=(n, 1))
        images = np.clip(images + part_rng.normal(0.0, 0.2, size=images.shape), 0.0, 1.0)
        images = np.where(images < 0.25, 0.0, images).astype(np.float32)
        return DataSet(images, np.eye(10, dtype=np.float32)[labels] if one_hot else labels, seed * 100 + part)

    return Datasets(train=draw(train_size, 1), validation=draw(test_size, 2), test=draw(test_size, 3))


def keras_mnist_npz(path, seed=0, train_size=600, test_size=200):
    """The file keras.datasets.mnist.load_data reads: uint8 (N, 28, 28) images and uint8 labels."""
    data = mnist(one_hot=False, train_size=train_size, test_size=test_size, seed=seed)
    as_bytes = lambda images: np.round(images * 255).astype(np.uint8).reshape(-1, 28, 28)  # noqa: E731
    with open(path, "wb") as f:  # at exactly `path`: np.savez would add ".npz" to a bare name
        np.savez(f, x_train=as_bytes(data.train.images), y_train=data.train.labels.astype(np.uint8),
                 x_test=as_bytes(data.test.images), y_test=data.test.labels.astype(np.uint8))


def keras_fashion_idx(directory, seed=0, train_size=600, test_size=200):
    """The four gzipped IDX files keras.datasets.fashion_mnist.load_data reads, in `directory`."""
    data = mnist(one_hot=False, train_size=train_size, test_size=test_size, seed=seed)
    as_bytes = lambda images: np.round(images * 255).astype(np.uint8).reshape(-1, 28, 28)  # noqa: E731
    for name, array in (("train-images-idx3-ubyte", as_bytes(data.train.images)),
                        ("train-labels-idx1-ubyte", data.train.labels.astype(np.uint8)),
                        ("t10k-images-idx3-ubyte", as_bytes(data.test.images)),
                        ("t10k-labels-idx1-ubyte", data.test.labels.astype(np.uint8))):
        header = bytes([0, 0, 0x08, array.ndim]) + struct.pack(f">{array.ndim}i", *array.shape)
        with gzip.open(directory / f"{name}.gz", "wb") as f:
            f.write(header + array.tobytes())


def cifar(n, side=16, seed=0):
    """CIFAR-like uint8 (n, side, side, 3) images and int32 labels: each class a colour and a horizontal band
    (both survive random crops, left-right flips, brightness and contrast changes)."""
    rng = np.random.RandomState(seed)
    colours = np.random.RandomState(1).uniform(40, 215, size=(10, 3))
    labels = rng.randint(10, size=n).astype(np.int32)
    images = np.repeat(colours[labels][:, None, None, :], side, axis=1).repeat(side, axis=2)
    band = (np.arange(side)[None, :] // max(1, side // 10)) == (labels[:, None] % 10)
    images = images + 60.0 * band[:, :, None, None] + rng.normal(0, 12, size=images.shape)
    return np.clip(images, 0, 255).astype(np.uint8), labels


def text_words(n_words=6000, groups=8, group_size=6, seed=0):
    """A text whose sentences each draw their words from one topic group: words of a group share contexts.
    Returns the list of words ('g3w1' is word 1 of group 3) and the groups as lists of words."""
    rng = np.random.RandomState(seed)
    vocabulary = [["g%dw%d" % (g, w) for w in range(group_size)] for g in range(groups)]
    words = []
    while len(words) < n_words:
        topic = vocabulary[rng.randint(groups)]
        words.extend(topic[i] for i in rng.randint(group_size, size=8))
    return words[:n_words], vocabulary


def iris(n=240, seed=0):
    """Three Gaussian clusters over the four iris measurements: (features dict of float32 columns, labels)."""
    rng = np.random.RandomState(seed)
    centres = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
    labels = rng.randint(3, size=n)
    values = centres[labels] + rng.normal(0, 0.25, size=(n, 4))
    names = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth"]
    return {name: values[:, i].astype(np.float32) for i, name in enumerate(names)}, labels.astype(np.int32)


def abalone(n, seed=0):
    """Seven measurements and an age that is a fixed linear function of them plus noise (float32)."""
    rng = np.random.RandomState(seed)
    features = rng.uniform(0.0, 1.0, size=(n, 7)).astype(np.float32)
    weights = np.array([3.0, -2.0, 4.0, 1.0, 2.5, -1.5, 2.0], dtype=np.float32)
    ages = features @ weights + 8.0 + rng.normal(0, 0.3, size=n).astype(np.float32)
    return features, ages.astype(np.float32)


def imdb_like(num_words=10000, train_size=4000, test_size=1000, seed=0):
    """keras.datasets.imdb.load_data(num_words)'s shape of data: ((train reviews, labels), (test reviews,
    labels)), each review a list of word ids (1 starts it, as Keras' loader marks; ids from 4 are words) of
    20 to 200 words. A positive review draws some words from ids 4-53, a negative one from 54-103; the rest are
    neutral words shared by both."""
    rng = np.random.RandomState(seed)

    def reviews(n):
        labels = rng.randint(2, size=n)
        data = []
        for label in labels:
            length = rng.randint(20, 201)
            words = rng.randint(104, num_words, size=length)
            cue = rng.rand(length) < 0.1
            words[cue] = rng.randint(4, 54, size=cue.sum()) + 50 * (1 - label)
            data.append([1] + words.tolist())
        return np.array(data, dtype=object), labels.astype(np.int64)
    return reviews(train_size), reviews(test_size)
