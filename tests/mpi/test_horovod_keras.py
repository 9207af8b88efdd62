"""trainer.horovod.keras under mpiexec -n N (any N, 1 included): Keras training averaged over ranks, root's
variables broadcast, metrics averaged, the learning rate warmed up; expected values in closed form from rank
and size, results compared bitwise across ranks through mpi4py."""
import numpy as np
import pytest
from mpi4py import MPI

import trainer as tg
import trainer.horovod.keras as hvd
from trainer import keras
from trainer.keras import backend as K

from tests.mpi.horovod_fixtures import backend  # noqa: F401  (pytest fixture, autouse: once per CPU backend)

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.Get_rank(), WORLD.Get_size()
ROOT = SIZE - 1


@pytest.fixture(autouse=True)
def fresh_keras():
    K.clear_session()
    yield
    K.clear_session()


def same_on_every_rank(array):
    data = np.ascontiguousarray(array).tobytes()
    return all(d == data for d in WORLD.allgather(data))


def rank_data(r, rows=3):
    """Rank r's batch: rows r + 1 .. r + rows of a fixed sequence (unequal across ranks)."""
    x = np.array([[np.sin(i), np.cos(i)] for i in range(r + 1, r + 1 + rows)], dtype="float32")
    return x, (x[:, :1] * 2 - x[:, 1:] + r).astype("float32")


def linear_model():
    return keras.Sequential([keras.layers.Dense(1, use_bias=False, kernel_initializer="zeros", input_shape=(2,))])


def test_numpy_collectives():
    value = np.full((2, 3), float(RANK), dtype="float32")
    np.testing.assert_allclose(hvd.allreduce(value), np.full((2, 3), (SIZE - 1) / 2))
    np.testing.assert_allclose(hvd.allreduce(value, average=False), np.full((2, 3), SIZE * (SIZE - 1) / 2))
    gathered = hvd.allgather(np.full((RANK + 1,), RANK, dtype="int32"))
    np.testing.assert_array_equal(gathered, np.repeat(np.arange(SIZE), np.arange(1, SIZE + 1)))
    np.testing.assert_array_equal(hvd.broadcast(value, ROOT), np.full((2, 3), float(ROOT)))


@pytest.mark.parametrize("make", [lambda: hvd.DistributedOptimizer(keras.optimizers.SGD(lr=0.1)),
                                  lambda: hvd.DistributedOptimizer(keras.optimizers.SGD(lr=0.1),
                                                                   compression=hvd.Compression.none,
                                                                   gradient_predivide_factor=2.0),
                                  lambda: tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1))],
                         ids=["hvd", "hvd-predivide", "tg"])
def test_a_step_applies_the_gradient_averaged_over_ranks(make):
    model = linear_model()
    model.compile(make(), "mse")
    model.train_on_batch(*rank_data(RANK))
    grads = [-2 / len(x) * x.T @ y for x, y in map(rank_data, range(SIZE))]  # the gradient at w = 0
    got = model.get_weights()[0]
    np.testing.assert_allclose(got, -0.1 * np.mean(grads, axis=0), rtol=1e-5, atol=1e-7)
    assert same_on_every_rank(got)


def test_broadcast_callback_starts_every_rank_from_root():
    model = keras.Sequential([keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(RANK),
                                                 input_shape=(2,))])
    model.compile(hvd.DistributedOptimizer(keras.optimizers.SGD(lr=0.0)), "mse")
    model.fit(*rank_data(RANK), epochs=1, verbose=0, callbacks=[hvd.callbacks.BroadcastGlobalVariablesCallback(ROOT)])
    np.testing.assert_array_equal(model.get_weights()[0], np.full((2, 2), float(ROOT)))


