"""tf.contrib: the contrib names TF1 programs import that have core equivalents, as the same objects where they
exist (rnn, layers, framework, feature_column's sequence columns, slim, lookup, the TensorBoard projector, seq2seq's
sequence_loss, factorization's KMeans, estimator's heads), contrib's own losses and streaming metrics (losses,
metrics); the other contrib libraries fail naming what is missing and what to use instead (missing.py).
Loaded on first use, as TF1 loads tf.contrib."""
from . import (estimator, factorization, feature_column, framework, layers, learn, lookup, losses,  # noqa: F401
               metrics, rnn, seq2seq, slim, tensorboard)
from .missing import MISSING
from ..unsupported import missing_names

__all__ = ["estimator", "factorization", "feature_column", "framework", "layers", "learn", "lookup", "losses",
           "metrics", "rnn", "seq2seq", "slim", "tensorboard"]

__getattr__ = missing_names(__name__, have=f"tf.contrib here has {', '.join(__all__)}", reasons=MISSING)
