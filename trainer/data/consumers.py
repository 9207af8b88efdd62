"""Ops that read a whole dataset inside one kernel: cardinality, get_single_element, Dataset.reduce and
TFRecordWriter.write.

Each op takes every tensor the dataset captured as inputs (as MakeIterator does), so a placeholder used by the
dataset is fed in the same Session.run; each run reads the dataset from its beginning, in a context of its own.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import register
from ..platform.errors import InvalidArgumentError
from ..platform.tfrecord import TFRecordWriter as RecordFile
from ..platform.tfrecord import compression_of
from .function import DatasetFunction
from .runtime import Context, IteratorResource
from .stage import Stage, captures
from .structure import Spec, expand, most_specific_compatible_shape, normalize


def _context(op, session, values):
    """A fresh reading of the dataset: the values of the tensors it captured (the op's last inputs)."""
    return Context(session, dict(zip(op.inputs[len(op.inputs) - len(values):], values)), IteratorResource())


def _cardinality_kernel(op, session):
    stage = op.attrs["dataset"]
    return lambda *values: session.to_device(np.array(stage.cardinality(_context(op, session, values)), np.int64))


def _single_element_kernel(op, session):
    stage = op.attrs["dataset"]

    def run(*values):
        elements = iter(stage.iterate(_context(op, session, values)))
        first = next(elements, None)
        if first is None:
            raise InvalidArgumentError("Dataset was empty.")
        if next(elements, None) is not None:
            raise InvalidArgumentError("Dataset had more than one element.")
        first = expand(first)
        return first[0] if len(first) == 1 else tuple(first)
    return run


def _reduce_kernel(op, session):
    reducer = op.attrs["dataset"]

    def run(*values):
        context = _context(op, session, values)
        state = [context.value(t) for t in reducer.tensors]
        for element in reducer.inputs[0].iterate(context):
            state = context.call(reducer.function, state + list(element))
        return state[0] if len(state) == 1 else tuple(state)
    return run


def _write_kernel(op, session):
    stage = op.attrs["dataset"]

    def run(filename, compression, *values):
        compression = compression_of(compression[()].decode())
        with RecordFile(filename[()].decode(), compression) as f:
            for element in stage.iterate(_context(op, session, values)):
                f.write(session.to_host(element[0])[()])
    return run


def _elements(*inputs, **attrs):
    return attrs["dataset"].spec.physical()


register("DatasetCardinality", kernel=_cardinality_kernel, infer=lambda *t, **attrs: [((), dtypes.int64)])
# persistent: an element or a state may be the dataset's own data (a constant, a cached element), so fetches copy it
register("DatasetToSingleElement", kernel=_single_element_kernel, infer=_elements, persistent=True)
register("ReduceDataset", kernel=_reduce_kernel, infer=_elements, persistent=True)
register("DatasetToTFRecord", kernel=_write_kernel, infer=lambda *t, **attrs: [])


def _op(op_type, stage, outputs, inputs=()):
    return get_default_graph().create_op(op_type, list(inputs) + captures(stage), outputs, name=op_type,
                                         attrs={"dataset": stage})


def cardinality(stage):
    """A scalar int64 tensor: how many elements the dataset has, INFINITE (-1) or UNKNOWN (-2)."""
    return _op("DatasetCardinality", stage, [((), dtypes.int64)]).outputs[0]


def single_element(stage):
    """The one element of the dataset, as tensors packed in its structure."""
    op = _op("DatasetToSingleElement", stage, _elements(dataset=stage))
    return stage.spec.pack_tensors(op.outputs)


class Reducer(Stage):
    """Dataset.reduce's fold: the state, from `initial_state`, through reduce_func(state, element) per element."""

    def __init__(self, stage, initial_state, reduce_func):
        self.inputs = (stage,)
        self.tensors, structure = normalize(initial_state, "Dataset.reduce(initial_state)")
        state = Spec.of(self.tensors, structure)
        self.function = fold(reduce_func, "Dataset.reduce()", state, stage.spec)
        self.functions = (self.function,)
        self.spec = self.function.result


def fold(func, what, state, element, finish=None, new_state=lambda result: result, prefix=""):
    """func(state, element) traced on (state, element); `new_state(result)` is the Spec of the state it returns
    (finish: DatasetFunction's). Traced once more on the relaxed state where the new state's shapes differ (TF
    traces again with the most specific shapes both fit); dtypes must stay."""
    function = DatasetFunction(func, what, join(state, element), finish)
    new = new_state(function.result)
    if not new.same_types(state):
        raise TypeError(f"{prefix}The element types for the new state must match the initial state. Expected "
                        f"{_types(state)}, got {_types(new)}.")
    relaxed = Spec(state.structure, [most_specific_compatible_shape(a, b) for a, b in zip(state.shapes, new.shapes)],
                   state.types)
    if relaxed.shapes == state.shapes:
        return function
    return DatasetFunction(func, what, join(relaxed, element), finish)


def _types(spec):
    return spec.output_types() if spec.structure is not None else f"<dtype: {spec.types[0].name!r}>"


def join(*specs):
    """One Spec of a tuple of elements: a function of several arguments (state, element)."""
    return Spec((tuple, None, [s.structure for s in specs]), [sh for s in specs for sh in s.shapes],
                [t for s in specs for t in s.types])


def reduce(stage, initial_state, reduce_func):
    """Dataset.reduce: the final state, as tensors packed in initial_state's structure."""
    reducer = Reducer(stage, initial_state, reduce_func)
    op = _op("ReduceDataset", reducer, _elements(dataset=reducer))
    return reducer.spec.pack_tensors(op.outputs)


def write_records(stage, filename, compression_type):
    """TFRecordWriter.write: an op writing the dataset's scalar strings as the records of `filename`."""
    if len(stage.spec.types) != 1 or stage.spec.types[0] != dtypes.string or stage.spec.shapes[0].ndims not in (
            None, 0):
        raise TypeError(f"Invalid `dataset`. Expected a `dataset` that produces scalar `tf.string` elements, but "
                        f"got a dataset which produces elements {stage.spec}.")
    inputs = normalize((filename, compression_type or ""), "TFRecordWriter")[0]
    return _op("DatasetToTFRecord", stage, [], inputs)
