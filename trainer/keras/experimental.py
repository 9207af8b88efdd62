"""tf.keras.experimental: the cosine learning-rate decays of TF 1.15, its premade LinearModel and PeepholeLSTMCell;
its other names (WideDeepModel, SequenceFeatures, export_saved_model, load_from_saved_model) raise NotInRingflow
saying so."""
from ..unsupported import missing_names
from .layers.recurrent_peephole import PeepholeLSTMCell
from .optimizer_v2.learning_rate_schedule import (CosineDecay, CosineDecayRestarts, LinearCosineDecay,
                                                  NoisyLinearCosineDecay)
from .premade.linear import LinearModel

__all__ = ["CosineDecay", "CosineDecayRestarts", "LinearCosineDecay", "LinearModel", "NoisyLinearCosineDecay",
           "PeepholeLSTMCell", "terminate_keras_multiprocessing_pools"]


def terminate_keras_multiprocessing_pools(grace_period=0.1, use_sigkill=False):
    """Nothing to end: ringflow's Keras draws batches in the training process, without worker pools."""
    return []


__getattr__ = missing_names(__name__, have="tf.keras.experimental has LinearModel, PeepholeLSTMCell and the cosine decays "
                            "(CosineDecay, CosineDecayRestarts, LinearCosineDecay, NoisyLinearCosineDecay)", reasons={
                                "WideDeepModel": "Keras' wide-and-deep model: use tf.estimator's "
                                                 "DNNLinearCombinedClassifier or -Regressor",
                                "SequenceFeatures": "sequence feature columns as a Keras layer",
                                "export_saved_model": "use model.save(path, save_format='tf')",
                                "load_from_saved_model": "use keras.models.load_model on what model.save wrote"})
