"""tf.keras.datasets read Keras' cache files in a temporary HOME (or an explicit path), never download, and say
where to put a missing file; the datasets ringflow lacks are refused. imdb, reuters and boston_housing are compared
with real Keras' results on the same made-up files (fixtures/datasets_keras.json, fixtures/record_datasets.py)."""
import json
import pathlib
import pickle

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
    with pytest.raises(AttributeError, match=r"tf\.keras\.saving is not available in ringflow .*tf\.layers"):
        tg.keras.saving  # TF 2's module
    with pytest.raises(AttributeError, match=r"tf\.keras\.datasets\.svhn is not available"):
        tg.keras.datasets.svhn
    assert hasattr(tg.keras, "layers") and not hasattr(tg.keras, "saving")


RECORDED = json.loads((pathlib.Path(__file__).parent / "fixtures" / "datasets_keras.json").read_text())


def _write_recorded_inputs(home):
    cache = home / ".keras" / "datasets"
    cache.mkdir(parents=True)
    for name, arrays in RECORDED["inputs"].items():
        np.savez(cache / f"{name}.npz", **{k: _object_array(v) if isinstance(v[0], list) and name != "boston_housing"
                                          else np.array(v) for k, v in arrays.items()})


def _object_array(lists):
    out = np.empty(len(lists), dtype=object)
    out[:] = lists
    return out


def _as_lists(loaded):
    return [[[list(map(int, x)) if isinstance(x, list) else x for x in part.tolist()] for part in pair]
            for pair in loaded]


@pytest.mark.parametrize("name", ["imdb", "reuters"])
def test_word_sequence_datasets_match_keras(home, name):
    _write_recorded_inputs(home)
    for call, expected in zip(RECORDED["calls"], RECORDED["outputs"][name]):
        assert _as_lists(getattr(tg.keras.datasets, name).load_data(**call)) == expected, call


def test_boston_housing_matches_keras(home):
    _write_recorded_inputs(home)
    for call, expected in zip(({}, {"seed": 3, "test_split": 0.5}), RECORDED["outputs"]["boston_housing"]):
        loaded = tg.keras.datasets.boston_housing.load_data(**call)
        for got, want in zip([a for pair in loaded for a in pair], [a for pair in expected for a in pair]):
            np.testing.assert_allclose(got, want)


def test_imdb_maxlen_that_keeps_nothing_says_so(home):
    _write_recorded_inputs(home)
    with pytest.raises(ValueError, match="no sequence was kept. Increase maxlen"):
        tg.keras.datasets.imdb.load_data(maxlen=2)


def test_word_index_reads_keras_json(home):
    (home / ".keras" / "datasets").mkdir(parents=True)
    (home / ".keras" / "datasets" / "reuters_word_index.json").write_text('{"the": 1, "of": 2}')
    assert tg.keras.datasets.reuters.get_word_index() == {"the": 1, "of": 2}
    with pytest.raises(FileNotFoundError, match="imdb_word_index.json"):
        tg.keras.datasets.imdb.get_word_index()


def _write_cifar(folder, files, label_key, n=3):
    """CIFAR pickles as Keras unpacks them: bytes keys, rows of 3 * 32 * 32 uint8; pixel value = file, row, channel."""
    folder.mkdir(parents=True)
    for f, name in enumerate(files):
        data = np.zeros((n, 3, 32, 32), np.uint8) + np.arange(3, dtype=np.uint8)[None, :, None, None] \
            + (10 * f + 3 * np.arange(n, dtype=np.uint8))[:, None, None, None]
        batch = {b"data": data.reshape(n, -1), label_key.encode(): [10 * f + i for i in range(n)]}
        (folder / name).write_bytes(pickle.dumps(batch))


def test_cifar10_stacks_five_batches_channels_last(home):
    _write_cifar(home / ".keras" / "datasets" / "cifar-10-batches-py",
                 [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"], "labels")
    (x_train, y_train), (x_test, y_test) = tg.keras.datasets.cifar10.load_data()
    assert x_train.shape == (15, 32, 32, 3) and y_train.shape == (15, 1) and x_test.shape == (3, 32, 32, 3)
    np.testing.assert_array_equal(x_train[4, 7, 9], [13, 14, 15])  # file 1, row 1: 10 + 3, channels 0, 1, 2
    np.testing.assert_array_equal(y_test[:, 0], [50, 51, 52])


def test_cifar100_picks_fine_or_coarse_labels(home):
    folder = home / ".keras" / "datasets" / "cifar-100-python"
    _write_cifar(folder, ["train", "test"], "fine_labels")
    for name in ("train", "test"):
        batch = pickle.loads((folder / name).read_bytes())
        batch[b"coarse_labels"] = [0] * 3
        (folder / name).write_bytes(pickle.dumps(batch))
    (_, y_fine), _ = tg.keras.datasets.cifar100.load_data()
    (_, y_coarse), _ = tg.keras.datasets.cifar100.load_data(label_mode="coarse")
    assert y_fine[:, 0].tolist() == [0, 1, 2] and y_coarse[:, 0].tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="label_mode"):
        tg.keras.datasets.cifar100.load_data(label_mode="medium")
    with pytest.raises(FileNotFoundError, match="cifar-10-batches-py/data_batch_1"):
        tg.keras.datasets.cifar10.load_data()
