"""tf.saved_model.signature_def_utils: SignatureDefs, the named inputs and outputs a server calls."""
from ..framework.meta_graph import SignatureDef
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
