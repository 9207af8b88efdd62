"""What Estimator.export_saved_model builds on (TF1's export_lib.py and export_helpers.py): the export outputs of
a PREDICT EstimatorSpec, the SignatureDefs they make, and the timestamped directory each export goes to."""
import os
import time

from ...platform import tf_logging as logging
from ...saved_model import signature_constants
from ...saved_model.signature_def_utils import is_valid_signature
from .export_output import ExportOutput, PredictOutput


def export_outputs_for_mode(export_outputs, predictions):
    """model_fn's export_outputs, checked; without any, one PredictOutput of the predictions, and a lone output
    also serves as "serving_default" (TF1's get_export_outputs)."""
    if export_outputs is None:
        export_outputs = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: PredictOutput(predictions)}
    for key, value in export_outputs.items():
        if not isinstance(key, str):
            raise ValueError(f"export_outputs keys must be strings: {key!r}.")
        if not isinstance(value, ExportOutput):
            raise ValueError(f"Values in export_outputs must be ExportOutput objects. Given: {export_outputs!r}")
    export_outputs = dict(export_outputs)
    if signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY not in export_outputs:
        if len(export_outputs) != 1:
            raise ValueError(f"Multiple export_outputs were provided ({sorted(export_outputs)}), but none of them is "
                             "specified as the default.  Do this by naming one of them with "
                             "signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY.")
        export_outputs[signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY] = next(iter(export_outputs.values()))
    return export_outputs


def build_all_signature_defs(receiver_tensors, export_outputs, receiver_tensors_alternatives=None):
    """{signature name: SignatureDef} of every export output, for the receiver tensors and each alternative
    ("<alternative>:<output>"); an output that cannot serve these inputs is left out with a log line, as TF1
    leaves Classify and Regress out of a model fed raw tensors."""
    receivers = [(None, receiver_tensors)] + sorted((receiver_tensors_alternatives or {}).items())
    signatures, excluded = {}, {}
    for alternative, tensors in receivers:
        for key, output in export_outputs.items():
            name = key if alternative is None else f"{alternative}:{key}"
            try:
                signatures[name] = output.as_signature_def(tensors)
            except ValueError as exc:
                excluded[name] = str(exc)
    for name, why in sorted(excluded.items()):
        logging.warning(f"Export includes no signature {name!r}: {why}")
    return {name: signature for name, signature in signatures.items() if is_valid_signature(signature)}


def get_timestamped_export_dir(export_dir_base):
    """export_dir_base/<seconds since the epoch>, a name not yet taken (TF1 waits a second and tries again)."""
    for _ in range(10):
        export_dir = os.path.join(export_dir_base, str(int(time.time())))
        if not os.path.exists(export_dir):
            return export_dir
        time.sleep(1)
    raise RuntimeError(f"Failed to obtain a unique export directory name under {export_dir_base!r} after 10 "
                       "attempts: remove the old exports or export to another directory")
