"""tf.keras.callbacks: hooks fit calls at the start and end of training, epochs and batches, with the logs dict
({'loss': ..., 'acc': ..., 'val_loss': ...} at epoch end)."""
import csv
import os

import numpy as np

from ..summary.protos import Summary
from ..summary.writer import FileWriter
from . import backend as K
from .utils.generic_utils import Progbar


class Callback:
    """Base: override on_{train,epoch,batch}_{begin,end}(…, logs); `model` and `params` are set by fit."""

    def __init__(self):
        self.model, self.params, self.validation_data = None, {}, None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs)

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass


class CallbackList:
    """Calls each of `callbacks` in order."""

    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __getattr__(self, hook):
        if not hook.startswith(("on_", "set_")):
            raise AttributeError(hook)

        def call(*args):
            for callback in self.callbacks:
                getattr(callback, hook)(*args)
        return call


class BaseLogger(Callback):
    """Averages the batch values over the epoch, weighted by batch size, into the epoch's logs."""

    def __init__(self, stateful_metrics=None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or ())

    def on_epoch_begin(self, epoch, logs=None):
        self.seen, self.totals = 0, {}

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        size = logs.get("size", 1)
        self.seen += size
        for k, v in logs.items():
            if k not in ("batch", "size"):
                self.totals[k] = v if k in self.stateful_metrics else self.totals.get(k, 0.0) + v * size

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            for k in self.params.get("metrics", []):
                if k in self.totals:
                    logs[k] = self.totals[k] if k in self.stateful_metrics else self.totals[k] / self.seen


class History(Callback):
    """Records the epoch logs: `history.history[name]` lists one value per epoch; `history.epoch` the epochs."""

    def on_train_begin(self, logs=None):
        self.epoch, self.history = [], {}

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class ProgbarLogger(Callback):
    """Prints 'Epoch i/n' and a Progbar per epoch (verbose 1: redrawn as it goes; 2: one line per epoch)."""

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        self.unit = "sample" if count_mode == "samples" else "step"
        self.stateful_metrics = set(stateful_metrics or ())

    def on_train_begin(self, logs=None):
        self.verbose, self.epochs = self.params["verbose"], self.params["epochs"]

    def on_epoch_begin(self, epoch, logs=None):
        if self.verbose:
            if self.epochs > 1:
                print(f"Epoch {epoch + 1}/{self.epochs}")
            self.target = self.params["samples"] if self.params.get("samples") is not None else \
                self.params["steps"]
            self.unit = "sample" if self.params.get("samples") is not None else "step"
            self.progbar = Progbar(self.target, verbose=self.verbose, stateful_metrics=self.stateful_metrics,
                                   unit_name=self.unit)
        self.seen = 0

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self.seen += logs.get("size", 1) if self.unit == "sample" else 1
        values = [(k, logs[k]) for k in self.params["metrics"] if k in logs]
        if self.verbose and (self.target is None or self.seen < self.target):
            self.progbar.update(self.seen, values)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.verbose:
            self.progbar.stateful_metrics = set(self.params["metrics"])  # the epoch's averages, shown as they are
            self.progbar.update(self.seen, [(k, logs[k]) for k in self.params["metrics"] if k in logs])


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


class CSVLogger(Callback):
    """Writes one CSV row per epoch: epoch, then the logs' keys in sorted order."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = filename, separator, append
        self.keys = None

    def on_train_begin(self, logs=None):
        exists = self.append and os.path.exists(self.filename) and os.path.getsize(self.filename) > 0
        self.file = open(self.filename, "a" if self.append else "w", newline="")
        self.writer = None
        self.header_written = exists

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
        if self.writer is None:
            self.writer = csv.DictWriter(self.file, fieldnames=["epoch"] + self.keys, delimiter=self.sep)
            if not self.header_written:
                self.writer.writeheader()
        self.writer.writerow(dict({"epoch": epoch}, **{k: logs.get(k, "NA") for k in self.keys}))
        self.file.flush()

    def on_train_end(self, logs=None):
        self.file.close()


class LambdaCallback(Callback):
    """A callback from functions: on_epoch_begin/on_epoch_end(epoch, logs), on_batch_begin/on_batch_end(batch,
    logs), on_train_begin/on_train_end(logs)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None, on_batch_end=None,
                 on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        given = dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end, on_batch_begin=on_batch_begin,
                     on_batch_end=on_batch_end, on_train_begin=on_train_begin, on_train_end=on_train_end, **kwargs)
        for hook, fn in given.items():
            if fn is not None:
                setattr(self, hook, fn)


class TerminateOnNaN(Callback):
    """Stops training when a batch's loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not np.isfinite(loss):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class TensorBoard(Callback):
    """Writes the epoch logs as scalars (one per key, at the epoch number) to event files in `log_dir`."""

    def __init__(self, log_dir="./logs", histogram_freq=0, batch_size=32, write_graph=True, write_grads=False,
                 write_images=False, update_freq="epoch", **kwargs):
        super().__init__()
        self.log_dir, self.write_graph, self.update_freq = log_dir, write_graph, update_freq
        self.writer = None
        self.samples_seen = 0

    def set_model(self, model):
        super().set_model(model)
        self.writer = FileWriter(self.log_dir, graph=K.get_session().graph if self.write_graph else None)

    def _write(self, logs, step):
        summary = Summary(value=[Summary.Value(tag=k, simple_value=float(v)) for k, v in logs.items()
                                 if k not in ("batch", "size", "num_steps")])
        self.writer.add_summary(summary, step)
        self.writer.flush()

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self.samples_seen += logs.get("size", 1)
        if self.update_freq != "epoch" and (self.update_freq == "batch" or
                                            self.samples_seen % int(self.update_freq) < logs.get("size", 1)):
            self._write({f"batch_{k}": v for k, v in logs.items() if k not in ("batch", "size")}, self.samples_seen)

    def on_epoch_end(self, epoch, logs=None):
        self._write(logs or {}, epoch)

    def on_train_end(self, logs=None):
        self.writer.close()


class RemoteMonitor(Callback):
    """Keras' RemoteMonitor posts to a server; ringflow sends nothing over the network."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tf.keras.callbacks.RemoteMonitor is not available in ringflow (it posts epoch "
                                  "logs over HTTP); log with CSVLogger or TensorBoard instead")


def configure(callbacks, model, verbose, epochs, steps, samples, metrics):
    """The callbacks fit runs: the user's, then History, then a ProgbarLogger when verbose (as Keras orders them);
    the loop itself averages the epoch's values, BaseLogger's job in Keras."""
    history = History()
    listed = list(callbacks or []) + [history] + ([ProgbarLogger()] if verbose else [])
    model.history = history
    callback_list = CallbackList(listed)
    callback_list.set_model(model)
    callback_list.set_params({"epochs": epochs, "steps": steps, "samples": samples, "verbose": verbose,
                              "do_validation": any(m.startswith("val_") for m in metrics), "metrics": metrics})
    return callback_list, history


