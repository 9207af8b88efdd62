"""Callbacks that watch a logged value: checkpoints, early stopping, learning-rate changes, NaN losses."""
import numpy as np

from .. import backend as K
from .base import Callback


def _monitor_op(mode, monitor, who):
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"{who} mode {mode!r} is unknown; use 'auto', 'min' or 'max'")
    if mode == "max" or mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure")):
        return np.greater
    return np.less


class ModelCheckpoint(Callback):
    """Saves the model (or its weights) after each `period` epochs to `filepath`, formatted with the epoch
    ({epoch:02d}, 1-based) and the logs ({val_loss:.2f}); save_best_only keeps only improvements of `monitor`."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", period=1):
        super().__init__()
        self.filepath, self.monitor, self.verbose = filepath, monitor, verbose
        self.save_best_only, self.save_weights_only, self.period = save_best_only, save_weights_only, period
        self.monitor_op = _monitor_op(mode, monitor, "ModelCheckpoint")
        self.best = -np.inf if self.monitor_op is np.greater else np.inf
        self.since_last = 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.since_last += 1
        if self.since_last < self.period:
            return
        self.since_last = 0
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                print(f"Can save best model only with {self.monitor} available, skipping.")
                return
            if not self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1:05d}: {self.monitor} did not improve from {self.best:.5f}")
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1:05d}: {self.monitor} improved from {self.best:.5f} to {current:.5f}, "
                      f"saving model to {path}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1:05d}: saving model to {path}")
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)


class EarlyStopping(Callback):
    """Stops training when `monitor` has not improved by min_delta for `patience` epochs; restore_best_weights
    puts back the weights of the best epoch."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__()
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        self.restore_best_weights = restore_best_weights
        self.monitor_op = _monitor_op(mode, monitor, "EarlyStopping")
        self.min_delta = abs(min_delta) if self.monitor_op is np.greater else -abs(min_delta)

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_weights = 0, 0, None
        self.best = self.baseline if self.baseline is not None else \
            (-np.inf if self.monitor_op is np.greater else np.inf)

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            print(f"Early stopping conditioned on metric `{self.monitor}` which is not available. Available "
                  f"metrics are: {','.join(sorted(logs or {}))}")
            return
        if self.monitor_op(current - self.min_delta, self.best):
            self.best, self.wait = current, 0
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            return
        self.wait += 1
        if self.wait >= self.patience:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose > 0:
                    print("Restoring model weights from the end of the best epoch.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1:05d}: early stopping")


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when `monitor` has not improved for `patience` epochs."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0, got {factor!r}")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.min_delta, self.cooldown, self.min_lr = kwargs.pop("epsilon", min_delta), cooldown, min_lr
        self.mode = mode
        self.minimizing = _monitor_op(mode, monitor, "ReduceLROnPlateau") is np.less

    def monitor_op(self, current, best):
        return current < best - self.min_delta if self.minimizing else current > best + self.min_delta

    def on_train_begin(self, logs=None):
        self.best = np.inf if self.minimizing else -np.inf
        self.wait = self.cooldown_counter = 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = float(K.get_value(self.model.optimizer.lr))
        current = logs.get(self.monitor)
        if current is None:
            print(f"Reduce LR on plateau conditioned on metric `{self.monitor}` which is not available. Available "
                  f"metrics are: {','.join(sorted(logs))}")
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best, self.wait = current, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = float(K.get_value(self.model.optimizer.lr))
                if old > self.min_lr:
                    new = max(old * self.factor, self.min_lr)
                    K.set_value(self.model.optimizer.lr, new)
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1:05d}: ReduceLROnPlateau reducing learning rate to {new}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0


class LearningRateScheduler(Callback):
    """Sets the learning rate to schedule(epoch) (or schedule(epoch, lr)) at each epoch's start."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        try:
            lr = self.schedule(epoch, float(K.get_value(self.model.optimizer.lr)))
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.floating, int, np.integer)):
            raise ValueError(f'The output of the "schedule" function should be float, got {lr!r}')
        K.set_value(self.model.optimizer.lr, lr)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1:05d}: LearningRateScheduler reducing learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = float(K.get_value(self.model.optimizer.lr))



class TerminateOnNaN(Callback):
    """Stops training when a batch's loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not np.isfinite(loss):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True
