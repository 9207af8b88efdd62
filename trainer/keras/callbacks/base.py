"""The callbacks fit always runs (History, the progress bar), their base class and how fit lines them up."""
from ..utils.generic_utils import Progbar


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



def configure(callbacks, model, verbose, epochs, steps, samples, metrics):
    """The callbacks fit runs: the user's, then History, then a ProgbarLogger when verbose (as Keras orders them);
    the loop itself averages the epoch's values, BaseLogger's job in Keras."""
    history = History()
    # the metrics are running means already: the progress bar shows them as they come (Keras' stateful_metrics)
    progress = ProgbarLogger(stateful_metrics=getattr(model, "metrics_names", ["loss"])[1:])
    listed = list(callbacks or []) + [history] + ([progress] if verbose else [])
    model.history = history
    callback_list = CallbackList(listed)
    callback_list.set_model(model)
    callback_list.set_params({"epochs": epochs, "steps": steps, "samples": samples, "verbose": verbose,
                              "do_validation": any(m.startswith("val_") for m in metrics), "metrics": metrics})
    return callback_list, history
