"""tf.saved_model: TF1's SavedModel, a graph for serving with its variables, written as TensorFlow writes it."""
from . import builder, constants, loader, signature_constants, signature_def_utils, tag_constants, utils
from .builder import simple_save
from .loader import load, maybe_saved_model_directory
from .signature_def_utils import build_signature_def, is_valid_signature, predict_signature_def
from .utils import build_tensor_info, get_tensor_from_tensor_info

Builder = builder.SavedModelBuilder
__all__ = ["builder", "constants", "loader", "signature_constants", "signature_def_utils", "tag_constants", "utils",
           "simple_save", "load", "maybe_saved_model_directory", "build_signature_def", "is_valid_signature",
           "predict_signature_def", "build_tensor_info", "get_tensor_from_tensor_info", "Builder"]
