"""Keras' HDF5 layout (needs h5py; skipped without it): model.save/load_model and save/load_weights write and read
what Keras does (attributes, layer groups, weight names), and a weights file real Keras wrote
(fixtures/keras_weights.h5, fixtures/record_hdf5.py) loads into the same architecture built here."""
import json
import pathlib

import numpy as np
import pytest

from trainer import keras

h5py = pytest.importorskip("h5py")
KERAS_WEIGHTS = pathlib.Path(__file__).parent.parent / "fixtures" / "keras_weights.h5"
X = np.random.RandomState(0).uniform(-1, 1, (5, 4)).astype("float32")


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def two_dense(compile=True):
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(4,)), keras.layers.Dense(2)])
    if compile:
        model.compile(keras.optimizers.Adam(lr=0.01), "mse", metrics=["mae"])
    return model


def test_model_file_has_keras_layout(tmp_path):
    model = two_dense()
    model.fit(X, X[:, :2], epochs=2, verbose=0)
    model.save(str(tmp_path / "m.h5"))
    expected = model.predict(X)
    with h5py.File(tmp_path / "m.h5", "r") as f:
        assert text(f.attrs["keras_version"]) == "2.2.4-tf" and text(f.attrs["backend"]) == "tensorflow"
        assert json.loads(f.attrs["model_config"])["class_name"] == "Sequential"
        training = json.loads(f.attrs["training_config"])
        assert training["optimizer_config"]["class_name"] == "Adam" and training["loss"] == "mse"
        weights = f["model_weights"]
        assert [text(n) for n in weights.attrs["layer_names"]] == ["dense", "dense_1"]
        assert [text(n) for n in weights["dense"].attrs["weight_names"]] == ["dense/kernel:0", "dense/bias:0"]
        np.testing.assert_array_equal(weights["dense_1"]["dense_1/kernel:0"], model.get_weights()[2])
        assert len(f["optimizer_weights"].attrs["weight_names"]) == 1 + 2 * 4  # iterations, then m and v
    keras.backend.clear_session()
    loaded = keras.models.load_model(str(tmp_path / "m.h5"))
    np.testing.assert_array_equal(loaded.predict(X), expected)
    assert loaded.metrics_names == ["loss", "mean_absolute_error"]


def test_weights_round_trip_in_order_and_by_name(tmp_path):
    model = two_dense(compile=False)
    expected = model.get_weights()
    model.save_weights(str(tmp_path / "w.h5"))
    model.set_weights([np.zeros_like(w) for w in expected])
    model.load_weights(str(tmp_path / "w.h5"))
    for got, want in zip(model.get_weights(), expected):
        np.testing.assert_array_equal(got, want)
    other = keras.Sequential([keras.layers.Dense(3, input_shape=(4,), name="dense"),
                              keras.layers.Dense(5, name="extra")])
    other.load_weights(str(tmp_path / "w.h5"), by_name=True)  # only the layer named alike takes weights
    np.testing.assert_array_equal(other.get_weights()[0], expected[0])
    wider = keras.Sequential([keras.layers.Dense(3, input_shape=(4,)), keras.layers.Dense(3)])
    with pytest.raises(ValueError, match="has shape"):
        wider.load_weights(str(tmp_path / "w.h5"))
    with pytest.raises(ValueError, match="containing 2 layers into a model with 1 layers"):
        keras.Sequential([keras.layers.Dense(3, input_shape=(4,))]).load_weights(str(tmp_path / "w.h5"))


def test_weights_written_by_real_keras_load():
    model = two_dense(compile=False)
    model.load_weights(str(KERAS_WEIGHTS))
    for w in model.get_weights():
        np.testing.assert_allclose(w, np.arange(w.size, dtype="float32").reshape(w.shape) / 10)

