"""hvd.elastic of Horovod's Keras API in ringflow's fixed world: KerasState (a model, its optimizer and keyword
attributes, in Keras' session) and the callbacks that keep a state's batch and epoch and commit it."""
from ...keras import backend as K
from ...keras.callbacks import Callback
from ..elastic import ObjectState, State, TensorFlowKerasState, run  # noqa: F401  (hvd.elastic's names)


class KerasState(TensorFlowKerasState):
    """TensorFlowKerasState in Keras' session."""

    def __init__(self, model, optimizer=None, **kwargs):
        super().__init__(model, optimizer=optimizer, backend=K, **kwargs)


class CommitStateCallback(Callback):
    """Commits `state` every batches_per_commit batches and at each epoch's end."""

    def __init__(self, state, batches_per_commit=1):
        super().__init__()
        self.state, self.batches_per_commit = state, batches_per_commit
        self.batches_remaining = batches_per_commit

    def on_train_begin(self, logs=None):
        self.batches_remaining = self.batches_per_commit  # the same count on every rank after a sync

    def on_batch_end(self, batch, logs=None):
        self.batches_remaining -= 1
        if self.batches_remaining == 0:
            self.state.commit()
            self.batches_remaining = self.batches_per_commit

    def on_epoch_end(self, epoch, logs=None):
        self.state.commit()


class UpdateBatchStateCallback(Callback):
    """Keeps state.batch at the last finished batch (0 at an epoch's end); an epoch resumed from a state with
    batch b runs the epoch's remaining steps only."""

    def __init__(self, state):
        super().__init__()
        self.state, self.steps_per_epoch = state, None

    def on_train_begin(self, logs=None):
        self.steps_per_epoch = None

    def on_epoch_begin(self, epoch, logs=None):
        if self.params.get("steps"):
            if self.steps_per_epoch is None:
                self.steps_per_epoch = self.params["steps"]
            self.params["steps"] = self.steps_per_epoch - self.state.batch

    def on_batch_end(self, batch, logs=None):
        self.state.batch = batch

    def on_epoch_end(self, epoch, logs=None):
        self.state.batch = 0


class UpdateEpochStateCallback(Callback):
    """Keeps state.epoch at the number of epochs finished, counted from the state's epoch when training began."""

    def __init__(self, state):
        super().__init__()
        self.state, self.initial_epoch = state, state.epoch

    def on_train_begin(self, logs=None):
        self.initial_epoch = self.state.epoch

    def on_epoch_end(self, epoch, logs=None):
        self.state.epoch = self.initial_epoch + epoch + 1
