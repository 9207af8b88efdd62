"""hvd.keras.DistributedOptimizer and load_model in one process: the wrapped optimizer keeps its class, config and
numbers (averaging over one rank is the identity). The average over ranks is tested in
tests/mpi/test_horovod_keras.py."""
import numpy as np
import pytest

import trainer as tg
import trainer.horovod.keras as hvd
from trainer import keras


def linear_model():
    model = keras.Sequential([keras.layers.Dense(1, use_bias=False, kernel_initializer="ones", input_shape=(2,))])
    return model


def data():
    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], dtype="float32")
    return x, np.array([[1.0], [0.0], [2.0]], dtype="float32")


def test_the_distributed_optimizer_keeps_class_and_config():
    opt = keras.optimizers.Adam(lr=0.01, beta_1=0.8)
    dist = hvd.DistributedOptimizer(opt, compression=hvd.Compression.fp16)
    assert type(dist) is keras.optimizers.Adam and dist is not opt
    assert dist.get_config() == opt.get_config()


def test_a_step_on_one_rank_is_the_wrapped_optimizers_step():
    x, y = data()
    model = linear_model()
    model.compile(hvd.DistributedOptimizer(keras.optimizers.SGD(lr=0.1)), "mse")
    model.train_on_batch(x, y)
    grad = 2 / len(x) * x.T @ (x @ np.ones((2, 1)) - y)
    np.testing.assert_allclose(model.get_weights()[0], np.ones((2, 1)) - 0.1 * grad, rtol=1e-6)


def test_a_tf_train_optimizer_is_refused_with_what_to_use():
    with pytest.raises(ValueError, match="horovod.tensorflow's DistributedOptimizer"):
        hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1))


def test_tg_distributed_optimizer_compiles_and_trains():
    x, y = data()
    model = linear_model()
    model.compile(tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1)), "mse")
    model.train_on_batch(x, y)
    grad = 2 / len(x) * x.T @ (x @ np.ones((2, 1)) - y)
    np.testing.assert_allclose(model.get_weights()[0], np.ones((2, 1)) - 0.1 * grad, rtol=1e-6)


def test_load_model_restores_weights_and_optimizer_state(tmp_path):
    x, y = data()
    model = linear_model()
    model.compile(hvd.DistributedOptimizer(keras.optimizers.Adam(lr=0.05)), "mse")
    model.fit(x, y, epochs=3, verbose=0)
    path = str(tmp_path / "model.h5")
    model.save(path)
    model.train_on_batch(x, y)
    expected = model.get_weights()[0]
    keras.backend.clear_session()
    loaded = hvd.load_model(path)
    assert type(loaded.optimizer) is keras.optimizers.Adam
    loaded.train_on_batch(x, y)  # Adam's moments and step count came back: the same next step
    np.testing.assert_allclose(loaded.get_weights()[0], expected, rtol=1e-6)


class OwnRMSprop(keras.optimizers.RMSprop):
    """An optimizer class of the user's own, which a saved file names and load_model must be told of."""


def test_load_model_takes_the_users_optimizer_classes_in_horovods_argument_order(tmp_path):
    x, y = data()
    model = linear_model()
    model.compile(hvd.DistributedOptimizer(OwnRMSprop(lr=0.01)), "mse")
    model.train_on_batch(x, y)
    path = str(tmp_path / "own.h5")
    model.save(path)
    slots = model.optimizer.get_weights()
    keras.backend.clear_session()
    loaded = hvd.load_model(path, [OwnRMSprop])  # Horovod's order: filepath, custom_optimizers, custom_objects
    assert type(loaded.optimizer) is OwnRMSprop and loaded.optimizer.gradient_aggregator is not None
    restored = loaded.optimizer.get_weights()
    assert len(restored) == len(slots) > 0 and all(np.array_equal(a, b) for a, b in zip(restored, slots))
