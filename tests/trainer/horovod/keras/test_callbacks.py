"""hvd.keras.callbacks in one process: the learning-rate schedules batch by batch, metric averaging over one rank.
Warmup and averaging over several ranks: tests/mpi/test_horovod_keras.py."""
import numpy as np
import pytest

import trainer.horovod.keras as hvd
from trainer import keras
from trainer.keras import backend as K


def compiled(lr=1.0):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(keras.optimizers.SGD(lr=lr), "mse")
    return model


class RecordLR(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.rates = []

    def on_batch_begin(self, batch, logs=None):
        self.rates.append(float(K.get_value(self.model.optimizer.lr)))


def fit(model, callbacks, epochs=3, samples=8, batch_size=2):
    x, y = np.ones((samples, 2), "float32"), np.zeros((samples, 1), "float32")
    recorder = RecordLR()
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0, shuffle=False,
                        callbacks=callbacks + [recorder])
    return recorder.rates, history.history


def test_staircase_schedule_sets_the_rate_at_each_epochs_first_batch():
    schedule = hvd.callbacks.LearningRateScheduleCallback(lambda epoch: 0.1 ** epoch, start_epoch=1, end_epoch=3)
    rates, history = fit(compiled(), [schedule], epochs=4)
    np.testing.assert_allclose(rates, [1.0] * 4 + [0.1] * 4 + [0.01] * 8, rtol=1e-6)
    np.testing.assert_allclose(history["lr"], [1.0, 0.1, 0.01, 0.01], rtol=1e-6)


def test_smooth_schedule_uses_fractional_epochs():
    schedule = hvd.callbacks.LearningRateScheduleCallback(lambda epoch: 1.0 + epoch, staircase=False)
    rates, _ = fit(compiled(), [schedule], epochs=2)  # 4 steps per epoch, found from fit's parameters
    np.testing.assert_allclose(rates, [1.0 + e + b / 4 for e in range(2) for b in range(4)], rtol=1e-6)


def test_a_constant_multiplier_scales_the_initial_rate():
    rates, _ = fit(compiled(lr=0.5), [hvd.callbacks.LRScheduleCallback(3.0)], epochs=1)
    np.testing.assert_allclose(rates, [1.5] * 4, rtol=1e-6)


def test_warmup_on_one_rank_keeps_the_rate_and_says_when_done(capsys):
    warmup = hvd.callbacks.LearningRateWarmupCallback(warmup_epochs=2, verbose=1)
    rates, _ = fit(compiled(lr=0.5), [warmup], epochs=3)
    np.testing.assert_allclose(rates, [0.5] * 12, rtol=1e-6)
    assert "Epoch 2: finished gradual learning rate warmup to 0.5." in capsys.readouterr().out


def test_metric_average_over_one_rank_keeps_the_logs():
    model = compiled(lr=0.0)
    seen = []
    record = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(dict(logs)))
    _, history = fit(model, [hvd.callbacks.MetricAverageCallback(), record], epochs=1)
    assert seen[0]["loss"] == pytest.approx(history["loss"][0])


def test_momentum_correction_scales_the_momentum_for_the_batch_that_changes_the_rate():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(keras.optimizers.SGD(lr=1.0, momentum=0.5), "mse")
    seen = []
    record = keras.callbacks.LambdaCallback(
        on_batch_begin=lambda batch, logs: seen.append(float(K.get_value(model.optimizer.momentum))))
    schedule = hvd.callbacks.LearningRateScheduleCallback(lambda epoch: 0.5 ** epoch, start_epoch=1)
    fit(model, [schedule, record], epochs=2, samples=4)  # 2 batches an epoch; epoch 1 halves the rate
    np.testing.assert_allclose(seen, [0.5, 0.5, 0.25, 0.5], rtol=1e-6)
    assert float(K.get_value(model.optimizer.momentum)) == 0.5
