"""tf.keras.datasets.mnist and fashion_mnist read Keras' cache files in a temporary HOME (or an explicit path),
never download, and say where to put a missing file; the datasets ringflow lacks are refused."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.program.test_datasets import write_idx

RNG = np.random.default_rng(5)


def _arrays(n_train=6, n_test=3):
    return {"x_train": RNG.integers(0, 256, (n_train, 28, 28)).astype(np.uint8),
            "y_train": RNG.integers(0, 10, n_train).astype(np.uint8),
            "x_test": RNG.integers(0, 256, (n_test, 28, 28)).astype(np.uint8),
            "y_test": RNG.integers(0, 10, n_test).astype(np.uint8)}


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def _check(loaded, arrays):
    (x_train, y_train), (x_test, y_test) = loaded
    for got, name in ((x_train, "x_train"), (y_train, "y_train"), (x_test, "x_test"), (y_test, "y_test")):
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, arrays[name])


def test_mnist_reads_the_keras_cache_and_explicit_paths(home, tmp_path):
    arrays = _arrays()
    (home / ".keras" / "datasets").mkdir(parents=True)
    np.savez(home / ".keras" / "datasets" / "mnist.npz", **arrays)
    _check(tg.keras.datasets.mnist.load_data(), arrays)
    other = _arrays(4, 2)
    np.savez(tmp_path / "elsewhere.npz", **other)
    _check(tg.keras.datasets.mnist.load_data(path=str(tmp_path / "elsewhere.npz")), other)


def test_missing_file_names_where_to_put_it_and_downloads_nothing(home):
    with pytest.raises(FileNotFoundError) as info:
        tg.keras.datasets.mnist.load_data()
    message = str(info.value)
    assert str(home / ".keras" / "datasets" / "mnist.npz") in message and "never downloads" in message
    assert "tf-keras-datasets/mnist.npz" in message
    assert not (home / ".keras").exists()


def test_an_npz_without_the_arrays_says_which_are_missing(home):
    (home / ".keras" / "datasets").mkdir(parents=True)
    np.savez(home / ".keras" / "datasets" / "mnist.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match=r"no array\(s\) \['x_train', 'y_train', 'x_test', 'y_test'\]"):
        tg.keras.datasets.mnist.load_data()


def test_fashion_mnist_reads_the_four_gzipped_idx_files(home):
    arrays = _arrays()
    folder = home / ".keras" / "datasets" / "fashion-mnist"
    folder.mkdir(parents=True)
    for prefix, part in (("train", "train"), ("t10k", "test")):
        write_idx(folder / f"{prefix}-images-idx3-ubyte.gz", arrays[f"x_{part}"], compress=True)
        write_idx(folder / f"{prefix}-labels-idx1-ubyte.gz", arrays[f"y_{part}"], compress=True)
    _check(tg.keras.datasets.fashion_mnist.load_data(), arrays)
    (folder / "t10k-labels-idx1-ubyte.gz").unlink()
    with pytest.raises(FileNotFoundError, match="fashion-mnist/t10k-labels-idx1-ubyte.gz"):
        tg.keras.datasets.fashion_mnist.load_data()


def test_the_datasets_and_keras_modules_ringflow_lacks_are_refused():
    with pytest.raises(AttributeError, match=r"tf\.keras\.estimator is not available in ringflow .*tf\.layers"):
        tg.keras.estimator
    with pytest.raises(AttributeError, match=r"tf\.keras\.datasets\.cifar10 is not available"):
        tg.keras.datasets.cifar10
    assert hasattr(tg.keras, "layers") and not hasattr(tg.keras, "estimator")
