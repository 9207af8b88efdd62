"""keras.utils.HDF5Matrix: rows of an HDF5 dataset indexed like numpy, and a model fitted on them."""
import numpy as np
import pytest

from trainer import keras

h5py = pytest.importorskip("h5py", reason="HDF5Matrix reads HDF5 files through h5py, as Keras does")


def test_hdf5_matrix_reads_its_rows_and_trains_a_model(tmp_path):
    path = str(tmp_path / "data.h5")
    x = np.arange(40, dtype=np.float32).reshape(10, 4)
    with h5py.File(path, "w") as f:
        f["x"], f["y"] = x, x.sum(1, keepdims=True)
    rows = keras.utils.HDF5Matrix(path, "x", start=2, end=8, normalizer=lambda a: a / 10.0)
    assert len(rows) == 6 and rows.shape == (6, 4) and rows.ndim == 2 and rows.size == 24
    np.testing.assert_array_equal(rows[0], x[2] / 10)
    np.testing.assert_array_equal(rows[1:3], x[3:5] / 10)
    np.testing.assert_array_equal(rows[[0, 5]], x[[2, 7]] / 10)
    with pytest.raises(IndexError):
        rows[6]
    targets = keras.utils.HDF5Matrix(path, "y", start=2, end=8)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(4,))])
    model.compile("sgd", "mse")
    history = model.fit(rows, targets, batch_size=3, epochs=1, shuffle=False, verbose=0)
    assert len(history.history["loss"]) == 1
