"""tf.keras.layers: the layer classes ringflow has; the others (Conv3D, separable and depthwise convolutions,
recurrent layers, wrappers, ...) raise NotInRingflow."""
from ...unsupported import missing_names
from ..engine.base_layer import InputSpec, Layer
from ..engine.input_layer import Input, InputLayer
from .core import Activation, ActivityRegularization, Dense, Dropout, Flatten, Lambda, Permute, RepeatVector, Reshape

__getattr__ = missing_names(__name__, have="tf.keras.layers has the core, convolution, pooling, embedding, "
                            "normalization, merge and advanced-activation layers (README, 'tf.keras')")
