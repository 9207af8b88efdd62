"""tf.estimator.export: serving input receivers and the ExportOutputs of an exported SavedModel."""
from .export import (ServingInputReceiver, TensorServingInputReceiver, build_parsing_serving_input_receiver_fn,
                     build_raw_serving_input_receiver_fn)
from .export_output import ClassificationOutput, ExportOutput, PredictOutput, RegressionOutput

__all__ = ["ServingInputReceiver", "TensorServingInputReceiver", "build_parsing_serving_input_receiver_fn",
           "build_raw_serving_input_receiver_fn", "ClassificationOutput", "ExportOutput", "PredictOutput",
           "RegressionOutput"]
