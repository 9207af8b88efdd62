"""TF1's queues (tf.FIFOQueue, RandomShuffleQueue, PaddingFIFOQueue, PriorityQueue and tf.queue.*) as graph ops.

A queue op outputs a scalar tg.string handle naming the queue's state in the session (queue_state.py), made
when the op first runs; enqueue, dequeue, close, size and is_closed ops take that handle, as TF1's QueueV2 ops
take their resource handle. Op types and default names are TF1's ("fifo_queue", "fifo_queue_Dequeue", ...).
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.random_seed import get_seed
from ..framework.registry import on_host, register
from ..framework.stacks import run_deadline
from ..framework.graph import get_default_graph
from ..framework.tensor_shape import TensorShape
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .queue_state import QUEUES, QueueState, check_element
from .tensor_util import constant_value

_HANDLE = [((), dtypes.string)]


def _queue_kernel(op, session):
    name = op.attrs["shared_name"] or op.name
    handle = np.array(name.encode(), dtype=object)
    kind = op.type[:-2]  # FIFOQueueV2 -> FIFOQueue, as TF1's messages name the kind

    def create():
        rng = session.rng(op).numpy_generator() if kind == "RandomShuffleQueue" else None  # seeded, not TF's order
        return QueueState(name, kind, op.attrs["capacity"], op.attrs.get("min_after_dequeue", 0), rng)

    def run():
        session.resources.lookup_or_create(QUEUES, name, create)
        return handle
    return run


def _state(session, handle):
    return session.resources.lookup(QUEUES, handle[()].decode())


def _enqueue_kernel(many):
    def make(op, session):
        shapes, types = op.inputs[0].op.attrs["shapes"], op.inputs[0].op.attrs["component_types"]

        def run(handle, *values):
            queue = _state(session, handle)
            queue.enqueue_many(check_element(queue.name, values, shapes, types, many), run_deadline())
        return run
    return make


def _dequeue_kernel(op, session):
    single = len(op.outputs) == 1

    def run(handle, *n):
        queue = _state(session, handle)
        if not n:
            element = queue.dequeue_many(1, run_deadline())[0]
            return element[0] if single else tuple(element)
        count = int(n[0])
        if count < 0:
            raise InvalidArgumentError(f"{op.name!r}: the number of elements to dequeue must be >= 0, got {count}")
        elements = queue.dequeue_many(count, run_deadline(), up_to=op.type == "QueueDequeueUpToV2")
        queue_op = op.inputs[0].op
        batch = [_stack([e[i] for e in elements], shape, t.dtype, queue_op.type == "PaddingFIFOQueueV2")
                 for i, (shape, t) in enumerate(zip(queue_op.attrs["shapes"], op.outputs))]
        return batch[0] if single else tuple(batch)
    return run


def _stack(values, shape, dtype, pad):
    if not values:
        return np.zeros((0,) + tuple(d or 0 for d in (shape or ())), dtype=np.dtype(dtype))
    if pad:
        full = np.max([np.shape(v) for v in values], axis=0) if np.ndim(values[0]) else ()
        out = np.full((len(values),) + tuple(full), b"" if dtype == dtypes.string else 0, dtype=np.dtype(dtype))
        for i, v in enumerate(values):
            out[(i,) + tuple(slice(0, d) for d in np.shape(v))] = v
        return out
    return np.stack(values)


def _close_kernel(op, session):
    cancel = op.attrs["cancel_pending_enqueues"]
    return lambda handle: _state(session, handle).close(cancel)


def _size_kernel(op, session):
    return lambda handle: np.int32(_state(session, handle).size())


def _is_closed_kernel(op, session):
    return lambda handle: np.bool_(_state(session, handle).closed)


for _kind in ("FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2", "PriorityQueueV2"):
    register(_kind, kernel=on_host(_queue_kernel), infer=lambda **attrs: _HANDLE)
register("QueueEnqueueV2", kernel=on_host(_enqueue_kernel(False)), infer=lambda *t, **attrs: [])
register("QueueEnqueueManyV2", kernel=on_host(_enqueue_kernel(True)), infer=lambda *t, **attrs: [])
for _kind in ("QueueDequeueV2", "QueueDequeueManyV2", "QueueDequeueUpToV2"):
    register(_kind, kernel=on_host(_dequeue_kernel),
             infer=lambda *t, **attrs: [(None, d) for d in attrs["component_types"]])
register("QueueCloseV2", kernel=on_host(_close_kernel), infer=lambda handle, **attrs: [])
register("QueueSizeV2", kernel=on_host(_size_kernel), infer=lambda handle: [((), dtypes.int32)])
register("QueueIsClosedV2", kernel=on_host(_is_closed_kernel), infer=lambda handle: [((), dtypes.bool)])


class QueueBase:
    """A queue of tuples of tensors (TF1's tf.queue.QueueBase): its ops belong to the queue's graph."""

    def __init__(self, dtypes, shapes, names, queue_ref):  # noqa: A002 - TF1's argument name
        self._dtypes, self._shapes, self._names, self._queue_ref = dtypes, shapes, names, queue_ref
        self._name = queue_ref.op.name.split("/")[-1]

    @staticmethod
    def from_list(index, queues):
        raise NotImplementedError("QueueBase.from_list (a queue picked by a tensor index) is not implemented: "
                                  "pick the queue in Python, or use tg.cond around each queue's ops")

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._queue_ref.op.name

    @property
    def dtypes(self):
        return self._dtypes

    @property
    def shapes(self):
        return self._shapes

    @property
    def names(self):
        return self._names

    def _components(self, vals, what):
        if isinstance(vals, dict):
            if self._names is None:
                raise ValueError(f"Queue {self.name!r} must have names to enqueue a dictionary")
            if sorted(self._names) != sorted(vals):
                raise ValueError(f"Keys in dictionary to {what} do not match names of Queue {self.name!r}. "
                                 f"Dictionary: {sorted(vals)}, Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        elif self._names is not None:
            raise ValueError(f"You must enqueue a dictionary in a Queue with names ({self.name!r}: {self._names})")
        elif not isinstance(vals, (list, tuple)):
            vals = [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Queue {self.name!r} holds {len(self._dtypes)} component(s) "
                             f"({[d.name for d in self._dtypes]}); {what} got {len(vals)}")
        return [convert_to_tensor(v, dtype=d, name=f"component_{i}")
                for i, (v, d) in enumerate(zip(vals, self._dtypes))]

    def _op(self, op_type, inputs, specs, name, **attrs):
        return self._queue_ref.graph.create_op(op_type, [self._queue_ref] + inputs, specs, name=name, attrs=attrs)

    def enqueue(self, vals, name=None):
        """An op adding one element; it waits while the queue is full."""
        with name_scope(name, f"{self._name}_enqueue") as scope:
            vals = self._components(vals, "enqueue")
            for v, shape in zip(vals, self._shapes):
                v.shape.assert_is_compatible_with(shape)
            return self._op("QueueEnqueueV2", vals, [], scope)

    def enqueue_many(self, vals, name=None):
        """An op adding each row of `vals`' first dimension as an element."""
        with name_scope(name, f"{self._name}_EnqueueMany") as scope:
            vals = self._components(vals, "enqueue_many")
            batch = TensorShape(vals[0].shape[:1]) if vals[0].shape.ndims else TensorShape([None])
            for v, shape in zip(vals, self._shapes):
                if v.shape.ndims == 0:
                    raise ValueError(f"enqueue_many needs components with a batch dimension, got {v.name!r} "
                                     "of shape ()")
                batch = batch.merge_with(v.shape[:1])
                if v.shape.ndims is not None:
                    TensorShape(v.shape[1:]).assert_is_compatible_with(shape)
            return self._op("QueueEnqueueManyV2", vals, [], scope)

    def _out(self, outputs):
        outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        if self._names is not None:
            return dict(zip(self._names, outputs))
        return outputs[0] if len(outputs) == 1 else outputs

    def dequeue(self, name=None):
        """The next element; running it waits for one, and raises OutOfRangeError once closed and empty."""
        specs = [(TensorShape(s), d) for s, d in zip(self._shapes, self._dtypes)]
        op = self._op("QueueDequeueV2", [], specs, name or f"{self._name}_Dequeue",
                      component_types=tuple(self._dtypes))
        return self._out(op.outputs)

    def _dequeue_n(self, op_type, n, name, default):
        n = convert_to_tensor(n, dtype=dtypes.int32, name="n")
        batch = constant_value(n) if op_type == "QueueDequeueManyV2" else None
        batch = None if batch is None else int(batch)
        specs = [(TensorShape([batch]).concatenate(s), d) for s, d in zip(self._shapes, self._dtypes)]
        return self._out(self._op(op_type, [n], specs, name or f"{self._name}_{default}",
                                  component_types=tuple(self._dtypes)).outputs)

    def dequeue_many(self, n, name=None):
        """`n` elements stacked on a new first dimension; fewer left in a closed queue is OutOfRangeError."""
        return self._dequeue_n("QueueDequeueManyV2", n, name, "DequeueMany")

    def dequeue_up_to(self, n, name=None):
        """Like dequeue_many, but a closed queue gives what it has left (at least one element)."""
        return self._dequeue_n("QueueDequeueUpToV2", n, name, "DequeueUpTo")

    def close(self, cancel_pending_enqueues=False, name=None):
        """An op closing the queue: no more enqueues; with cancel_pending_enqueues, waiting ones fail too."""
        return self._op("QueueCloseV2", [], [], name or f"{self._name}_Close",
                        cancel_pending_enqueues=bool(cancel_pending_enqueues))

    def is_closed(self, name=None):
        return self._op("QueueIsClosedV2", [], [((), dtypes.bool)], name or f"{self._name}_Is_Closed").outputs[0]

    def size(self, name=None):
        return self._op("QueueSizeV2", [], [((), dtypes.int32)], name or f"{self._name}_Size").outputs[0]


def _queue(op_type, capacity, types, shapes, names, shared_name, name, partial=False, **attrs):
    types = [dtypes.as_dtype(t) for t in (types if isinstance(types, (list, tuple)) else [types])]
    shapes = _shapes(shapes, len(types), partial)
    if names is not None:
        names = list(names) if isinstance(names, (list, tuple)) else [names]
        if len(names) != len(types):
            raise ValueError(f"Queue names must have one name per component: got {len(names)} names for "
                             f"{len(types)} dtypes")
    attrs = dict(attrs, component_types=tuple(types), capacity=None if capacity < 0 else int(capacity),
                 shared_name=shared_name or "", shapes=tuple(None if s.ndims is None else tuple(s) for s in shapes))
    ref = get_default_graph().create_op(op_type, [], _HANDLE, name=name, attrs=attrs).outputs[0]
    return types, shapes, names, ref


def _shapes(shapes, count, partial):
    """TF1's _as_shape_list: one shape per component; a list of ints is one shape."""
    if partial and (not isinstance(shapes, (list, tuple)) or not shapes
                    or any(s is None or isinstance(s, int) for s in shapes)):
        raise ValueError("When providing partial shapes, a list of shapes must be provided.")
    if shapes is None:
        return [TensorShape(None)] * count
    if isinstance(shapes, TensorShape) or all(s is None or isinstance(s, int) for s in shapes):
        shapes = [shapes]
    if len(shapes) != count:
        raise ValueError(f"Queue shapes must have one shape per component: got {len(shapes)} shapes for "
                         f"{count} dtypes")
    shapes = [TensorShape(s) for s in shapes]
    if not partial and not all(s.is_fully_defined() for s in shapes if s.ndims is not None):
        raise ValueError(f"All shapes must be fully defined: {shapes} (a PaddingFIFOQueue, or batch(..., "
                         "dynamic_pad=True), takes unknown dimensions)")
    return shapes


class FIFOQueue(QueueBase):
    """A queue handing out its elements in first-in first-out order."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,  # noqa: A002 - TF1's name
                 name="fifo_queue"):
        super().__init__(*_queue("FIFOQueueV2", capacity, dtypes, shapes, names, shared_name, name))


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose shapes may have unknown dimensions; dequeue_many pads each batch to its largest element
    with zeros (empty strings)."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,  # noqa: A002 - TF1's name
                 name="padding_fifo_queue"):
        super().__init__(*_queue("PaddingFIFOQueueV2", capacity, dtypes, shapes, names, shared_name, name,
                                 partial=True))


class RandomShuffleQueue(QueueBase):
    """A queue handing out its elements in random order, keeping at least `min_after_dequeue` of them (to mix)
    until it is closed."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None,  # noqa: A002 - TF1's name
                 seed=None, shared_name=None, name="random_shuffle_queue"):
        seed1, seed2 = get_seed(seed)
        super().__init__(*_queue("RandomShuffleQueueV2", capacity, dtypes, shapes, names, shared_name, name,
                                 min_after_dequeue=int(min_after_dequeue), seed=seed1, seed2=seed2))


class PriorityQueue(QueueBase):
    """A queue handing out the element of smallest priority first; each element's first component is its
    priority (a scalar int64), before the components of `types`."""

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        types = list(types) if isinstance(types, (list, tuple)) else [types]
        if shapes is not None:
            shapes = [()] + [s for s in _shapes(shapes, len(types), False)]
        if names is not None:
            names = ["priority"] + (list(names) if isinstance(names, (list, tuple)) else [names])
        super().__init__(*_queue("PriorityQueueV2", capacity, [dtypes.int64] + types, shapes, names, shared_name,
                                 name))
