"""Horovod's Keras callbacks (hvd.callbacks): start every rank from root's weights, average the epoch's metrics
over ranks, and scale the learning rate by epoch (warmup, schedules) as Goyal et al. (arXiv:1706.02677) do."""
import numpy as np

from ...keras import backend as K
from ...keras.callbacks import Callback
from ..basics import size
from .values import allreduce, broadcast_global_variables


class BroadcastGlobalVariablesCallback(Callback):
    """At the start of training, every rank takes root_rank's global variables (weights, optimizer state).
    `device` is accepted and ignored: the broadcast runs where Keras' session runs.

    The model's training step is built first, so that every rank has the optimizer's slot variables when the
    broadcast runs: a model root loaded with hvd.load_model has them already, a freshly compiled one on another
    rank would make them only at its first step, and the ranks would then broadcast different variable lists.
    (Horovod broadcasts after the first batch for the same reason; building the step first lets the first batch
    start from root's weights too.)"""

    def __init__(self, root_rank, device=""):
        super().__init__()
        self.root_rank, self.device = root_rank, device

    def on_train_begin(self, logs=None):
        make_train_function = getattr(self.model, "make_train_function", None)
        if make_train_function is not None:
            make_train_function()
        broadcast_global_variables(self.root_rank)


class MetricAverageCallback(Callback):
    """At each epoch's end, every value in the logs becomes its average over the ranks, so callbacks listed after
    this one (ReduceLROnPlateau, EarlyStopping, ModelCheckpoint) decide alike on every rank."""

    def __init__(self, device=""):
        super().__init__()
        self.device = device

    def on_epoch_end(self, epoch, logs=None):
        if not logs:
            return
        names = sorted(logs)  # the same order on every rank
        averaged = allreduce(np.array([logs[n] for n in names], dtype=np.float64), name="MetricAverageCallback")
        logs.update((n, float(v)) for n, v in zip(names, averaged))


class LearningRateScheduleCallback(Callback):
    """lr = initial lr * multiplier(epoch) from start_epoch until end_epoch (exclusive; None: the end).

    multiplier: a number or a function of the epoch. staircase=True: set at each epoch's first batch, else at
    every batch with a fractional epoch (epoch + batch / steps_per_epoch; steps_per_epoch found from fit's
    parameters when None). momentum_correction scales an optimizer's `momentum` hyper-parameter (SGD's, RMSprop's)
    by new_lr / old_lr for the batch that changes the rate (Goyal et al.).
    """

    def __init__(self, multiplier, start_epoch=0, end_epoch=None, staircase=True, momentum_correction=True,
                 steps_per_epoch=None, verbose=0):
        super().__init__()
        self.multiplier = multiplier if callable(multiplier) else (lambda epoch: multiplier)
        self.start_epoch, self.end_epoch, self.staircase = start_epoch, end_epoch, staircase
        self.momentum_correction, self.steps_per_epoch, self.verbose = momentum_correction, steps_per_epoch, verbose
        self.initial_lr, self.current_epoch, self.restore_momentum = None, None, None

    def on_train_begin(self, logs=None):
        self.initial_lr = float(K.get_value(self.model.optimizer.lr))
        if not self.staircase and not self.steps_per_epoch:
            self.steps_per_epoch = self._autodetect_steps_per_epoch()

    def _autodetect_steps_per_epoch(self):
        if self.params.get("steps"):
            return self.params["steps"]
        raise ValueError(f"{type(self).__name__} could not find the steps per epoch in fit's parameters "
                         f"{self.params!r}: pass steps_per_epoch=")

    def _adjust_learning_rate(self, epoch):
        optimizer = self.model.optimizer
        old_lr = float(K.get_value(optimizer.lr))
        new_lr = self.initial_lr * self.multiplier(epoch)
        K.set_value(optimizer.lr, new_lr)
        momentum = getattr(optimizer, "momentum", None)
        if self.momentum_correction and momentum is not None and not isinstance(momentum, (int, float)):
            self.restore_momentum = K.get_value(momentum)
            K.set_value(momentum, self.restore_momentum * new_lr / old_lr)

    def on_epoch_begin(self, epoch, logs=None):
        self.current_epoch = epoch

    def on_batch_begin(self, batch, logs=None):
        if self.current_epoch < self.start_epoch or (self.end_epoch is not None and
                                                     self.current_epoch >= self.end_epoch):
            return
        if self.staircase and batch == 0:
            self._adjust_learning_rate(self.current_epoch)
        elif not self.staircase:
            self._adjust_learning_rate(self.current_epoch + float(batch) / self.steps_per_epoch)

    def on_batch_end(self, batch, logs=None):
        if self.restore_momentum is not None:
            K.set_value(self.model.optimizer.momentum, self.restore_momentum)
            self.restore_momentum = None

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = float(K.get_value(self.model.optimizer.lr))


class LearningRateWarmupCallback(LearningRateScheduleCallback):
    """Ramps lr from lr / size() to lr over the first warmup_epochs, batch by batch (Goyal et al.'s gradual
    warmup): the multiplier at fractional epoch e is (e * (size() - 1) / warmup_epochs + 1) / size()."""

    def __init__(self, warmup_epochs=5, momentum_correction=True, steps_per_epoch=None, verbose=0):
        def multiplier(epoch):
            epoch += 1.0 / self.steps_per_epoch  # the rate reached at the end of this batch
            return 1.0 / size() * (epoch * (size() - 1) / warmup_epochs + 1)
        super().__init__(multiplier, start_epoch=0, end_epoch=warmup_epochs, staircase=False,
                         momentum_correction=momentum_correction, steps_per_epoch=steps_per_epoch, verbose=verbose)

    def on_epoch_end(self, epoch, logs=None):
        super().on_epoch_end(epoch, logs)
        if epoch == self.end_epoch - 1 and self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: finished gradual learning rate warmup to "
                  f"{float(K.get_value(self.model.optimizer.lr)):g}.")


LRWarmupCallback, LRScheduleCallback = LearningRateWarmupCallback, LearningRateScheduleCallback  # Horovod's aliases
