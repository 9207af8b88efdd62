"""save/load_model (ringflow's .npz container, or Keras' HDF5 for a .h5 path when h5py is installed),
save/load_weights (a TF checkpoint) and the JSON architecture: a model loaded in a fresh process predicts bitwise
what the saved one did. The HDF5 layout itself: test_hdf5_format.py."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import trainer as tg
from tests.mpirun import ROOT
from trainer import keras

HAVE_H5PY = importlib.util.find_spec("h5py") is not None

RNG = np.random.RandomState(0)
X = RNG.uniform(-1, 1, (6, 4, 4, 1)).astype(np.float32)
Y = RNG.randint(0, 3, 6)


def trained_model():
    inputs = keras.Input((4, 4, 1))
    x = keras.layers.Conv2D(2, 2, activation="relu")(inputs)
    x = keras.layers.BatchNormalization()(x)
    x = keras.layers.Flatten()(x)
    outputs = keras.layers.Dense(3, activation="softmax", kernel_regularizer=keras.regularizers.l2(0.01))(x)
    model = keras.Model(inputs, outputs)
    model.compile(keras.optimizers.Adam(lr=0.01), "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(X, Y, epochs=2, verbose=0)
    return model


LOAD = """
import sys
import numpy as np
from trainer import keras
model = keras.models.load_model(sys.argv[1])
np.save(sys.argv[2], model.predict(np.load(sys.argv[3])))
history = model.fit(np.load(sys.argv[3]), np.load(sys.argv[4]), epochs=1, verbose=0, shuffle=False)
np.save(sys.argv[5], np.array(history.history["loss"]))
"""


@pytest.mark.parametrize("name", ["model", "model.h5"])  # .h5: HDF5 with h5py, else ringflow's .npz container
def test_a_saved_model_predicts_and_trains_on_bitwise_the_same_in_a_fresh_process(tmp_path, name):
    model = trained_model()
    path = tmp_path / name
    model.save(str(path))
    assert path.read_bytes().startswith(b"\x89HDF") == (HAVE_H5PY and name.endswith(".h5"))
    np.save(tmp_path / "x.npy", X)
    np.save(tmp_path / "y.npy", Y)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + os.environ.get("PYTHONPATH", "").split(
        os.pathsep)), OPENBLAS_NUM_THREADS="1")
    subprocess.run([sys.executable, "-c", LOAD, str(path), str(tmp_path / "p.npy"), str(tmp_path / "x.npy"),
                    str(tmp_path / "y.npy"), str(tmp_path / "loss.npy")], check=True, env=env, timeout=120)
    np.testing.assert_array_equal(np.load(tmp_path / "p.npy"), model.predict(X))
    # the optimizer's state came along: one more epoch gives the same loss here and there
    history = model.fit(X, Y, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_array_equal(np.load(tmp_path / "loss.npy"), history.history["loss"])


def test_load_model_refuses_other_files_saying_why(tmp_path):
    (tmp_path / "real.h5").write_bytes(b"\x89HDF\r\n\x1a\n")
    error, message = (ValueError, "not a readable HDF5 file") if HAVE_H5PY else (ImportError, "h5py is not installed")
    with pytest.raises(error, match=message):
        keras.models.load_model(str(tmp_path / "real.h5"))
    (tmp_path / "text.h5").write_text("hello")
    with pytest.raises(ValueError, match="not a model saved by model.save()"):
        keras.models.load_model(str(tmp_path / "text.h5"))


def test_weights_go_through_a_tf_checkpoint_and_hdf5_needs_h5py(tmp_path):
    model = trained_model()
    expected = model.predict(X)
    model.save_weights(str(tmp_path / "weights"))
    model.set_weights([np.zeros_like(w) for w in model.get_weights()])
    assert not np.array_equal(model.predict(X), expected)
    model.load_weights(str(tmp_path / "weights"))
    np.testing.assert_array_equal(model.predict(X), expected)
    if not HAVE_H5PY:
        with pytest.raises(ImportError, match="h5py"):
            model.save_weights(str(tmp_path / "weights.h5"))


def test_json_round_trip_rebuilds_the_architecture():
    model = trained_model()
    again = keras.models.model_from_json(model.to_json())
    assert [type(layer).__name__ for layer in again.layers] == [type(layer).__name__ for layer in model.layers]
    assert [w.shape for w in again.get_weights()] == [w.shape for w in model.get_weights()]
    again.set_weights(model.get_weights())
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    sequential = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)), keras.layers.Dropout(0.5)])
    rebuilt = keras.models.model_from_json(sequential.to_json())
    assert isinstance(rebuilt, keras.Sequential) and rebuilt.layers[1].rate == 0.5
    deferred = keras.Sequential([keras.layers.Dense(2)])
    deferred.build((None, 5))
    assert keras.models.model_from_json(deferred.to_json()).get_weights()[0].shape == (5, 2)


def test_a_model_trained_by_a_tf_train_optimizer_is_saved_without_it(tmp_path):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(tg.train.GradientDescentOptimizer(0.1), "mse")
    with pytest.warns(UserWarning, match="saved without its optimizer"):
        model.save(str(tmp_path / "m"))
    loaded = keras.models.load_model(str(tmp_path / "m"))
    np.testing.assert_array_equal(loaded.get_weights()[0], model.get_weights()[0])
    assert loaded.optimizer is None


def test_another_instance_of_the_architecture_reads_saved_weights(tmp_path):
    model = trained_model()
    model.save_weights(str(tmp_path / "cp.ckpt"))
    again = trained_model()  # built anew, as a program's create_model() does: its layers are conv2d_1, dense_1, ...
    assert again.layers[1].name != model.layers[1].name
    again.load_weights(str(tmp_path / "cp.ckpt"))
    for got, want in zip(again.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(got, want)


def test_save_format_tf_makes_a_directory_load_model_reads(tmp_path):
    model = trained_model()
    model.save(str(tmp_path / "saved_models" / "1"), save_format="tf")
    loaded = keras.models.load_model(str(tmp_path / "saved_models" / "1"))
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))
    (tmp_path / "other").mkdir()
    with pytest.raises(ValueError, match="a TF SavedModel, which ringflow cannot read"):
        keras.models.load_model(str(tmp_path / "other"))
