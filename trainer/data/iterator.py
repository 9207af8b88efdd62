"""TF1's tf.data.Iterator in graph mode: iterator ops of the user's graph whose kernels run a dataset's stages.

An iterator is a scalar tg.string handle made by an "IteratorV2" op (initializable, reinitializable) or a
"OneShotIterator" op; its value names the iterator's state in the session's resources (runtime.ITERATORS), which is
also what string_handle() returns and from_string_handle() looks up. "MakeIterator" (the initializer) takes
the handle and every tensor the dataset captured, so a placeholder used in from_tensor_slices is fed when the
initializer runs. "IteratorGetNext" takes the handle and outputs one element per Session.run: every op of
that run sees the same element, and the end of the data raises tg.errors.OutOfRangeError("End of sequence").
"""
import warnings

import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from ..framework.graph import get_default_graph
from ..ops.core_ops import convert_to_tensor
from ..framework.registry import op_def, register
from ..framework.tensor_shape import TensorShape
from .iterator_state import IteratorSaveable, policy_of
from .optional import next_as_optional
from .runtime import ITERATORS, Context, initialized_iterator, iterator_resource
from .stage import Stage, captures
from ..ops.sparse_tensor import SparseTensor
from .structure import Spec, SparseType, expand, flatten_types, flatten_up_to

GET_NEXT_CALL_WARNING_THRESHOLD = 32  # TF1 warns past this many get_next() calls on one iterator: a loop building ops
GLOBAL_ITERATORS = "iterators"  # TF1's collection of iterator handles
_STRING_SCALAR = [((), dtypes.string)]


def _handle_name(op):
    """The name of an iterator's state in a session: its shared_name if given (iterators that share it share
    the state, as in TF1), else its op's name, unique in the graph."""
    shared = op.attrs.get("shared_name")
    return f"shared:{shared}".encode() if shared else op.name.encode()


def _handle_value(op):
    return np.array(_handle_name(op), dtype=object)


def _keep(op):
    """Copy values a later op of the same run could overwrite in place (outputs of `fresh` ops): the iterator
    keeps them past this run."""
    copies = [op_def(t.op.type).fresh for t in op.inputs]
    return lambda values: [v.copy() if c else v for v, c in zip(values, copies)]


def _start(session, handle, stage, captured, values, source):
    resource = iterator_resource(session, handle)
    resource.start(stage, Context(session, dict(zip(captured, values)), resource), source)


def _iterator_kernel(op, session):
    handle = _handle_value(op)
    return lambda: handle


def _one_shot_kernel(op, session):
    stage, keep = op.attrs["dataset"], _keep(op)
    handle, value = _handle_name(op), _handle_value(op)

    def run(*values):
        if session.resources.lookup(ITERATORS, handle) is None:
            _start(session, handle, stage, op.inputs, keep(values), op.name)
        return value
    return run


def _make_iterator_kernel(op, session):
    stage, keep = op.attrs["dataset"], _keep(op)

    def run(handle, *values):
        _start(session, handle[()], stage, op.inputs[1:], keep((handle,) + values)[1:], op.name)
    return run


def _get_next_kernel(op, session):
    types, single = tuple(op.attrs["output_types"]), len(op.outputs) == 1

    def run(handle):
        resource = initialized_iterator(session, handle, "GetNext()", f"getting the next element (op {op.name!r})")
        if resource.types != types:
            raise InvalidArgumentError(f"The iterator {handle[()]!r} yields elements of types "
                                       f"{[t.name for t in resource.types]}, but {op.name!r} expects "
                                       f"{[t.name for t in types]}")
        element = expand(resource.next())
        return element[0] if single else tuple(element)
    return run


def _from_string_handle_kernel(op, session):
    def run(handle):
        if handle.shape != () or not isinstance(handle[()], bytes):
            raise InvalidArgumentError(f"An iterator handle is a scalar string from Iterator.string_handle(), "
                                       f"got {handle!r}")
        return handle
    return run


