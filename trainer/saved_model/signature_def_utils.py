"""tf.saved_model.signature_def_utils: SignatureDefs, the named inputs and outputs a server calls."""
from ..framework import dtypes
from ..framework.meta_graph import SignatureDef
from ..framework.tensor import Tensor
from . import signature_constants
from .utils import build_tensor_info


def build_signature_def(inputs=None, outputs=None, method_name=None):
    """A SignatureDef from {key: TensorInfo} maps and a method name."""
    return SignatureDef(inputs=dict(inputs or {}), outputs=dict(outputs or {}), method_name=method_name or "")


def predict_signature_def(inputs, outputs):
    """A predict SignatureDef from {key: Tensor} maps (TF1's "tensorflow/serving/predict")."""
    for what, tensors in (("inputs", inputs), ("outputs", outputs)):
        if not tensors:
            raise ValueError(f"Prediction {what} cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               signature_constants.PREDICT_METHOD_NAME)


def is_valid_signature(signature_def):
    """Whether a SignatureDef names inputs and outputs and a method."""
    return bool(signature_def.method_name and signature_def.inputs and signature_def.outputs)


def _typed_info(tensor, what, dtype, kind):
    if not isinstance(tensor, Tensor) or tensor.dtype != dtype:
        raise ValueError(f"{what} must be a {kind} Tensor.")
    return build_tensor_info(tensor)


def classification_signature_def(examples, classes, scores):
    """A classify SignatureDef: serialized examples (string) in, class names (string) and/or scores (float32) out."""
    if examples is None:
        raise ValueError("Classification examples cannot be None.")
    if classes is None and scores is None:
        raise ValueError("Classification classes and scores cannot both be None.")
    inputs = {signature_constants.CLASSIFY_INPUTS: _typed_info(examples, "Classification examples", dtypes.string,
                                                               "string")}
    outputs = {}
    if classes is not None:
        outputs[signature_constants.CLASSIFY_OUTPUT_CLASSES] = _typed_info(classes, "Classification classes",
                                                                           dtypes.string, "string")
    if scores is not None:
        outputs[signature_constants.CLASSIFY_OUTPUT_SCORES] = _typed_info(scores, "Classification scores",
                                                                          dtypes.float32, "float")
    return build_signature_def(inputs, outputs, signature_constants.CLASSIFY_METHOD_NAME)


def regression_signature_def(examples, predictions):
    """A regress SignatureDef: serialized examples (string) in, predictions (float32) out."""
    if examples is None:
        raise ValueError("Regression examples cannot be None.")
    if predictions is None:
        raise ValueError("Regression predictions cannot be None.")
    inputs = {signature_constants.REGRESS_INPUTS: _typed_info(examples, "Regression examples", dtypes.string,
                                                              "string")}
    outputs = {signature_constants.REGRESS_OUTPUTS: _typed_info(predictions, "Regression predictions",
                                                                dtypes.float32, "float")}
    return build_signature_def(inputs, outputs, signature_constants.REGRESS_METHOD_NAME)
