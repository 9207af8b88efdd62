"""Callbacks that write the logs elsewhere: CSV files, TensorBoard event files, your own functions."""
import csv
import os

from ...summary.protos import Summary
from ...summary.writer import FileWriter
from .. import backend as K
from .base import Callback


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
