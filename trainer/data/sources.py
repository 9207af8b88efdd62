"""The stages that make elements: from_tensors, from_tensor_slices, range, from_generator, zip, concatenate."""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError, UnknownError
from ..ops.core_ops import as_string_array
from ..framework.tensor_shape import TensorShape
from ..ops.sparse_tensor import SparseTensor, SparseTensorValue
from ..platform import gfile
from .stage import INFINITE, UNKNOWN, Stage, check, scalar
from .structure import Spec, flatten_types, flatten_up_to, most_specific_compatible_shape, normalize, pack, substitute


class TensorStage(Stage):
    """One element: the given tensors (Dataset.from_tensors)."""

    def __init__(self, element):
        components, structure = normalize(element, "Dataset.from_tensors()", sparse=True)
        self.tensors, self.spec = parts(components), Spec.of(components, structure)

    def iterate(self, context):
        yield self.spec.gather([context.value(t) for t in self.tensors])

    def cardinality(self, context):
        return 1


class SliceStage(Stage):
    """The slices of the given tensors along their first dimension (Dataset.from_tensor_slices)."""

    def __init__(self, element):
        components, structure = normalize(element, "Dataset.from_tensor_slices()", sparse=True)
        self.tensors = parts(components)
        first = None
        for t in components:
            if t.shape.ndims == 0:
                raise ValueError(f"Dataset.from_tensor_slices() slices each component along its first dimension, "
                                 f"but {t.name!r} is a scalar: use Dataset.from_tensors() for a single element")
            size = t.shape[0] if t.shape.ndims is not None else None
            if size is not None and first is not None and size != first:
                raise ValueError(f"Dimensions {first} and {size} are not compatible: every component of "
                                 f"Dataset.from_tensor_slices() needs the same first dimension")
            first = first if size is None else size
        whole = Spec.of(components, structure)
        self.spec = Spec(structure, [TensorShape(None) if s.ndims is None else s[1:] for s in whole.shapes],
                         whole.types)

    def iterate(self, context):
        values = self.spec.gather([context.value(t) for t in self.tensors])
        sizes = {_rows(context, v) for v in values}
        if len(sizes) > 1 or None in sizes:
            raise InvalidArgumentError(f"Dataset.from_tensor_slices() got components of {sorted(sizes, key=str)} "
                                       f"rows: each needs a first dimension, the same in all")
        for i in range(sizes.pop()):
            yield [_sparse_row(context, v, i) if isinstance(v, SparseTensorValue) else v[i, ...]  # a 0-d array,
                   for v in values]  # not a numpy scalar

    def cardinality(self, context):
        return _rows(context, self.spec.gather([context.value(t) for t in self.tensors])[0])


def parts(components):
    """The tensors components run as: a SparseTensor's indices, values and dense_shape in its place."""
    return [p for c in components for p in ((c.indices, c.values, c.dense_shape) if isinstance(c, SparseTensor)
                                            else (c,))]


def _rows(context, value):
    if isinstance(value, SparseTensorValue):
        shape = context.to_host(value.dense_shape)
        return int(shape[0]) if len(shape) else None
    return value.shape[0] if value.ndim else None


def _sparse_row(context, value, row):
    """Row `row` of a sparse value: its entries there, their indices and the dense shape without the first axis."""
    indices, values, shape = (np.asarray(context.to_host(a)) for a in value)
    mine = indices[:, 0] == row
    return SparseTensorValue(*(context.to_device(np.ascontiguousarray(a)) for a in
                               (indices[mine, 1:], values[mine], shape[1:])))


