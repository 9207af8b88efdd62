"""Keras callbacks as fit calls them: checkpoints, early stopping, learning-rate changes, CSV and TensorBoard logs."""
import csv

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

X = np.linspace(-1, 1, 16, dtype=np.float32).reshape(-1, 1)
Y = 3 * X


def model(lr=0.1):
    m = keras.Sequential([keras.layers.Dense(1, input_shape=(1,), kernel_initializer="zeros")])
    m.compile(keras.optimizers.SGD(lr=lr), "mse")
    return m


class Recorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def on_train_begin(self, logs=None):
        self.calls.append(("train_begin", self.params["epochs"], self.params["samples"]))

    def on_epoch_begin(self, epoch, logs=None):
        self.calls.append(("epoch_begin", epoch))

    def on_batch_end(self, batch, logs=None):
        self.calls.append(("batch_end", batch, logs["size"], round(logs["loss"], 6)))

    def on_epoch_end(self, epoch, logs=None):
        self.calls.append(("epoch_end", epoch, sorted(logs)))


def test_hooks_run_in_keras_order_with_batch_and_epoch_logs():
    recorder = Recorder()
    history = model().fit(X, Y, batch_size=10, epochs=3, initial_epoch=1, callbacks=[recorder], verbose=0,
                          validation_data=(X, Y), shuffle=False)
    assert [c[0] for c in recorder.calls] == ["train_begin", "epoch_begin", "batch_end", "batch_end", "epoch_end",
                                              "epoch_begin", "batch_end", "batch_end", "epoch_end"]
    assert recorder.calls[0] == ("train_begin", 3, 16) and recorder.calls[2][2] == 10 and recorder.calls[3][2] == 6
    assert recorder.calls[4] == ("epoch_end", 1, ["loss", "val_loss"]) and history.epoch == [1, 2]


def test_model_checkpoint_formats_the_path_and_keeps_the_best(tmp_path):
    path = str(tmp_path / "w-{epoch:02d}-{loss:.3f}")
    keep = keras.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True, save_weights_only=True)
    m = model()
    history = m.fit(X, Y, epochs=3, callbacks=[keep], verbose=0)
    written = [str(tmp_path / f"w-{e + 1:02d}-{loss:.3f}") for e, loss in enumerate(history.history["loss"])]
    assert len(written) == 3 and all(tg.train.checkpoint_exists(p) for p in written)  # each epoch improved
    every_other = keras.callbacks.ModelCheckpoint(str(tmp_path / "m{epoch}.h5"), period=2)
    model().fit(X, Y, epochs=4, callbacks=[every_other], verbose=0)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("m")) == ["m2.h5", "m4.h5"]
    assert isinstance(keras.models.load_model(str(tmp_path / "m4.h5")), keras.Sequential)


def test_early_stopping_waits_patience_epochs_and_restores_the_best_weights():
    seen = []
    stopper = keras.callbacks.EarlyStopping(monitor="loss", patience=2, restore_best_weights=True)
    m = model(lr=0.0)  # no progress: the first epoch stays the best
    m.set_weights([np.full((1, 1), 0.5, np.float32), np.zeros(1, np.float32)])
    weights = keras.callbacks.LambdaCallback(on_epoch_begin=lambda epoch, logs: seen.append(epoch))
    history = m.fit(X, Y, epochs=10, callbacks=[stopper, weights], verbose=0, shuffle=False)
    assert seen == [0, 1, 2] and len(history.history["loss"]) == 3 and stopper.stopped_epoch == 2
    np.testing.assert_array_equal(m.get_weights()[0], [[0.5]])


def test_learning_rate_scheduler_and_reduce_on_plateau_set_lr_and_log_it():
    m = model()
    history = m.fit(X, Y, epochs=3, verbose=0,
                    callbacks=[keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))])
    np.testing.assert_allclose(history.history["lr"], [0.1, 0.05, 0.1 / 3], rtol=1e-6)
    plateau = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    m = model(lr=1.0)
    K.set_value(m.optimizer.lr, 0.0)  # no progress: every epoch after the first is a plateau
    history = m.fit(X, Y, epochs=3, verbose=0, callbacks=[plateau], shuffle=False)
    assert history.history["lr"] == [0.0, 0.0, 0.0]
    m = model(lr=1e-12)
    history = m.fit(X, Y, epochs=3, verbose=0, callbacks=[plateau], shuffle=False)
    np.testing.assert_allclose(history.history["lr"], [1e-12, 1e-12, 5e-13])  # logged before the change


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # the loss is made to overflow
def test_csv_logger_and_terminate_on_nan(tmp_path):
    log = tmp_path / "log.csv"
    model().fit(X, Y, epochs=2, verbose=0, validation_data=(X, Y), callbacks=[keras.callbacks.CSVLogger(str(log))])
    rows = list(csv.DictReader(log.open()))
    assert [r["epoch"] for r in rows] == ["0", "1"] and list(rows[0]) == ["epoch", "loss", "val_loss"]
    exploding = model(lr=1e9)
    history = exploding.fit(X * 1e10, Y, epochs=5, batch_size=4, verbose=0,
                            callbacks=[keras.callbacks.TerminateOnNaN()])
    assert len(history.history["loss"]) == 1 and not np.isfinite(history.history["loss"][0])


def test_tensorboard_writes_the_epoch_scalars(tmp_path):
    model().fit(X, Y, epochs=2, verbose=0, validation_data=(X, Y),
                callbacks=[keras.callbacks.TensorBoard(log_dir=str(tmp_path))])
    events = [e for f in tmp_path.iterdir() for e in tg.train.summary_iterator(str(f))]
    scalars = [(e.step, v.tag) for e in events if e.summary for v in e.summary.value]
    assert sorted(scalars) == [(0, "loss"), (0, "val_loss"), (1, "loss"), (1, "val_loss")]


def test_monitors_that_are_not_logged_are_reported(capsys):
    model().fit(X, Y, epochs=1, verbose=0, callbacks=[keras.callbacks.EarlyStopping(monitor="val_acc")])
    assert "Early stopping conditioned on metric `val_acc` which is not available" in capsys.readouterr().out
    with pytest.raises(ValueError, match="mode 'up' is unknown"):
        keras.callbacks.ModelCheckpoint("x", mode="up")