def test_metric_average_callback_averages_the_epoch_logs():
    model = linear_model()
    model.compile(hvd.DistributedOptimizer(keras.optimizers.SGD(lr=0.0)), "mse", metrics=["mae"])
    seen = []
    record = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(dict(logs)))
    model.fit(*rank_data(RANK), epochs=1, verbose=0, callbacks=[hvd.callbacks.MetricAverageCallback(), record])
    ys = [rank_data(r)[1] for r in range(SIZE)]  # w = 0: the loss is mean(y**2), the mae mean(|y|)
    assert seen[0]["loss"] == pytest.approx(np.mean([np.mean(y ** 2) for y in ys]), rel=1e-5)
    assert seen[0]["mean_absolute_error"] == pytest.approx(np.mean([np.mean(abs(y)) for y in ys]), rel=1e-5)
    assert same_on_every_rank(np.array([seen[0][k] for k in sorted(seen[0])]))


def test_warmup_ramps_the_rate_from_lr_over_size_to_lr():
    model = linear_model()
    model.compile(hvd.DistributedOptimizer(keras.optimizers.SGD(lr=0.5)), "mse")
    rates = []
    record = keras.callbacks.LambdaCallback(
        on_batch_begin=lambda batch, logs: rates.append(float(K.get_value(model.optimizer.lr))))
    x, y = rank_data(RANK, rows=4)
    model.fit(x, y, batch_size=2, epochs=3, verbose=0, shuffle=False,
              callbacks=[hvd.callbacks.LearningRateWarmupCallback(warmup_epochs=2), record])
    # each batch's rate is the one reached at its end; the last warmup batch reaches lr, which then stays
    epochs = [e + (b + 1) / 2 for e in range(2) for b in range(2)]
    expected = [0.5 / SIZE * (e * (SIZE - 1) / 2 + 1) for e in epochs] + [0.5] * 2
    np.testing.assert_allclose(rates, expected, rtol=1e-6)


def test_load_model_trains_averaged(tmp_path_factory):
    path = WORLD.bcast(str(tmp_path_factory.mktemp("hvd_keras") / "model.h5") if RANK == 0 else None)
    if RANK == 0:
        model = linear_model()
        model.compile(keras.optimizers.SGD(lr=0.1), "mse")
        model.save(path)
        K.clear_session()  # every rank then builds the loaded model alike, named dense/kernel
    WORLD.Barrier()
    loaded = hvd.load_model(path)
    loaded.train_on_batch(*rank_data(RANK))
    grads = [-2 / len(x) * x.T @ y for x, y in map(rank_data, range(SIZE))]
    np.testing.assert_allclose(loaded.get_weights()[0], -0.1 * np.mean(grads, axis=0), rtol=1e-5, atol=1e-7)
    WORLD.Barrier()


def test_root_loaded_from_a_file_and_ranks_built_in_code_broadcast_alike(tmp_path_factory):
    """Root takes its model and optimizer state from hvd.load_model, the other ranks build theirs in code (their
    optimizer made first, its slots not yet there): the broadcast callback still pairs every variable by name, so
    fit runs and every rank ends with the same weights and slots."""
    path = WORLD.bcast(str(tmp_path_factory.mktemp("hvd_keras_mixed") / "model.h5") if RANK == 0 else None)

    def built(distributed=True):
        optimizer = keras.optimizers.SGD(lr=0.1, momentum=0.9)
        model = linear_model()
        model.compile(hvd.DistributedOptimizer(optimizer) if distributed else optimizer, "mse")
        return model
    if RANK == 0:  # one rank alone writes the file: a plain optimizer, no collective
        first = built(distributed=False)
        first.train_on_batch(*rank_data(0))
        first.save(path)
    K.clear_session()
    WORLD.Barrier()
    model = hvd.load_model(path) if RANK == ROOT else built()
    assert len(model.optimizer.weights) == (2 if RANK == ROOT else 0)  # iterations and the kernel's momentum
    model.fit(*rank_data(RANK), epochs=2, verbose=0, callbacks=[hvd.callbacks.BroadcastGlobalVariablesCallback(ROOT)])
    assert all(same_on_every_rank(w) for w in model.get_weights() + model.optimizer.get_weights())
    assert len(model.optimizer.weights) == 2
    WORLD.Barrier()