class RangeStage(Stage):
    """start, start + step, ... before stop, as int64 (Dataset.range, Python's range rules)."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid arguments to RangeDataset: {args!r} (give stop, start and stop, or "
                             "start, stop and step)")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], 1) if len(args) == 2 else args
        self.tensors = [scalar(v, dtypes.int64, n) for v, n in ((start, "start"), (stop, "stop"), (step, "step"))]
        check(self.tensors[2], lambda s: s != 0, "step must be a non-zero integer, got {!r}.")
        self.spec = Spec(None, [()], [dtypes.int64])

    def iterate(self, context):
        start, stop, step = (context.scalar(t) for t in self.tensors)
        if step == 0:
            raise InvalidArgumentError("step must be a non-zero integer.")
        for i in range(start, stop, step):
            yield [context.to_device(np.array(i, dtype=np.int64))]

    def cardinality(self, context):
        return len(range(*(context.scalar(t) for t in self.tensors)))


class GeneratorStage(Stage):
    """The elements a Python generator yields, each checked against output_types/output_shapes; the generator
    is called anew (with `args` evaluated as numpy arrays) each time the dataset is iterated."""

    saveable = False  # a Python generator's position cannot be saved (TF: "PyFunc is stateful")

    def __init__(self, generator, output_types, output_shapes=None, args=None):
        if not callable(generator):
            raise TypeError(f"`generator` must be callable, got {generator!r}")
        types, structure = flatten_types(output_types)
        shapes = ([TensorShape(None)] * len(types) if output_shapes is None else
                  [TensorShape(s) for s in flatten_up_to(structure, output_shapes, "output_shapes")])
        self.generator, self.structure = generator, structure
        self.spec = Spec(structure, shapes, types)
        self.tensors = [] if args is None else normalize(tuple(args), "from_generator(args=...)")[0]

    def iterate(self, context):
        args = [context.to_host(context.value(t)) for t in self.tensors]
        values = _py_func_errors(lambda: iter(self.generator(*args)))
        while True:
            try:
                value = _py_func_errors(lambda: next(values))
            except StopIteration:
                return
            yield [context.to_device(v) for v in self._check(value)]

    def _check(self, value):
        expected = pack(self.structure, [f"tf.{t.name}" for t in self.spec.types])
        try:
            parts = flatten_up_to(self.structure, value, "element")
        except TypeError:
            raise InvalidArgumentError(f"TypeError: `generator` yielded an element that did not match the "
                                       f"expected structure. The expected structure was {expected}, but the "
                                       f"yielded element was {value!r}.") from None
        arrays = []
        for part, dtype, shape in zip(parts, self.spec.types, self.spec.shapes):
            try:
                array = as_string_array(part) if dtype == dtypes.string else np.asarray(part, dtype=dtype)
            except (TypeError, ValueError):
                raise InvalidArgumentError(f"TypeError: `generator` yielded an element that could not be "
                                           f"converted to the expected type. The expected type was {dtype.name}, "
                                           f"but the yielded element was {part!r}.") from None
            if not shape.is_compatible_with(array.shape):
                raise InvalidArgumentError(f"ValueError: `generator` yielded an element of shape {array.shape} "
                                           f"where an element of shape {shape} was expected.")
            arrays.append(array)
        return arrays


# What the generator may raise as it is: the exceptions TF's py_func (under from_generator) turns into a class of
# their own, which Session.run's mapping gives the same one; every other exception is TF's UnknownError.
PY_FUNC_MAPPED = (ValueError, TypeError, StopIteration, MemoryError, NotImplementedError)


def _py_func_errors(call):
    try:
        return call()
    except PY_FUNC_MAPPED:
        raise
    except Exception as exc:  # noqa: BLE001 - the user's generator: anything it raises is reported as TF does
        raise UnknownError(None, None, f"{type(exc).__name__}: {exc}: raised by the generator of "
                           "Dataset.from_generator") from exc


class ZipStage(Stage):
    """Elements of several datasets side by side, until the shortest ends (Dataset.zip)."""

    def __init__(self, structure, stages):
        self.inputs = tuple(stages)
        self.spec = Spec(substitute(structure, [s.spec.structure for s in stages]),
                         [sh for s in stages for sh in s.spec.shapes], [t for s in stages for t in s.spec.types])

    def iterate(self, context):
        iterators = [iter(s.iterate(context)) for s in self.inputs]
        while True:
            element = []
            for it in iterators:
                part = next(it, None)
                if part is None:
                    return
                element += part
            yield element

    def cardinality(self, context):
        counts = [s.cardinality(context) for s in self.inputs]
        if UNKNOWN in counts:
            return UNKNOWN
        finite = [n for n in counts if n != INFINITE]
        return min(finite) if finite else INFINITE


class ConcatenateStage(Stage):
    """The elements of one dataset, then those of another of the same structure and types."""

    def __init__(self, first, second):
        if not first.spec.same_types(second.spec):
            raise TypeError(f"Two datasets to concatenate have different types {first.spec.output_types()} and "
                            f"{second.spec.output_types()}")
        self.inputs = (first, second)
        self.spec = Spec(first.spec.structure, [most_specific_compatible_shape(a, b) for a, b in
                                                zip(first.spec.shapes, second.spec.shapes)], first.spec.types)

    def iterate(self, context):
        for stage in self.inputs:
            yield from stage.iterate(context)

    def cardinality(self, context):
        counts = [s.cardinality(context) for s in self.inputs]
        return UNKNOWN if UNKNOWN in counts else INFINITE if INFINITE in counts else sum(counts)


class ListFilesStage(Stage):
    """The names of the files matching a glob pattern (or any of a vector of them), sorted (Dataset.list_files)."""

    def __init__(self, file_pattern):
        self.tensors = normalize(file_pattern, "Dataset.list_files()")[0]
        if self.tensors[0].dtype != dtypes.string:
            raise TypeError(f"`file_pattern` must be a string or a vector of strings, got {file_pattern!r}")
        self.spec = Spec(None, [()], [dtypes.string])

    def iterate(self, context):
        patterns = [p.decode() for p in np.asarray(context.to_host(context.value(self.tensors[0])),
                                                   dtype=object).reshape(-1)]
        names = sorted({name for pattern in patterns for name in gfile.Glob(pattern)})
        if not names:
            raise InvalidArgumentError(f"No files matched pattern: {', '.join(patterns)}")
        for name in names:
            yield [as_string_array(name.encode())]


class SparseSliceStage(Stage):
    """The rows of a SparseTensor as (indices, values, dense_shape) of each row (Dataset.from_sparse_tensor_slices)."""

    def __init__(self, sparse_tensor):
        indices, values, shape = sparse_tensor.indices, sparse_tensor.values, sparse_tensor.dense_shape
        self.tensors = [indices, values, shape]
        rank = shape.shape[0] if shape.shape.ndims == 1 else None
        self.spec = Spec((tuple, None, [None, None, None]),
                         [[None, None if rank is None else rank - 1], [None], [None if rank is None else rank - 1]],
                         [dtypes.int64, values.dtype, dtypes.int64])

    def iterate(self, context):
        value = SparseTensorValue(*(context.value(t) for t in self.tensors))
        for row in range(_rows(context, value)):
            yield list(_sparse_row(context, value, row))

    def cardinality(self, context):
        return int(context.to_host(context.value(self.tensors[2]))[0])
