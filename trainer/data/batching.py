"""The stages that change the leading dimension: batch, padded_batch and unbatch."""
import itertools

import numpy as np

from ..framework import dtypes
from ..platform.errors import DataLossError, InvalidArgumentError
from ..framework.tensor import Tensor
from ..framework.registry import get_array_module
from ..ops.tensor_util import constant_value
from ..framework.tensor_shape import TensorShape
from .stage import Stage, check, scalar, static
from ..ops.sparse_tensor import SparseTensorValue
from .structure import Spec, SparseType, flatten_up_to, to_tensor


def _batch_size(batch_size, drop_remainder):
    size = scalar(batch_size, dtypes.int64, "batch_size")
    check(size, lambda n: n > 0, "Batch size must be greater than zero, got {!r}.")
    drop = scalar(drop_remainder, dtypes.bool, "drop_remainder")
    known = static(size) if static(drop) else None  # the batch dimension is static only when a short batch is dropped
    return size, drop, known


def _chunks(context, stage, size_tensor, drop_tensor):
    size, drop = context.scalar(size_tensor), context.scalar(drop_tensor)
    if size <= 0:
        raise InvalidArgumentError("Batch size must be greater than zero.")
    elements = iter(stage.iterate(context))
    while True:
        chunk = list(itertools.islice(elements, size))
        if not chunk or drop and len(chunk) < size:
            return
        yield chunk


def _batches(stage, context):
    n = stage.inputs[0].cardinality(context)
    size, drop = context.scalar(stage.tensors[0]), context.scalar(stage.tensors[1])
    return n if n < 0 else n // size if drop else -(-n // size)


