"""tensorflow.examples.tutorials.mnist.input_data on local IDX files: TF1's split, scaling, one-hot labels and
next_batch's epoch wrap-around, and the error naming a missing file."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.program.test_datasets import write_idx
from trainer.contrib.learn.python.learn.datasets.mnist import read_data_sets
from trainer.examples.tutorials.mnist import input_data

RNG = np.random.default_rng(3)


@pytest.fixture
def mnist_dir(tmp_path):
    images = {"train": RNG.integers(0, 256, (10, 28, 28)).astype(np.uint8),
              "t10k": RNG.integers(0, 256, (4, 28, 28)).astype(np.uint8)}
    labels = {"train": np.arange(10, dtype=np.uint8), "t10k": np.array([3, 1, 4, 1], dtype=np.uint8)}
    for prefix in ("train", "t10k"):
        write_idx(tmp_path / f"{prefix}-images-idx3-ubyte.gz", images[prefix], compress=True)
        write_idx(tmp_path / f"{prefix}-labels-idx1-ubyte", labels[prefix])  # not gzipped: read as well
    return tmp_path, images, labels


def test_read_data_sets_splits_scales_and_one_hots(mnist_dir):
    directory, images, labels = mnist_dir
    data = input_data.read_data_sets(str(directory), one_hot=True, validation_size=3)
    assert (data.train.num_examples, data.validation.num_examples, data.test.num_examples) == (7, 3, 4)
    assert data.train.images.shape == (7, 784) and data.train.images.dtype == np.float32
    np.testing.assert_allclose(data.validation.images, images["train"][:3].reshape(3, 784) / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(data.test.labels, np.eye(10)[[3, 1, 4, 1]])
    raw = input_data.read_data_sets(str(directory), dtype=tg.uint8, reshape=False, validation_size=0)
    assert raw.train.images.shape == (10, 28, 28, 1) and raw.train.images.dtype == np.uint8
    np.testing.assert_array_equal(raw.train.labels, labels["train"])
    with pytest.raises(ValueError, match="Validation size should be between 0 and 10"):
        input_data.read_data_sets(str(directory), validation_size=11)


def test_next_batch_wraps_into_the_next_epoch(mnist_dir):
    directory, _, _ = mnist_dir
    train = input_data.read_data_sets(str(directory), validation_size=0).train
    batches = [train.next_batch(4, shuffle=False)[1] for _ in range(3)]
    # 10 examples in batches of 4: the third takes the last 2 of epoch 1 and the first 2 of epoch 2
    assert [list(b) for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 0, 1]]
    assert train.epochs_completed == 1
    shuffled = input_data.read_data_sets(str(directory), validation_size=0, seed=5).train
    seen = np.concatenate([shuffled.next_batch(5)[1] for _ in range(2)])
    assert sorted(seen) == list(range(10)) and list(seen) != list(range(10))  # one shuffled epoch


def test_missing_file_is_named_and_nothing_is_downloaded(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"no 'train-images-idx3-ubyte.gz' .*never downloads"):
        input_data.read_data_sets(str(tmp_path))
    fake = input_data.read_data_sets(str(tmp_path), fake_data=True, one_hot=True)
    images, labels = fake.train.next_batch(2, fake_data=True)
    assert len(images) == 2 and len(images[0]) == 784 and labels[0] == [1] + [0] * 9


def test_tf_contrib_learn_reads_the_same_files_as_input_data(mnist_dir):
    """TF1's input_data re-exports tf.contrib.learn's reader: `from tensorflow.contrib.learn.python.learn.datasets.mnist
    import read_data_sets` and `tf.contrib.learn.datasets.mnist.read_data_sets` are the tutorial's reader."""
    directory, images, labels = mnist_dir
    data = read_data_sets(str(directory), one_hot=True, validation_size=3)
    assert tg.contrib.learn.datasets.mnist.read_data_sets is read_data_sets is input_data.read_data_sets
    assert data.train.num_examples == 7 and data.validation.num_examples == 3 and data.test.labels.shape == (4, 10)
    np.testing.assert_allclose(data.test.images, images["t10k"].reshape(4, 784) / 255.0, rtol=1e-6)
