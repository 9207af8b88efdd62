"""A dataset is a tree of stages, each one transformation of its input stages' elements.

A Stage knows, while the graph is built, its elements' Spec, the tensors of the user's graph it reads when it
runs (`tensors`: the data of from_tensor_slices, a batch size, a placeholder's count), and the traced functions
it applies. `iterate(context)` yields its elements, each a flat list of arrays, in one iterator initialization
(runtime.Context). TF1 takes each argument as a tensor (an int64 scalar for counts and sizes), so a placeholder
fed when the iterator is initialized works anywhere a Python number does.
"""
from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from ..framework.tensor import Tensor
from ..ops.tensor_util import constant_value
from .structure import to_tensor

INFINITE, UNKNOWN = -1, -2  # what TF's cardinality() answers for a dataset without end, one it cannot count



class Stage:
    """One transformation; subclasses set `spec` and implement `iterate`."""

    inputs = ()
    tensors = ()
    functions = ()
    spec = None

    def iterate(self, context):
        raise NotImplementedError(f"{type(self).__name__} does not implement iterate()")

    def cardinality(self, context):
        """How many elements one pass yields, INFINITE or UNKNOWN, as TF's tf.data.experimental.cardinality."""
        return UNKNOWN


class WindowStage(Stage):
    """A dataset of elements given when it runs: a window of Dataset.window, a group of group_by_window (the stage
    running it puts the elements, as lists of arrays, in the context under this stage)."""

    def __init__(self, spec):
        self.spec = spec

    def iterate(self, context):
        yield from context.value(self)

    def cardinality(self, context):
        return len(context.value(self))


def same_cardinality(stage, context):
    """A stage that yields one element per input element (map, prefetch, cache, shuffle)."""
    return stage.inputs[0].cardinality(context)


def captures(stage):
    """Every tensor of the user's graph a dataset reads when its iterator is initialized, each once."""
    seen = {}

    def visit(s):
        seen.update((t, None) for t in s.tensors)
        for f in s.functions:
            seen.update((t, None) for t in f.captured)
        for i in s.inputs:
            visit(i)
    visit(stage)
    return list(seen)


def scalar(value, dtype, name):
    """An argument as a scalar tensor of `dtype` (TF1's convert_to_tensor(value, dtype, name)); errors name it."""
    try:
        tensor = to_tensor(value, dtype=dtypes.as_dtype(dtype), name=name)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"`{name}` must be a {dtypes.as_dtype(dtype).name} scalar, got {value!r} ({exc})") from None
    if tensor.shape.ndims not in (None, 0):
        raise ValueError(f"`{name}` must be a scalar, got {value!r} of shape {tensor.shape}")
    return tensor


def static(tensor):
    """A scalar tensor's value if it is known while building (a Python number given), else None."""
    value = constant_value(tensor) if isinstance(tensor, Tensor) else tensor
    return None if value is None else value.item()


def check(tensor, ok, message):
    """InvalidArgumentError(message) now when the tensor's value is known and not ok(value); the stage checks
    again when it runs (a fed placeholder). InvalidArgumentError is a ValueError, as bad arguments are."""
    value = static(tensor)
    if value is not None and not ok(value):
        raise InvalidArgumentError(message.format(value))
