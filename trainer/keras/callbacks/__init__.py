"""tf.keras.callbacks: hooks fit calls at the start and end of training, epochs and batches, with the logs dict
({'loss': ..., 'acc': ..., 'val_loss': ...} at epoch end). The namespace only."""
# ruff: noqa: F401
from .base import BaseLogger, Callback, CallbackList, History, ProgbarLogger
from .loggers import CSVLogger, LambdaCallback, RemoteMonitor, TensorBoard
from .monitors import EarlyStopping, LearningRateScheduler, ModelCheckpoint, ReduceLROnPlateau, TerminateOnNaN
