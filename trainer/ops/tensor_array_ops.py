"""TF1's TensorArray kernels (TensorArrayV3 and the ops on its handle), as TensorFlow writes them into graphs around
and inside while loops: dynamic_rnn's inputs and outputs, map_fn's, tf.TensorArray loops.

TensorArrayV3 gives a handle (a resource: the array's elements, made anew each run, as TF's op makes a fresh array
per step) and a `flow`, a float scalar every read and write takes and writes give on, which orders them: a loop
carries the flow, never the handle. A handle captured into a loop body is the same object in every iteration, so
writes inside the loop are what a gather after it reads.

Gradients are TF's: an array's gradient is a second array (TensorArrayGradV3, one per array and `source`, made on
first use, summing what is written twice), and the gradient of a read is a write into it, of a write a read, of a
gather a scatter, of a scatter a gather; the flows carry the order, so a loop's gradient (WhileGrad) reads what the
gather's gradient wrote. So an imported dynamic_rnn or map_fn trains in ringflow.
"""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, get_array_module, register, to_numpy
from ..framework.tensor_shape import TensorShape
from ..platform.errors import InvalidArgumentError

FLOW = (TensorShape([]), dtypes.float32)


class TensorArrayState:
    """One run's elements of a TensorArrayV3: index -> array; `forward`: the array this one is the gradient of."""

    def __init__(self, name, size, dtype, element_shape, dynamic_size, forward=None):
        self.name, self.size, self.dtype, self.dynamic_size = name, size, dtype, dynamic_size
        self.element_shape, self.elements, self.forward, self.grads = element_shape, {}, forward, {}

    def grad(self, source):
        """The gradient array of this one for the gradients named `source` (TensorArrayGradV3)."""
        if source not in self.grads:
            self.grads[source] = TensorArrayState(f"{self.name}@{source}", self.size, self.dtype, self.element_shape,
                                                  True, forward=self)
        return self.grads[source]

    def write(self, index, value):
        index = int(to_numpy(index))
        if index < 0 or (index >= self.size and not self.dynamic_size):
            raise InvalidArgumentError(f"TensorArray {self.name!r}: writing index {index} out of its size "
                                       f"{self.size} (it is not dynamic_size)")
        if index in self.elements and self.forward is not None:  # gradients of two reads of one element add up
            self.elements[index] = self.elements[index] + value
            return
        if index in self.elements:
            raise InvalidArgumentError(f"TensorArray {self.name!r}: index {index} was already written; a "
                                       "TensorArray's elements are written once")
        self.elements[index] = value
        self.size = max(self.size, index + 1)

    def read(self, index):
        index = int(to_numpy(index))
        if index not in self.elements:
            if self.forward is not None and index in self.forward.elements:  # a gradient nothing wrote: zeros
                return get_array_module(self.forward.elements[index]).zeros_like(self.forward.elements[index])
            if 0 <= index < self.size and self.element_shape.is_fully_defined():
                return np.zeros(self.element_shape.as_list(), self.dtype)  # TF reads an unwritten element as zeros
            raise InvalidArgumentError(f"TensorArray {self.name!r}: reading index {index}, which was not written "
                                       f"(size {self.size})")
        return self.elements[index]

    def gather(self, indices):
        values = [self.read(i) for i in to_numpy(indices).reshape(-1)]  # positions live on the host, as TF's
        if values:
            return get_array_module(values[0]).stack(values)
        if not self.element_shape.is_fully_defined():
            raise InvalidArgumentError(f"TensorArray {self.name!r} is empty and its element_shape "
                                       f"{self.element_shape} is not fully defined, so its stack has no shape")
        return np.zeros([0] + self.element_shape.as_list(), self.dtype)


def _element_shape(element_shape):
    return TensorShape(None) if element_shape is None else TensorShape(element_shape)


def _elements_of(handle, element_shape=None):
    """The element shape a read or gather gives: its own attr, else the TensorArrayV3's that made `handle`."""
    if element_shape is None and handle.op.type == "TensorArrayV3":
        element_shape = handle.op.attrs.get("element_shape")
    return _element_shape(element_shape)


def _create(op, session):
    a = op.attrs

    def run(size):
        state = TensorArrayState(a.get("tensor_array_name") or op.name, int(size), np.dtype(a["dtype"]),
                                 _element_shape(a.get("element_shape")), bool(a.get("dynamic_size")))
        return state, session.to_device(np.zeros((), np.float32))
    return run


register("TensorArrayV3", kernel=_create,
         infer=lambda size, dtype, **attrs: [(TensorShape([2]), dtypes.resource), FLOW],
         grad=lambda op, *grads: [None])  # the flow's gradient ends here: the array's values came through writes


def _write(handle, index, value, flow):
    handle.write(index, value)
    return flow


