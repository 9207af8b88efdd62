"""tf.keras.experimental: the cosine learning-rate decays of TF 1.15, its premade LinearModel and WideDeepModel,
PeepholeLSTMCell, SequenceFeatures (tf.feature_column's sequence columns as a layer), export_saved_model and
load_from_saved_model."""
from ..unsupported import missing_names
from .layers.recurrent_peephole import PeepholeLSTMCell
from .layers.sequence_features import SequenceFeatures
from .optimizer_v2.learning_rate_schedule import (CosineDecay, CosineDecayRestarts, LinearCosineDecay,
                                                  NoisyLinearCosineDecay)
from .premade.linear import LinearModel
from .premade.wide_deep import WideDeepModel
from .saved_model_experimental import export_saved_model, load_from_saved_model

__all__ = ["CosineDecay", "CosineDecayRestarts", "LinearCosineDecay", "LinearModel", "NoisyLinearCosineDecay",
           "PeepholeLSTMCell", "SequenceFeatures", "WideDeepModel", "export_saved_model", "load_from_saved_model",
           "terminate_keras_multiprocessing_pools"]


def terminate_keras_multiprocessing_pools(grace_period=0.1, use_sigkill=False):
    """Nothing to end: ringflow's Keras draws batches in the training process, without worker pools."""
    return []


__getattr__ = missing_names(__name__, have="tf.keras.experimental has LinearModel, WideDeepModel, PeepholeLSTMCell, "
                            "SequenceFeatures, export_saved_model, load_from_saved_model and the cosine decays "
                            "(CosineDecay, CosineDecayRestarts, LinearCosineDecay, NoisyLinearCosineDecay)")
