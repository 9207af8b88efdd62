"""tf.saved_model: TF1's SavedModel, a graph for serving with its variables, written as TensorFlow writes it."""
from . import builder, constants, loader, main_op, signature_constants, signature_def_utils, tag_constants, utils
from .builder import simple_save
from .loader import load, maybe_saved_model_directory
from .loader import maybe_saved_model_directory as contains_saved_model
from .main_op import main_op_with_restore
from .constants import (ASSETS_DIRECTORY, ASSETS_KEY, DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB, LEGACY_INIT_OP_KEY,
                        MAIN_OP_KEY, SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_SCHEMA_VERSION,
                        VARIABLES_DIRECTORY, VARIABLES_FILENAME)
from .signature_constants import (CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME, CLASSIFY_OUTPUT_CLASSES,
                                  CLASSIFY_OUTPUT_SCORES, DEFAULT_SERVING_SIGNATURE_DEF_KEY, PREDICT_INPUTS,
                                  PREDICT_METHOD_NAME, PREDICT_OUTPUTS, REGRESS_INPUTS, REGRESS_METHOD_NAME,
                                  REGRESS_OUTPUTS)
from .signature_def_utils import (build_signature_def, classification_signature_def, is_valid_signature,
                                  predict_signature_def, regression_signature_def)
from .tag_constants import GPU, SERVING, TPU, TRAINING
from .utils import build_tensor_info, get_tensor_from_tensor_info

Builder = builder.SavedModelBuilder
__all__ = ["builder", "constants", "loader", "signature_constants", "signature_def_utils", "tag_constants", "utils",
           "simple_save", "load", "maybe_saved_model_directory", "build_signature_def", "is_valid_signature",
           "predict_signature_def", "build_tensor_info", "get_tensor_from_tensor_info", "Builder",
           "classification_signature_def", "regression_signature_def", "contains_saved_model", "main_op",
           "main_op_with_restore"]
