import gzip
import struct

import numpy as np
import pytest

from trainer.program.datasets import specs as datasets


def test_synthetic_linear_is_the_seeds_problem():
    d = datasets.load("synthetic-linear")
    assert d.task == "regression" and d.x.shape == (100, 1) and d.y.shape == (100,)
    np.testing.assert_allclose(d.x[:, 0], np.linspace(-1, 1, 100))
    slope, intercept = np.polyfit(d.x[:, 0], d.y, 1)
    assert abs(slope - 2) < 0.2 and abs(intercept) < 0.1
    assert 0.2 < np.std(d.y - 2 * d.x[:, 0]) < 0.4


def test_synthetic_classes_are_learnable():
    d = datasets.load("synthetic-classes")
    assert d.task == "classes" and d.y.dtype == np.int64 and set(np.unique(d.y)) == set(range(d.num_outputs))
    centroids = np.stack([d.x[d.y == c].mean(0) for c in range(d.num_outputs)])
    nearest = np.argmin(((d.x[:, None] - centroids) ** 2).sum(-1), axis=1)
    assert (nearest == d.y).mean() > 0.9


def test_synthetic_multilabel():
    d = datasets.load("synthetic-multilabel")
    assert d.task == "multilabel" and d.y.shape == (len(d.x), d.num_outputs)
    assert set(np.unique(d.y)) == {0.0, 1.0}
    assert len(np.unique(d.y.sum(1))) > 2  # samples carry different numbers of labels


def test_synthetic_data_is_the_same_every_time():
    a, b = datasets.load("synthetic-classes"), datasets.load("synthetic-classes")
    np.testing.assert_array_equal(a.x, b.x)


def write_idx(path, array, compress=False):
    codes = {np.uint8: 0x08, np.int32: 0x0C}
    header = bytes([0, 0, codes[array.dtype.type], array.ndim]) + struct.pack(f">{array.ndim}i", *array.shape)
    raw = header + array.astype(array.dtype.newbyteorder(">")).tobytes()
    (gzip.open if compress else open)(path, "wb").write(raw)


@pytest.mark.parametrize("compress", [False, True])
def test_mnist_reads_idx_files(tmp_path, compress):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (7, 28, 28)).astype(np.uint8)
    labels = rng.integers(0, 10, 7).astype(np.uint8)
    suffix = ".gz" if compress else ""
    write_idx(tmp_path / f"train-images-idx3-ubyte{suffix}", images, compress)
    write_idx(tmp_path / f"train-labels-idx1-ubyte{suffix}", labels, compress)
    d = datasets.load(f"mnist:{tmp_path}")
    np.testing.assert_allclose(d.x, images / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(d.y, labels)
    assert d.task == "classes" and d.num_outputs == 10


def test_mnist_missing_file_says_where_to_put_it(tmp_path):
    with pytest.raises(FileNotFoundError) as err:
        datasets.load(f"mnist:{tmp_path}")
    assert "train-images-idx3-ubyte" in str(err.value) and str(tmp_path) in str(err.value)
    assert "downloaded" in str(err.value)


def test_mnist_truncated_file(tmp_path):
    write_idx(tmp_path / "train-images-idx3-ubyte", np.zeros((3, 28, 28), np.uint8))
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(3, np.uint8))
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(ValueError, match="truncated"):
        datasets.load(f"mnist:{tmp_path}")


@pytest.mark.parametrize("y,task,outputs", [
    (np.array([0, 2, 1, 2]), "classes", 3),
    (np.array([[0, 1], [1, 1], [0, 0], [1, 0]], np.float32), "multilabel", 2),
    (np.array([0.5, 1.5, -2.0, 3.0]), "regression", 1),
])
def test_npz_tells_the_task_from_y(tmp_path, y, task, outputs):
    np.savez(tmp_path / "d.npz", x=np.arange(8.0).reshape(4, 2), y=y)
    d = datasets.load(f"npz:{tmp_path / 'd.npz'}")
    assert (d.task, d.num_outputs, d.x.shape) == (task, outputs, (4, 2))


def test_npz_errors(tmp_path):
    np.savez(tmp_path / "a.npz", x=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="'y'"):
        datasets.load(f"npz:{tmp_path / 'a.npz'}")
    np.savez(tmp_path / "b.npz", x=np.zeros((3, 2)), y=np.array([{}, {}, {}], dtype=object))
    with pytest.raises(ValueError):  # object arrays would need pickle: refused
        datasets.load(f"npz:{tmp_path / 'b.npz'}")


@pytest.mark.parametrize("spec", ["nope", "mnist-ish", "", "synthetic-linear:3"])
def test_bad_spec_lists_the_known_ones(spec):
    with pytest.raises(ValueError) as err:
        datasets.load(spec)
    if not spec.startswith("synthetic-linear"):
        for name in ("synthetic-linear", "synthetic-classes", "synthetic-multilabel", "mnist:DIR", "npz:FILE"):
            assert name in str(err.value)