register("IteratorV2", kernel=_iterator_kernel, infer=lambda **attrs: _STRING_SCALAR)
register("OneShotIterator", kernel=_one_shot_kernel, infer=lambda *t, **attrs: _STRING_SCALAR)
register("MakeIterator", kernel=_make_iterator_kernel, infer=lambda *t, **attrs: [])
# persistent: an element may share memory with the dataset's data (a slice, a cached element), so fetches copy it
register("IteratorGetNext", kernel=_get_next_kernel, persistent=True,
         infer=lambda handle, **attrs: Spec(None, attrs["output_shapes"], attrs["output_types"]).physical())
register("IteratorToStringHandle", lambda handle: handle, infer=lambda handle: _STRING_SCALAR)
register("IteratorFromStringHandleV2", kernel=_from_string_handle_kernel, infer=lambda handle, **a: _STRING_SCALAR)


class Iterator:
    """The state of iterating through a Dataset (TF1's tf.data.Iterator); its ops belong to the default graph."""

    def __init__(self, iterator_resource, initializer, output_types, output_shapes, output_classes):
        self._spec = _spec(output_types, output_shapes, output_classes)
        self._handle, self._initializer = iterator_resource, initializer
        self._string_handle = None
        self._get_next_calls = 0
        iterator_resource.graph.add_to_collection(GLOBAL_ITERATORS, iterator_resource)

    @classmethod
    def _of(cls, handle, initializer, spec):
        return cls(handle, initializer, spec.output_types(), spec.output_shapes(), spec.output_classes())

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
        """A new iterator of this element structure, not bound to a dataset: make_initializer(ds) binds it."""
        spec = _spec(output_types, output_shapes, output_classes)
        return Iterator._of(_iterator_op(spec, shared_name), None, spec)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
        """An iterator that runs whichever iterator `string_handle` (a tg.string tensor, often a placeholder
        fed with a value of Iterator.string_handle()) names in each Session.run."""
        spec = _spec(output_types, output_shapes, output_classes)
        string_handle = convert_to_tensor(string_handle, dtype=dtypes.string)
        handle = get_default_graph().create_op("IteratorFromStringHandleV2", [string_handle], _STRING_SCALAR,
                                               name="IteratorFromStringHandleV2").outputs[0]
        return Iterator._of(handle, None, spec)

    @property
    def initializer(self):
        """The operation that (re)starts this iterator at the beginning of its dataset."""
        if self._initializer is None:
            raise ValueError("Iterator does not have an initializer.")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        """An operation that (re)starts this iterator on `dataset`, whose elements must fit its structure."""
        stage = getattr(dataset, "_stage", None)
        if not isinstance(stage, Stage):
            raise TypeError(f"make_initializer() needs a tf.data.Dataset, got {dataset!r}")
        _tensors_only(stage)
        mine, theirs = self._spec, stage.spec
        if not mine.same_types(theirs):
            raise TypeError(f"Expected output types {mine.output_types()!r} but got dataset with output types "
                            f"{theirs.output_types()!r}.")
        if not all(a.is_compatible_with(b) for a, b in zip(mine.shapes, theirs.shapes)):
            raise TypeError(f"Expected output shapes compatible with {mine.output_shapes()!r} but got dataset with "
                            f"output shapes {theirs.output_shapes()!r}.")
        return _make_iterator_op(self._handle, stage, name)

    def get_next(self, name=None):
        """The next element as a nested structure of Tensors: one element per Session.run that needs them."""
        self._get_next_calls += 1
        if self._get_next_calls > GET_NEXT_CALL_WARNING_THRESHOLD:
            warnings.warn("An unusually high number of `Iterator.get_next()` calls was detected: each call adds "
                          "an op. Call `next_element = iterator.get_next()` once, outside the training loop.")
        spec = self._spec
        op = self._handle.graph.create_op(
            "IteratorGetNext", [self._handle], spec.physical(), name=name or "IteratorGetNext",
            attrs={"output_types": tuple(spec.types), "output_shapes": tuple(spec.shapes)})
        return spec.pack_tensors(op.outputs)

    def get_next_as_optional(self):
        """An Optional of the next element: without a value at the end of the data, where get_next() raises."""
        return next_as_optional(self._handle, self._spec)

    def string_handle(self, name=None):
        """A scalar tg.string tensor naming this iterator, for from_string_handle()."""
        if name is None and self._string_handle is not None:
            return self._string_handle
        handle = self._handle.graph.create_op("IteratorToStringHandle", [self._handle], _STRING_SCALAR,
                                              name=name or "IteratorToStringHandle").outputs[0]
        if name is None:
            self._string_handle = handle
        return handle

    @property
    def output_types(self):
        return self._spec.output_types()

    @property
    def output_shapes(self):
        return self._spec.output_shapes()

    @property
    def output_classes(self):
        return self._spec.output_classes()


