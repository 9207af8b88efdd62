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


def test_the_distributed_optimizer_is_a_subclass_named_as_horovods_with_the_same_config():
    opt = keras.optimizers.Adam(lr=0.01, beta_1=0.8)
    dist = hvd.DistributedOptimizer(opt, compression=hvd.Compression.fp16)
    assert isinstance(dist, keras.optimizers.Adam) and dist is not opt
    assert (type(dist).__name__, type(dist).__module__) == ("Adam", "horovod._keras")
    assert dist.get_config() == opt.get_config()
    assert dist.from_config(dist.get_config()).get_config() == type(dist).from_config(opt.get_config()).get_config()
    assert not tg.global_variables() and dist.weights == []  # made lazily, at the first step, as any optimizer


def test_apply_gradients_without_the_averaged_gradients_says_what_to_do():
    w = keras.backend.variable(np.ones(2, np.float32))
    with pytest.raises(ValueError, match="without get_gradients.*build the step with get_updates"):
        hvd.DistributedOptimizer(keras.optimizers.SGD()).apply_gradients([(tg.constant([1.0, 1.0]), w)])


def test_backward_passes_per_step_applies_the_mean_of_k_passes_every_kth_and_counts_every_pass():
    class AddsTheGradient(keras.optimizers.Optimizer):  # a user's OptimizerV2 on TF's override points
        def _create_slots(self, var_list):
            pass

        def _resource_apply_dense(self, grad, var, apply_state=None):
            return var.assign_add(grad)

    opt = hvd.DistributedOptimizer(AddsTheGradient("adds"), backward_passes_per_step=3,
                                   average_aggregated_gradients=True)
    session = keras.backend.get_session()
    w = tg.Variable([0.0])
    session.run(w.initializer)
    calls = tg.Variable(0.0)
    session.run(calls.initializer)
    grad = calls.assign_add(1.0)  # pass i's gradient is i
    step = opt.apply_gradients([(opt._allreduce([tg.reshape(grad, [1])], [w])[0], w)])
    keras.backend.get_session()  # initializes the optimizer's variables, as Keras does before it runs a step
    seen = []
    for _ in range(7):
        session.run(step)
        seen.append((int(session.run(opt.iterations)), float(session.run(w)[0])))
    assert seen == [(1, 0.0), (2, 0.0), (3, 2.0), (4, 2.0), (5, 2.0), (6, 7.0), (7, 7.0)]


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
    assert isinstance(loaded.optimizer, keras.optimizers.Adam)
    assert type(loaded.optimizer).__module__ == "horovod._keras"
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
    assert isinstance(loaded.optimizer, OwnRMSprop)
    assert (type(loaded.optimizer).__name__, type(loaded.optimizer).__module__) == ("OwnRMSprop", "horovod._keras")
    restored = loaded.optimizer.get_weights()
    assert len(restored) == len(slots) > 0 and all(np.array_equal(a, b) for a, b in zip(restored, slots))


def test_load_model_calls_a_factory_in_custom_objects_with_the_saved_config(tmp_path):
    x, y = data()
    model = linear_model()
    model.compile(hvd.DistributedOptimizer(OwnRMSprop(lr=0.01)), "mse")
    model.train_on_batch(x, y)
    path = str(tmp_path / "factory.h5")
    model.save(path)
    keras.backend.clear_session()
    made = []
    loaded = hvd.load_model(path, custom_objects={
        "OwnRMSprop": lambda **config: made.append(config) or hvd.DistributedOptimizer(OwnRMSprop(**config))})
    assert made[0]["learning_rate"] == pytest.approx(0.01) and type(loaded.optimizer).__name__ == "OwnRMSprop"
    assert keras.backend.get_value(loaded.optimizer.lr) == pytest.approx(0.01)
