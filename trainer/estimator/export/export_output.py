"""tf.estimator.export's ExportOutputs: what one signature of an exported SavedModel serves, and the SignatureDef
each makes from the serving input's receiver tensors (TF1's export_output.py).

Classification and regression are TensorFlow Serving's Classify and Regress APIs: their input is one string
Tensor of serialized tf.Examples, so a model served from raw tensors gets only its predict signatures (as in TF1,
export_saved_model leaves the others out, with a log line saying why).
"""
from ...framework import dtypes
from ...framework.tensor import Tensor
from ...saved_model import signature_constants
from ...saved_model.signature_def_utils import build_signature_def, predict_signature_def
from ...saved_model.utils import build_tensor_info


class ExportOutput:
    """One output of an exported model; as_signature_def(receiver_tensors) is its SignatureDef."""

    def as_signature_def(self, receiver_tensors):
        raise NotImplementedError(f"{type(self).__name__} does not define as_signature_def")


def _examples(receiver_tensors, what):
    """The one string Tensor of serialized examples Classify and Regress read."""
    if len(receiver_tensors) != 1:
        raise ValueError(f"{what} input must be a single string Tensor; got {receiver_tensors}")
    (_, examples), = receiver_tensors.items()
    if examples.dtype != dtypes.string:
        raise ValueError(f"{what} input must be a single string Tensor; got {receiver_tensors}")
    return examples


class ClassificationOutput(ExportOutput):
    """Scores (float) and/or classes (string) per example: TensorFlow Serving's Classify."""

    def __init__(self, scores=None, classes=None):
        if scores is not None and not (isinstance(scores, Tensor) and scores.dtype.kind == "f"):
            raise ValueError(f"Classification scores must be a float32 Tensor; got {scores}")
        if classes is not None and not (isinstance(classes, Tensor) and classes.dtype == dtypes.string):
            raise ValueError(f"Classification classes must be a string Tensor; got {classes}")
        if scores is None and classes is None:
            raise ValueError("At least one of scores and classes must be set.")
        self.scores, self.classes = scores, classes

    def as_signature_def(self, receiver_tensors):
        examples = _examples(receiver_tensors, "Classification")
        outputs = {}
        if self.classes is not None:
            outputs[signature_constants.CLASSIFY_OUTPUT_CLASSES] = build_tensor_info(self.classes)
        if self.scores is not None:
            outputs[signature_constants.CLASSIFY_OUTPUT_SCORES] = build_tensor_info(self.scores)
        return build_signature_def({signature_constants.CLASSIFY_INPUTS: build_tensor_info(examples)}, outputs,
                                   signature_constants.CLASSIFY_METHOD_NAME)


class RegressionOutput(ExportOutput):
    """One float value per example: TensorFlow Serving's Regress."""

    def __init__(self, value):
        if not (isinstance(value, Tensor) and value.dtype.kind == "f"):
            raise ValueError(f"Regression output value must be a float32 Tensor; got {value}")
        self.value = value

    def as_signature_def(self, receiver_tensors):
        examples = _examples(receiver_tensors, "Regression")
        return build_signature_def({signature_constants.REGRESS_INPUTS: build_tensor_info(examples)},
                                   {signature_constants.REGRESS_OUTPUTS: build_tensor_info(self.value)},
                                   signature_constants.REGRESS_METHOD_NAME)


class PredictOutput(ExportOutput):
    """Named output Tensors (one Tensor is named "output"): TensorFlow Serving's Predict, from any inputs."""

    def __init__(self, outputs):
        outputs = {"output": outputs} if isinstance(outputs, Tensor) else outputs
        if not isinstance(outputs, dict):
            raise ValueError(f"Prediction outputs must be a Tensor or a dict of Tensors; got {outputs!r}")
        for key, value in outputs.items():
            if not isinstance(key, str):
                raise ValueError(f"Prediction output key must be a string; got {key!r}")
            if not isinstance(value, Tensor):
                raise ValueError(f"Prediction output value must be a Tensor; got {value!r} for {key!r}")
        self.outputs = outputs

    def as_signature_def(self, receiver_tensors):
        return predict_signature_def(receiver_tensors, self.outputs)
