"""tf.estimator.export's serving inputs: what a serving_input_receiver_fn returns, and the builders of such
functions (TF1's export.py). The receiver tensors are what a server feeds; the features are what model_fn reads.
"""
import collections

from ...framework.tensor import Tensor
from ...framework.tensor_shape import TensorShape
from ...framework import dtypes
from ...ops.core_ops import placeholder
from ...ops.parsing_ops import parse_example
from ...ops.sparse_tensor import SparseTensor

SINGLE_FEATURE_DEFAULT_NAME = "feature"
SINGLE_RECEIVER_DEFAULT_NAME = "input"


def _tensor_dict(value, default_name, what):
    value = {default_name: value} if isinstance(value, (Tensor, SparseTensor)) else value
    if not isinstance(value, dict) or not value:
        raise ValueError(f"{what} must be a Tensor or a non-empty dict of Tensors; got {value!r}")
    for name, tensor in value.items():
        if not isinstance(name, str):
            raise ValueError(f"{what} keys must be strings: {name!r}.")
        if not isinstance(tensor, (Tensor, SparseTensor)):
            raise ValueError(f"{what} {name!r} must be a Tensor or SparseTensor; got {tensor!r}")
    return value


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """The features model_fn reads and the receiver tensors a server feeds (a single Tensor is named "feature"
    and "input"); receiver_tensors_alternatives maps more signature names to other receiver tensors."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        features = _tensor_dict(features, SINGLE_FEATURE_DEFAULT_NAME, "feature")
        receiver_tensors = _tensor_dict(receiver_tensors, SINGLE_RECEIVER_DEFAULT_NAME, "receiver_tensor")
        alternatives = {name: _tensor_dict(tensors, SINGLE_RECEIVER_DEFAULT_NAME, "receiver_tensor")
                        for name, tensors in (receiver_tensors_alternatives or {}).items()}
        return super().__new__(cls, features, receiver_tensors, alternatives or None)


class TensorServingInputReceiver(collections.namedtuple("TensorServingInputReceiver", ServingInputReceiver._fields)):
    """A receiver whose features are one Tensor, passed to model_fn as that Tensor rather than a dict."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        if not isinstance(features, Tensor):
            raise ValueError(f"features must be a Tensor for TensorServingInputReceiver; got {features!r}")
        checked = ServingInputReceiver(features, receiver_tensors, receiver_tensors_alternatives)
        return super().__new__(cls, features, checked.receiver_tensors, checked.receiver_tensors_alternatives)


def build_raw_serving_input_receiver_fn(features, default_batch_size=None):
    """A serving_input_receiver_fn feeding placeholders shaped like `features` ({name: Tensor}, batch dimension
    default_batch_size) straight to model_fn."""
    features = _tensor_dict(features, SINGLE_FEATURE_DEFAULT_NAME, "feature")

    def serving_input_receiver_fn():
        receivers = {}
        for name, tensor in features.items():
            dims = TensorShape(tensor.shape).as_list() if tensor.shape.ndims is not None else None
            if dims:
                dims[0] = default_batch_size
            receivers[name] = placeholder(tensor.dtype, dims, name=tensor.op.name)
        return ServingInputReceiver(receivers, dict(receivers))
    return serving_input_receiver_fn


def build_parsing_serving_input_receiver_fn(feature_spec, default_batch_size=None):
    """A serving_input_receiver_fn reading a batch of serialized tf.Examples (the string placeholder
    "input_example_tensor", receiver "examples", which Classify and Regress read) parsed by `feature_spec`
    ({name: FixedLenFeature | FixedLenSequenceFeature | VarLenFeature}, e.g. make_parse_example_spec's) into the
    features model_fn reads."""
    def serving_input_receiver_fn():
        examples = placeholder(dtypes.string, [default_batch_size], name="input_example_tensor")
        return ServingInputReceiver(parse_example(examples, feature_spec), {"examples": examples})
    return serving_input_receiver_fn