def make_saveable_from_iterator(iterator, external_state_policy=None):
    """A SaveableObject of the iterator's position for tf.train.Saver (add it to the SAVEABLE_OBJECTS collection or
    var_list): a restore resumes on the next element; external_state_policy ('fail', 'warn', 'ignore') says what a
    Python generator's dataset does."""
    if not isinstance(iterator, Iterator):
        raise TypeError(f"make_saveable_from_iterator() takes a tf.data Iterator, got {iterator!r}")
    handle = iterator._handle
    return IteratorSaveable(handle, handle.name, policy_of(external_state_policy))


def _spec(output_types, output_shapes, output_classes=None):
    """The Spec of an iterator's elements; a component whose class is SparseTensor is sparse."""
    types, structure = flatten_types(output_types)
    shapes = ([TensorShape(None)] * len(types) if output_shapes is None
              else [TensorShape(s) for s in flatten_up_to(structure, output_shapes, "output_shapes")])
    if output_classes is not None:
        classes = flatten_up_to(structure, output_classes, "output_classes")
        types = [SparseType(t) if c is SparseTensor else t for t, c in zip(types, classes)]
    return Spec(structure, shapes, types)


def _iterator_op(spec, shared_name):
    graph = get_default_graph()
    return graph.create_op("IteratorV2", [], _STRING_SCALAR, name="IteratorV2",
                           attrs={"shared_name": shared_name or ""}).outputs[0]


def _make_iterator_op(handle, stage, name=None):
    return handle.graph.create_op("MakeIterator", [handle] + captures(stage), [], name=name or "MakeIterator",
                                  attrs={"dataset": stage})


def _tensors_only(stage):
    if stage.spec.datasets():
        raise TypeError(f"An iterator hands out tensors, and the elements of this dataset hold datasets "
                        f"({stage.spec}): read each window with flat_map, e.g. .flat_map(lambda w: w.batch(n))")


def make_initializable_iterator(stage, shared_name=None):
    """An iterator over `stage` with an initializer op (which must run before get_next)."""
    _tensors_only(stage)
    handle = _iterator_op(stage.spec, shared_name)
    return Iterator._of(handle, _make_iterator_op(handle, stage), stage.spec)


def make_one_shot_iterator(stage):
    """An iterator over `stage` that initializes itself on first use; the dataset may not capture placeholders
    or variables (TF1 embeds its inputs by value)."""
    _tensors_only(stage)
    captured = captures(stage)
    _refuse_stateful(captured)
    graph = get_default_graph()
    handle = graph.create_op("OneShotIterator", captured, _STRING_SCALAR, name="OneShotIterator",
                             attrs={"dataset": stage}).outputs[0]
    return Iterator._of(handle, None, stage.spec)


def _refuse_stateful(tensors):
    seen, stack = set(), [t.op for t in tensors]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type in ("Placeholder", "PlaceholderWithDefault"):
            raise ValueError(f"Cannot capture a placeholder (name:{op.name}, type:{op.type}) by value: "
                             "a one-shot iterator cannot be fed; use make_initializable_iterator() and feed it "
                             "when running its initializer")
        if op.type == "VariableV2":
            raise ValueError("Failed to create a one-shot iterator for a dataset. `Dataset.make_one_shot_iterator()` "
                             "does not support datasets that capture stateful objects, such as a `Variable` or "
                             "`LookupTable`. In these cases, use `Dataset.make_initializable_iterator()`. "
                             f"(Original error: Cannot capture a stateful node (name:{op.name}, type:{op.type}) "
                             "by value.)")
        stack += [t.op for t in op.inputs] + list(op.control_inputs)