def _scatter(handle, indices, value, flow):
    for k, i in enumerate(to_numpy(indices).reshape(-1)):
        handle.write(i, value[k])
    return flow


def _split(handle, value, lengths, flow):
    start = 0
    for k, n in enumerate(to_numpy(lengths).reshape(-1)):
        handle.write(k, value[start:start + int(n)])
        start += int(n)
    return flow


def _concat(handle, flow, element_shape_except0):
    values = [handle.read(i) for i in range(handle.size)]  # elements of different lengths: no stack between
    lengths = np.array([len(v) for v in values], np.int64)
    if not values:
        rest = _element_shape(element_shape_except0)
        if not rest.is_fully_defined():
            raise InvalidArgumentError(f"TensorArray {handle.name!r} is empty and its element_shape_except0 {rest} "
                                       "is not fully defined, so its concatenation has no shape")
        return np.zeros([0] + rest.as_list(), handle.dtype), lengths
    return get_array_module(values[0]).concatenate(values), lengths


def _grad_array(op, flow):
    """The gradient array of the array `op` reads or writes, and its flow. Its source is TF's: the name scope of
    the tf.gradients call building it ("gradients", "gradients_1", ...), so that every gradient op of one call, in a
    loop's gradient or around it, and TF's own in an imported graph, meet in one array."""
    parts = op.graph.get_name_scope().split("/")
    first = next((i for i, part in enumerate(parts) if part.startswith("gradients")), None)
    source = "gradients" if first is None else "/".join(parts[:first + 1])
    return apply_op("TensorArrayGradV3", [op.inputs[0], flow], name=f"{op.name}_grad/TensorArrayGrad", source=source)


def _element_of(stacked):
    return None if stacked.shape.ndims is None else stacked.shape[1:]


def _write_grad(op, g_flow):
    array, flow = _grad_array(op, g_flow)
    return [None, None, apply_op("TensorArrayReadV3", [array, op.inputs[1], flow], name=f"{op.name}_grad/read",
                                 dtype=op.inputs[2].dtype), g_flow]


def _scatter_grad(op, g_flow):
    array, flow = _grad_array(op, g_flow)
    return [None, None, apply_op("TensorArrayGatherV3", [array, op.inputs[1], flow], name=f"{op.name}_grad/gather",
                                 dtype=op.inputs[2].dtype, element_shape=_element_of(op.inputs[2])), g_flow]


def _read_grad(op, g):
    array, flow = _grad_array(op, op.inputs[2])
    return [None, None, apply_op("TensorArrayWriteV3", [array, op.inputs[1], g, flow], name=f"{op.name}_grad/write")]


def _gather_grad(op, g):
    array, flow = _grad_array(op, op.inputs[2])
    return [None, None, apply_op("TensorArrayScatterV3", [array, op.inputs[1], g, flow],
                                 name=f"{op.name}_grad/scatter")]


register("TensorArrayGradV3", lambda handle, flow, source="": (handle.grad(source), flow),
         infer=lambda handle, flow, **attrs: [(TensorShape([2]), dtypes.resource), FLOW])
register("TensorArrayWriteV3", lambda handle, index, value, flow: _write(handle, index, value, flow),
         infer=lambda *inputs, **attrs: [FLOW], grad=_write_grad)
register("TensorArrayScatterV3", lambda handle, indices, value, flow: _scatter(handle, indices, value, flow),
         infer=lambda *inputs, **attrs: [FLOW], grad=_scatter_grad)
register("TensorArraySplitV3", lambda handle, value, lengths, flow: _split(handle, value, lengths, flow),
         infer=lambda *inputs, **attrs: [FLOW])
register("TensorArrayReadV3", lambda handle, index, flow, dtype=None: handle.read(index),
         infer=lambda handle, index, flow, dtype, **attrs: [(_elements_of(handle), dtypes.as_dtype(dtype))],
         grad=_read_grad)
register("TensorArrayGatherV3",
         lambda handle, indices, flow, dtype=None, element_shape=None: handle.gather(indices),
         infer=lambda handle, indices, flow, dtype, element_shape=None, **attrs: [
             (TensorShape(indices.shape).concatenate(_elements_of(handle, element_shape)), dtypes.as_dtype(dtype))],
         grad=_gather_grad)
register("TensorArrayConcatV3", lambda handle, flow, dtype=None, element_shape_except0=None: _concat(handle, flow, element_shape_except0),
         infer=lambda handle, flow, dtype, **attrs: [(TensorShape(None), dtypes.as_dtype(dtype)),
                                                     (TensorShape([None]), dtypes.int64)])
register("TensorArraySizeV3", lambda handle, flow: np.int32(handle.size),
         infer=lambda handle, flow: [(TensorShape([]), dtypes.int32)])
register("TensorArrayCloseV3", lambda handle: None, infer=lambda handle: [])