def _shape(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


class BatchStage(Stage):
    """Consecutive elements stacked along a new first dimension of batch_size (the last batch may be shorter)."""

    def __init__(self, stage, batch_size, drop_remainder):
        size, drop, known = _batch_size(batch_size, drop_remainder)
        self.inputs, self.tensors = (stage,), [size, drop]
        self.spec = Spec(stage.spec.structure, [TensorShape([known]).concatenate(s) for s in stage.spec.shapes],
                         stage.spec.types)

    def iterate(self, context):
        for chunk in _chunks(context, self.inputs[0], *self.tensors):
            yield [stack_sparse(context, [e[i] for e in chunk]) if isinstance(chunk[0][i], SparseTensorValue)
                   else self._stack(i, [e[i] for e in chunk]) for i in range(len(chunk[0]))]

    cardinality = _batches

    @staticmethod
    def _stack(component, values):
        for j, v in enumerate(values[1:], 1):
            if v.shape != values[0].shape:
                raise InvalidArgumentError(
                    f"Cannot batch tensors with different shapes in component {component}. First element had "
                    f"shape {_shape(values[0].shape)} and element {j} had shape {_shape(v.shape)}.")
        return get_array_module(values[0]).stack(values)


class PaddedBatchStage(Stage):
    """Batches whose components are padded to padded_shapes (a dimension of -1/None: the longest in the
    batch) with padding_values (default 0, or b"" for strings). A padded shape may be an int64 vector tensor known
    only when the graph runs (bucket_by_sequence_length's bucket boundary): its dimensions are then unknown while
    building."""

    def __init__(self, stage, batch_size, padded_shapes, padding_values, drop_remainder):
        size, drop, known = _batch_size(batch_size, drop_remainder)
        spec = stage.spec
        _dense_only(spec, "padded_batch")
        given = flatten_up_to(spec.structure, padded_shapes, "padded_shapes")
        self.shape_tensors = {i: to_tensor(p, dtype=dtypes.int64, name=f"padded_shape_{i}")
                              for i, p in enumerate(given) if _runtime_shape(p)}
        shapes = [self._padded_shape(self.shape_tensors.get(i, p), s, i) for i, (p, s) in
                  enumerate(zip(given, spec.shapes))]
        values = ([b"" if t == dtypes.string else np.zeros((), t) for t in spec.types] if padding_values is None
                  else flatten_up_to(spec.structure, padding_values, "padding_values"))
        pads = [self._padding(v, t, i) for i, (v, t) in enumerate(zip(values, spec.types))]
        self.inputs, self.tensors = (stage,), [size, drop] + pads + list(self.shape_tensors.values())
        self.padded = shapes
        self.spec = Spec(spec.structure, [TensorShape([known]).concatenate(s) for s in shapes], spec.types)

    @staticmethod
    def _padding(value, dtype, i):
        pad = to_tensor(value, name=f"padding_value_{i}")
        if pad.shape.ndims not in (None, 0):
            raise ValueError(f"Padding value should be a scalar, but is not: {value!r} (component {i})")
        if pad.dtype != dtype:
            raise TypeError(f"Padding value tensor ({value!r}, {pad.dtype.name}) does not match output type: "
                            f"{dtype.name} (component {i}); give it that dtype, e.g. np.{dtype.name}(...)")
        return pad

    @staticmethod
    def _padded_shape(padded, input_shape, i):
        if isinstance(padded, Tensor):
            known = constant_value(padded)
            if known is None:
                if padded.shape.ndims != 1 or padded.shape[0] is None:
                    raise ValueError(f"padded_shapes for component {i} is {padded.name!r}, a tensor of shape "
                                     f"{padded.shape}: it must be a vector of known length (the rank)")
                return TensorShape([None] * padded.shape[0])
            padded = [None if d < 0 else int(d) for d in known]
        try:
            shape = TensorShape(padded)
        except (TypeError, ValueError):
            raise TypeError(f"padded_shapes for component {i} must be a shape (a list of ints, -1 or None for "
                            f"\"the longest in the batch\"), got {padded!r}") from None
        if shape.ndims is None:
            raise ValueError(f"padded_shapes for component {i} must have a known rank, got {padded!r}")
        if input_shape.ndims is not None and (shape.ndims != input_shape.ndims or any(
                p is not None and d is not None and p < d for p, d in zip(shape, input_shape))):
            raise ValueError(f"The padded shape {shape} is not compatible with the corresponding input component "
                             f"shape {input_shape} (component {i}).")
        return shape

    def iterate(self, context):
        pads = [context.value(t) for t in self.tensors[2:2 + len(self.padded)]]
        shapes = list(self.padded)
        for i, tensor in self.shape_tensors.items():
            shapes[i] = [None if d < 0 else int(d) for d in np.asarray(context.to_host(context.value(tensor)))]
        for chunk in _chunks(context, self.inputs[0], *self.tensors[:2]):
            yield [self._pad(shapes[i], i, [e[i] for e in chunk], pads[i]) for i in range(len(pads))]

    cardinality = _batches

    @staticmethod
    def _pad(padded, component, values, pad):
        for v in values:
            if v.ndim != len(padded):
                raise InvalidArgumentError(
                    f"All elements in a batch must have the same rank as the padded shape for component"
                    f"{component}: expected rank {len(padded)} but got element with rank {v.ndim}")
        target = tuple(max(v.shape[d] for v in values) if p is None else p for d, p in enumerate(padded))
        xp = get_array_module(values[0])
        out = xp.full((len(values),) + target, pad, dtype=values[0].dtype)
        for j, v in enumerate(values):
            if any(s > t for s, t in zip(v.shape, target)):
                raise DataLossError("Attempted to pad to a smaller size than the input element.")
            out[(j,) + tuple(slice(0, s) for s in v.shape)] = v
        return out


def stack_sparse(context, values):
    """Sparse values batched into one of a rank more: entry k of value j at [j] + its index, the dense shape the
    largest of each dimension (TF's batch of SparseTensors)."""
    host = [[np.asarray(context.to_host(a)) for a in v] for v in values]
    ranks = {len(shape) for _, _, shape in host}
    if len(ranks) > 1:
        raise InvalidArgumentError(f"Cannot batch SparseTensors of different ranks {sorted(ranks)}.")
    rank = ranks.pop() if ranks else 0
    indices = [np.concatenate([np.full((len(i), 1), j, np.int64), i.reshape(len(i), rank)], axis=1)
               for j, (i, _, _) in enumerate(host)]
    shape = np.max(np.stack([s for _, _, s in host]), axis=0) if host else np.zeros(0, np.int64)
    return SparseTensorValue(*(context.to_device(a) for a in (
        np.concatenate(indices).astype(np.int64), np.concatenate([v for _, v, _ in host]),
        np.concatenate([[len(values)], shape]).astype(np.int64))))


class DenseToSparseBatchStage(Stage):
    """batch_size consecutive elements of one tensor gathered into a SparseTensor of dense shape
    [batch, *row_shape] (None in row_shape: the largest in the batch), every entry of each element kept."""

    def __init__(self, stage, batch_size, row_shape):
        spec = stage.spec
        if spec.structure is not None or isinstance(spec.types[0], SparseType):
            raise TypeError(f"dense_to_sparse_batch needs a dataset of single dense tensors, got {spec}")
        if isinstance(row_shape, Tensor):
            row = row_shape
            rank = row.shape[0] if row.shape.ndims == 1 else None
            shape = TensorShape(None if rank is None else [None] * (rank + 1))
        else:
            dims = ([None if d is None else int(d) for d in row_shape] if isinstance(row_shape, (list, tuple))
                    else TensorShape(row_shape).as_list())
            for d in dims:
                if d is not None and d < 0:
                    raise ValueError(f"Dimension {d} must be >= 0 (row_shape {row_shape!r}: None for \"the "
                                     "largest in the batch\")")
            row = to_tensor([-1 if d is None else d for d in dims], dtype=dtypes.int64, name="row_shape")
            shape = TensorShape([None] + dims)
        size, drop, _ = _batch_size(batch_size, False)
        self.inputs, self.tensors = (stage,), [size, drop, row]
        self.spec = Spec(None, [shape], [SparseType(spec.types[0])])

    def iterate(self, context):
        row = [int(d) for d in np.asarray(context.to_host(context.value(self.tensors[2])))]
        for chunk in _chunks(context, self.inputs[0], *self.tensors[:2]):
            values = [np.asarray(context.to_host(e[0])) for e in chunk]
            for v in values:
                if v.ndim != len(row) or any(0 <= r < d for r, d in zip(row, v.shape)):
                    raise DataLossError(f"Input element had shape ({', '.join(map(str, v.shape))}) that "
                                               f"is incompatible with the row shape ({', '.join(map(str, row))}).")
            dense = [max((v.shape[d] for v in values), default=0) if r < 0 else r for d, r in enumerate(row)]
            indices = [np.concatenate([np.full((v.size, 1), j, np.int64),
                                       np.stack(np.unravel_index(np.arange(v.size), v.shape), axis=1)
                                       .reshape(v.size, v.ndim)], axis=1) for j, v in enumerate(values)]
            yield [SparseTensorValue(*(context.to_device(a) for a in (
                np.concatenate(indices).astype(np.int64), np.concatenate([v.reshape(-1) for v in values]),
                np.array([len(values)] + dense, np.int64))))]

    cardinality = _batches


def _dense_only(spec, what):
    if any(isinstance(t, SparseType) for t in spec.types):
        raise TypeError(f"{what}() of SparseTensor components is not available in ringflow ({spec}): batch() "
                        "them, or map them to dense tensors first (tf.sparse.to_dense)")


def _runtime_shape(padded):
    """True for a padded shape whose value is known only when the graph runs: a tensor, or a list holding one."""
    if isinstance(padded, Tensor):
        return constant_value(padded) is None
    return isinstance(padded, (list, tuple)) and any(isinstance(d, Tensor) for d in padded)


class UnbatchStage(Stage):
    """Each element's slices along its first dimension, as separate elements (tf.data.experimental.unbatch)."""

    def __init__(self, stage):
        _dense_only(stage.spec, "unbatch")
        shapes = stage.spec.shapes
        if any(s.ndims == 0 for s in shapes):
            raise ValueError("Cannot unbatch an input with scalar components.")
        known = {s[0] for s in shapes if s.ndims is not None and s[0] is not None}
        if len(known) > 1:
            raise ValueError(f"Cannot unbatch an input whose components have different batch sizes {sorted(known)}.")
        self.inputs = (stage,)
        self.spec = Spec(stage.spec.structure, [TensorShape(None) if s.ndims is None else s[1:] for s in shapes],
                         stage.spec.types)

    def iterate(self, context):
        for element in self.inputs[0].iterate(context):
            sizes = {v.shape[0] for v in element}
            if len(sizes) > 1:
                raise InvalidArgumentError(f"Input element components must have the same batch size, got "
                                           f"{sorted(sizes)}.")
            for i in range(element[0].shape[0]):
                yield [v[i, ...] for v in element]
