"""tf.keras.utils: to_categorical, normalize, Sequence, Progbar, get_custom_objects/CustomObjectScope."""
from ...unsupported import missing_names
from .data_utils import Sequence
from .generic_utils import Progbar, deserialize_keras_object, serialize_keras_object
from .np_utils import normalize, to_categorical

__getattr__ = missing_names(__name__, have="tf.keras.utils has to_categorical, normalize, Sequence and Progbar")
