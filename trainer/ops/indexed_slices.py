"""TF1's IndexedSlices: rows `values[i]` of a tensor at row `indices[i]`, the others zero. ringflow's gradients are
dense, so it makes none itself; programs that build one (or test gradients for one) get TF's class, which converts
to its dense tensor (rows at repeated indices add up) wherever a Tensor is expected, and is fetched as an
IndexedSlicesValue. as_slices reads a dense gradient that TF makes an IndexedSlices (a gather's) back as its rows,
which is how optimizers find their sparse updates."""
import collections

from ..framework.tensor_shape import TensorShape
from .array_ops import concat, reshape, shape as shape_of
from .core_ops import convert_to_tensor, register_tensor_conversion_function
from .segment_ops import unsorted_segment_sum
from .tensor_util import constant_value, static_shape


class IndexedSlicesValue(collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])):
    """An IndexedSlices' value: numpy values, indices and dense_shape (what Session.run returns for one)."""


class IndexedSlices:
    """Sparse rows of a dense tensor: `values` (rows), `indices` (their row numbers), `dense_shape` (optional)."""

    def __init__(self, values, indices, dense_shape=None):
        # kept as given, as TF keeps them: converted when the slices are made dense
        self._values, self._indices, self._dense_shape = values, indices, dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    name = property(lambda self: self._values.name)
    op = property(lambda self: self._values.op)
    graph = property(lambda self: self._values.graph)
    device = property(lambda self: self._values.op.device)
    dtype = property(lambda self: self._values.dtype)

    @property
    def shape(self):
        """The dense tensor's static shape: dense_shape's value where it is known while building."""
        if self._dense_shape is None:
            return TensorShape(None)
        known = constant_value(self._dense_shape)
        if known is not None:
            return TensorShape([int(d) for d in known])
        length = static_shape(self._dense_shape)
        return TensorShape(None if length is None or length[0] is None else [None] * length[0])

    def __repr__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!r}"
        return f"IndexedSlices(indices={self._indices!r}, values={self._values!r}{shape})"


def _to_dense(value, dtype=None, name=None, as_ref=False):
    if value.dense_shape is None:
        raise ValueError(f"Tensor conversion requested for IndexedSlices without dense_shape: {value!r}; give it a "
                         "dense_shape")
    known = constant_value(value.dense_shape)  # a known row count gives the dense tensor its static shape, as TF's
    rows = value.dense_shape[0] if known is None else int(known[0])
    dense = unsorted_segment_sum(value.values, value.indices, rows, name=name)
    return dense if dtype is None else convert_to_tensor(dense, dtype=dtype)


register_tensor_conversion_function(IndexedSlices, _to_dense)


def as_slices(grad):
    """`grad` as the IndexedSlices TF1's gradient would be, or None where TF's is dense too.

    An IndexedSlices is itself; ringflow's gradient of a gather along axis 0 (a GatherGrad of g at indices) is
    g's rows at the flattened indices; a sum (AddN) of such gradients is their rows concatenated, as TF1 aggregates
    IndexedSlices gradients; an identity of one is it, and one times a scalar its values times the scalar."""
    if isinstance(grad, IndexedSlices) or grad is None:
        return grad
    op = grad.op
    if op.type == "GatherGrad" and op.attrs.get("axis") == 0:
        g, indices, params = op.inputs
        row = params.shape.as_list()[1:] if params.ndim is not None else None
        if row is None or None in row:
            return None
        with op.graph.as_default():
            return IndexedSlices(reshape(g, [-1] + row), reshape(indices, [-1]), shape_of(params))
    if op.type == "Identity":  # clip_by_global_norm's, tf.tuple's: TF's pass an IndexedSlices on
        return as_slices(op.inputs[0])
    if op.type == "Mul":  # scaled by a scalar (clipping, loss scaling): TF scales the values
        for rows, factor in (op.inputs, op.inputs[::-1]):
            slices = as_slices(rows) if factor.ndim == 0 else None
            if slices is not None:
                with op.graph.as_default():
                    return IndexedSlices(slices.values * factor, slices.indices, slices.dense_shape)
        return None
    if op.type == "AddN":
        parts = [as_slices(t) for t in op.inputs]
        if parts and all(part is not None for part in parts):
            with op.graph.as_default():
                return IndexedSlices(concat([p.values for p in parts], 0), concat([p.indices for p in parts], 0),
                                     parts[0].dense_shape)
    return None
