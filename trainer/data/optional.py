"""tf.data.experimental.Optional: a value that may be missing, as Iterator.get_next_as_optional() returns at the
end of the data instead of raising OutOfRangeError.

An Optional is the bool tensor has_value() returns and the tensors of its value, all outputs of one op: one
Session.run that fetches both sees one element. get_value() raises InvalidArgumentError when run without a value.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.registry import register
from ..ops.core_ops import constant
from ..platform.errors import InvalidArgumentError, OutOfRangeError
from .runtime import initialized_iterator
from .structure import Spec, expand, normalize


def _next_kernel(op, session):
    shapes, types = op.attrs["output_shapes"], op.attrs["output_types"]

    def run(handle):
        resource = initialized_iterator(session, handle, "GetNext()", f"getting the next element (op {op.name!r})")
        try:
            element = expand(resource.next())
        except OutOfRangeError:
            empty = [np.zeros([d or 0 for d in s] if s.ndims is not None else [0], dtype=np.dtype(t))
                     for s, t in Spec(None, shapes, types).physical()]
            return tuple(session.to_device(e) for e in [np.array(False)] + empty)
        return (session.to_device(np.array(True)),) + tuple(element)
    return run


def _get_value_kernel(op, session):
    def run(has_value, *values):
        if not session.to_host(has_value):
            raise InvalidArgumentError("The optional does not have a value")
        return values[0] if len(values) == 1 else values
    return run


register("IteratorGetNextAsOptional", kernel=_next_kernel, persistent=True, infer=lambda handle, **attrs: [
    ((), dtypes.bool)] + Spec(None, attrs["output_shapes"], attrs["output_types"]).physical())
register("OptionalGetValue", kernel=_get_value_kernel, persistent=True, infer=lambda has, *values, **attrs: [
    (v.shape, v.dtype) for v in values])


class Optional:
    """A value of a known structure that may be missing."""

    def __init__(self, has_value, components, spec):
        self._has_value, self._components, self._spec = has_value, list(components), spec

    @staticmethod
    def from_value(value):
        """An Optional holding `value` (a nested structure of tensors)."""
        tensors, structure = normalize(value, "Optional.from_value()")
        return Optional(constant(True, name="OptionalFromValue"), tensors, Spec.of(tensors, structure))

    def has_value(self, name=None):
        """A scalar bool tensor: whether there is a value."""
        return self._has_value

    def get_value(self, name=None):
        """The value's tensors, in its structure; InvalidArgumentError when run without a value."""
        op = get_default_graph().create_op("OptionalGetValue", [self._has_value] + self._components,
                                           [(t.shape, t.dtype) for t in self._components],
                                           name=name or "OptionalGetValue")
        return self._spec.pack_tensors(op.outputs)

    @property
    def value_structure(self):
        return self._spec.output_types()


def next_as_optional(handle, spec):
    """An Optional of the next element of the iterator `handle` (empty at the end of its data)."""
    op = handle.graph.create_op("IteratorGetNextAsOptional", [handle], [((), dtypes.bool)] + spec.physical(),
                                name="IteratorGetNextAsOptional",
                                attrs={"output_types": tuple(spec.types), "output_shapes": tuple(spec.shapes)})
    return Optional(op.outputs[0], op.outputs[1:], spec)


def get_next_as_optional(iterator):
    """iterator.get_next_as_optional(): an Optional of its next element."""
    return iterator.get_next_as_optional()
