"""The stages that read their input one element after another, keeping what they saw: scan, take_while, unique,
ignore_errors and assert_cardinality (tf.data.experimental's, and Dataset methods of the same names)."""
from ..framework import dtypes
from ..platform.errors import FailedPreconditionError
from .consumers import fold
from .stage import Stage, check, same_cardinality, scalar
from .structure import Spec, normalize

UNIQUE_TYPES = (dtypes.int32, dtypes.int64, dtypes.string)  # what TF's UniqueDataset hashes


def _state_and_output(result):
    if not isinstance(result, tuple) or len(result) != 2:
        raise TypeError(f"Invalid `scan_func`. `scan_func` should return a pair consisting of new state and the "
                        f"output value but its return type is {result!r}.")
    state, state_structure = normalize(result[0], "scan_func's new state")
    output, output_structure = normalize(result[1], "scan_func's output")
    return state + output, (Spec.of(state, state_structure), Spec.of(output, output_structure))


class ScanStage(Stage):
    """scan_func(state, element) -> (new state, output) for each element, from initial_state; yields the outputs."""

    def __init__(self, stage, initial_state, scan_func):
        self.inputs = (stage,)
        self.tensors, structure = normalize(initial_state, "scan(initial_state)")
        state = Spec.of(self.tensors, structure)
        self.function = fold(scan_func, "scan()", state, stage.spec, _state_and_output, lambda result: result[0],
                             "Invalid `scan_func`. ")
        self.functions = (self.function,)
        self.spec = self.function.result[1]

    def iterate(self, context):
        state, n = [context.value(t) for t in self.tensors], len(self.tensors)
        for element in self.inputs[0].iterate(context):
            outputs = context.call(self.function, state + list(element))
            state = outputs[:n]
            yield self.spec.gather(outputs[n:])

    cardinality = same_cardinality


class TakeWhileStage(Stage):
    """The elements before the first for which predicate(element) is False."""

    def __init__(self, stage, function):
        spec = function.result
        if spec.structure is not None or spec.types[0] != dtypes.bool or spec.shapes[0].ndims not in (None, 0):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return "
                             f"type is {spec}.")
        self.inputs, self.functions, self.function = (stage,), (function,), function
        self.spec = stage.spec

    def iterate(self, context):
        for element in self.inputs[0].iterate(context):
            if not context.to_host(context.call(self.function, element)[0]):
                return
            yield element


class UniqueStage(Stage):
    """Each element the first time it comes (int32, int64 or string scalars and vectors' values)."""

    def __init__(self, stage):
        spec = stage.spec
        if spec.structure is not None or spec.types[0] not in UNIQUE_TYPES:
            raise TypeError(f"`tf.data.Dataset.unique` does not support type {spec.output_types()} -- only "
                            "`tf.int32`, `tf.int64`, and `tf.string` are supported.")
        self.inputs, self.spec = (stage,), spec

    def iterate(self, context):
        seen = set()
        for element in self.inputs[0].iterate(context):
            value = context.to_host(element[0])
            key = (value.shape, value.tobytes() if value.dtype != object else tuple(value.reshape(-1)))
            if key not in seen:
                seen.add(key)
                yield element


class IgnoreErrorsStage(Stage):
    """The input's elements, without those whose map or filter function failed (TF drops every element whose
    GetNext failed; here the failures dropped are those of the functions dataset transformations apply)."""

    def __init__(self, stage):
        self.inputs, self.spec = (stage,), stage.spec

    def iterate(self, context):
        yield from self.inputs[0].iterate(context.ignoring_errors())


class AssertCardinalityStage(Stage):
    """The input's elements, failing where there are more or fewer than `expected`."""

    def __init__(self, stage, expected):
        self.inputs, self.spec = (stage,), stage.spec
        self.tensors = [scalar(expected, dtypes.int64, "expected_cardinality")]
        check(self.tensors[0], lambda n: n >= -2, "expected_cardinality must be a count, INFINITE or UNKNOWN, "
                                                  "got {!r}.")

    def iterate(self, context):
        expected, count = context.scalar(self.tensors[0]), 0
        for element in self.inputs[0].iterate(context):
            count += 1
            if 0 <= expected < count:
                raise FailedPreconditionError(f"Input dataset was expected to contain {_elements(expected)} but "
                                              f"contained at least {_elements(count)}.")
            yield element
        if expected == -1 or count < expected:
            raise FailedPreconditionError(f"Input dataset was expected to contain {_elements(expected)} but "
                                          f"contained only {_elements(count)}.")

    def cardinality(self, context):
        return context.scalar(self.tensors[0])


def _elements(n):
    return "an infinite number of elements" if n == -1 else f"{n} element{'s' if n != 1 else ''}"