class AddsTheGradient(keras.optimizers.Optimizer):
    """A user's OptimizerV2 written on TF's override points: var += gradient."""

    def _create_slots(self, var_list):
        pass

    def _resource_apply_dense(self, grad, var, apply_state=None):
        return var.assign_add(grad)


def test_backward_passes_per_step_applies_every_kth_pass_the_mean_over_passes_and_ranks():
    passes = 3
    opt = hvd.DistributedOptimizer(AddsTheGradient("adds"), backward_passes_per_step=passes,
                                   average_aggregated_gradients=True)
    w = tg.Variable([0.0])
    step = opt.apply_gradients([(opt._allreduce([tg.constant([float(RANK)])], [w])[0], w)])
    session = K.get_session()
    for i in range(7):
        session.run(step)
        assert session.run(opt.iterations) == i + 1  # every pass counts
        assert session.run(w)[0] == pytest.approx((i + 1) // passes * (SIZE - 1) / 2)


def test_elastic_keras_state_syncs_rank_0s_weights_and_attributes():
    model = keras.Sequential([keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(RANK + 1),
                                                 input_shape=(2,))])
    state = hvd.elastic.KerasState(model, keras.optimizers.Adam(), batch=20 + RANK, epoch=10 + RANK)
    state.sync()
    np.testing.assert_array_equal(model.get_weights()[0], np.ones((2, 2)))
    assert (state.batch, state.epoch) == (20, 10)
    model.set_weights([np.zeros((2, 2)), np.zeros(2)])
    state.batch = 21
    state.restore()  # back to what sync saved
    np.testing.assert_array_equal(model.get_weights()[0], np.ones((2, 2)))
    assert state.batch == 20


def test_augmented_generators_with_averaged_metrics_keep_ranks_in_step():
    """keras_mnist_advanced's idiom: fit_generator on ImageDataGenerator flows (each rank its own seed), validation
    from a generator, metrics averaged before ReduceLROnPlateau decides: every rank ends with the same weights and
    learning rate."""
    rng = np.random.RandomState(RANK)
    x = rng.uniform(0, 1, (32, 6, 6, 1)).astype("float32")
    y = keras.utils.to_categorical((x.mean(axis=(1, 2, 3)) > 0.5).astype("int32"), 2)
    model = keras.Sequential([keras.layers.Conv2D(2, 3, activation="relu", input_shape=(6, 6, 1)),
                              keras.layers.Flatten(), keras.layers.Dense(2, activation="softmax")])
    model.compile(hvd.DistributedOptimizer(keras.optimizers.Adadelta(1.0 * hvd.size())), "categorical_crossentropy",
                  metrics=["accuracy"])
    image = keras.preprocessing.image
    train = image.ImageDataGenerator(rotation_range=8, width_shift_range=0.08, shear_range=0.3, height_shift_range=0.08,
                                     zoom_range=0.08)
    callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(0), hvd.callbacks.MetricAverageCallback(),
                 hvd.callbacks.LRWarmupCallback(warmup_epochs=1),
                 keras.callbacks.ReduceLROnPlateau(patience=1, factor=0.5, min_delta=10.0)]  # every epoch a plateau
    history = model.fit_generator(train.flow(x, y, batch_size=8, seed=RANK), steps_per_epoch=4 // SIZE + 1,
                                  callbacks=callbacks, epochs=3, verbose=0,
                                  validation_data=image.ImageDataGenerator().flow(x, y, batch_size=8),
                                  validation_steps=2)
    assert same_on_every_rank(np.concatenate([w.ravel() for w in model.get_weights()]))
    assert same_on_every_rank(np.array(history.history["val_loss"] + history.history["lr"]))
    assert float(K.get_value(model.optimizer.lr)) < 1.0 * SIZE  # ReduceLROnPlateau acted, alike on every rank
