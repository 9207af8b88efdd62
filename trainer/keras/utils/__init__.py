"""tf.keras.utils: to_categorical, normalize, Sequence and its enqueuers, get_file, HDF5Matrix, Progbar, the custom
objects and their scopes, (de)serialization, get_source_inputs, convert_all_kernels_in_model; plot_model,
model_to_dot and multi_gpu_model raise errors saying what to use instead."""
from ...unsupported import missing_names
from .data_utils import GeneratorEnqueuer, OrderedEnqueuer, Sequence, SequenceEnqueuer, get_file
from .generic_utils import (CustomObjectScope, Progbar, custom_object_scope, deserialize_keras_object,
                            get_custom_objects, serialize_keras_object)
from .io_utils import HDF5Matrix
from .layer_utils import convert_all_kernels_in_model, get_source_inputs
from .np_utils import normalize, to_categorical
from .vis_utils import model_to_dot, multi_gpu_model, plot_model

__getattr__ = missing_names(__name__, have="tf.keras.utils has the names README's tf.keras section lists")
