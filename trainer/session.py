"""Session: compiles a plan per (fetches, feed keys) once, then replays it as a plain loop."""
import functools
import heapq
import operator
import threading

import numpy as np

from . import dtypes
from .errors import FailedPreconditionError
from .graph import Graph, Operation, Tensor, format_shape, get_default_graph
from .ops.core_ops import as_string_array
from .ops.registry import get_array_module, make_kernel, op_def


class VariableStore(dict):
    """Variable op -> its current array; reading a missing one names the uninitialized variable."""

    def __missing__(self, op):
        raise FailedPreconditionError(
            f"Attempting to use uninitialized value {op.name!r}: run tg.global_variables_initializer() "
            f"(or {op.name}.initializer) in this session first")


class Session:
    """Runs fetches from one graph; holds the values of its variables.

    TF1's arguments are (target, graph, config); `Session(g)` with a Graph first is taken as graph=g.
    `target` (a cluster address) and `config` (a ConfigProto) are stored for the cluster code; `device`
    ("cpu", "gpu", or a name given to register_device) is where this rank runs the whole graph: feeds,
    constants and variables go there through `to_device`, fetches come back through `to_host` at the end.
    """

    def __init__(self, target="", graph=None, config=None, device=None):
        if isinstance(target, Graph):
            target, graph = "", target
        if not isinstance(target, str):
            raise TypeError(f"Session's first argument is the target string (TF1's order is target, graph, "
                            f"config), got {target!r}; pass graph=... by keyword")
        self.target, self.config = target, config
        self.graph = graph if graph is not None else get_default_graph()
        self.variables = VariableStore()
        self.device = device or "cpu"
        self.to_device, self.to_host = _device_transfer(self.device)
        self._rngs = {}
        self._plans = {}
        self._closed = False
        self._entered = []
        if target.startswith("mpi://"):  # a worker of a tg.train.Server cluster: ps variables stay on the ps
            from .cluster import attach
            attach(self)

    @property
    def sess_str(self):
        return self.target

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate `fetches` (Tensor, Operation, name, or nested list/tuple/dict of them) as numpy values.

        `options` and `run_metadata` (TF1's RunOptions/RunMetadata) are accepted and ignored.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves, rebuild = _flatten(fetches)
        feed_keys = tuple(feed_dict) if feed_dict else ()
        key = (tuple(leaves), feed_keys)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = Plan(self, leaves, feed_keys)
        values = plan.execute(feed_dict.values() if feed_dict else ())
        return rebuild(values)

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function of the values for `feed_list` that runs `fetches` (TF1's Session.make_callable)."""
        feed_list = list(feed_list or ())

        def call(*feed_values, **options):
            if len(feed_values) != len(feed_list):
                raise ValueError(f"This callable takes {len(feed_list)} feed value(s) for {feed_list!r}, "
                                 f"got {len(feed_values)}")
            return self.run(fetches, dict(zip(feed_list, feed_values)) or None)
        return call

    def partial_run_setup(self, fetches, feeds=None):
        raise NotImplementedError("Session.partial_run_setup is not implemented: run the whole step with "
                                  "Session.run, feeding every placeholder it needs")

    def partial_run(self, handle, fetches, feed_dict=None):
        raise NotImplementedError("Session.partial_run is not implemented: run the whole step with "
                                  "Session.run, feeding every placeholder it needs")

    def rng(self, op):
        """The random generator of a random op in this session, seeded from the op's (seed, seed2)."""
        if op not in self._rngs:
            seed, seed2 = op.attrs.get("seed"), op.attrs.get("seed2")
            entropy = None if seed is None else [seed, seed2]
            self._rngs[op] = np.random.default_rng(np.random.SeedSequence(entropy))
        return self._rngs[op]

    def random_state(self):
        """Every random op's generator state by op name (JSON-able), so checkpoints can resume the streams."""
        return {op.name: rng.bit_generator.state for op, rng in self._rngs.items()}

    def set_random_state(self, states):
        """Continue each named random op's stream from a state random_state() returned."""
        for name, state in states.items():
            self.rng(self.graph.get_operation_by_name(name)).bit_generator.state = state

    def close(self):
        self._closed = True
        self.variables.clear()
        self._plans.clear()

    def as_default(self):
        """Make this the default session for eval()/run() (as in TF1, the default graph stays as it is)."""
        return _DefaultSession(self)

    def __enter__(self):
        """The session becomes the default session and its graph the default graph (TF1)."""
        graph_scope, session_scope = self.graph.as_default(), _DefaultSession(self)
        graph_scope.__enter__()
        session_scope.__enter__()
        self._entered.append((graph_scope, session_scope))
        return self

    def __exit__(self, *exc):
        graph_scope, session_scope = self._entered.pop()
        session_scope.__exit__(*exc)
        graph_scope.__exit__(*exc)
        self.close()


class InteractiveSession(Session):
    """A Session that makes itself (and its graph, if one is given) the default until close() (TF1)."""

    def __init__(self, target="", graph=None, config=None, device=None):
        super().__init__(target, graph, config, device)
        self._graph_scope = self.graph.as_default() if graph is not None else None
        if self._graph_scope is not None:
            self._graph_scope.__enter__()
        self._session_scope = _DefaultSession(self)
        self._session_scope.__enter__()

    def close(self):
        if not self._closed:
            self._session_scope.__exit__(None, None, None)
            if self._graph_scope is not None:
                self._graph_scope.__exit__(None, None, None)
        super().close()


class Plan:
    """The ops a run needs, topologically sorted (Kahn's algorithm), as (kernel, input slots, output slot)."""

    def __init__(self, session, leaves, feed_keys, branch=None):
        """`branch`, where set, makes this the sub-plan of one control-flow body (ops/control_flow_ops.py):
        it schedules only that body's ops, takes its captured values unchecked and returns arrays as they are."""
        graph = session.graph
        elements = [_element(graph, leaf, "fetch") for leaf in leaves]
        feeds = [_element(graph, key, "feed") for key in feed_keys]
        for t in feeds:
            if not isinstance(t, Tensor):
                raise TypeError(f"Only Tensors can be fed, got the Operation {t.name!r}")
        fed = set(feeds)
        ops = _topological_order(elements, fed, branch)
        slots = {}
        for t in feeds:
            slots[t] = len(slots)
        self.template, steps = [None] * len(feeds), []
        for op in ops:
            d = op_def(op.type)
            if op.type == "Placeholder" and not all(t in fed for t in op.outputs):
                raise ValueError(f"You must feed a value for placeholder tensor {op.outputs[0].name!r} with "
                                 f"dtype {op.outputs[0].dtype.name} and shape {format_shape(op.outputs[0].shape)}")
            outs = []
            for t in op.outputs:
                if t not in slots:
                    slots[t] = len(self.template)
                    self.template.append(None)
                outs.append(slots[t])
            if d.constant:
                self.template[outs[0]] = session.to_device(op.attrs["value"])
                continue
            ins = tuple(slots[t] for t in op.inputs[d.ref_inputs:])
            kernel = make_kernel(op, session)
            if len(outs) == 1:
                steps.append((kernel, ins, outs[0], op))
            else:
                tuple_slot = len(self.template)
                self.template.append(None)
                steps.append((kernel, ins, tuple_slot, op))
                steps += [(operator.itemgetter(i), (tuple_slot,), s, op) for i, s in enumerate(outs)]
        fetched = {slots[e] for e in elements if isinstance(e, Tensor)} | set(range(len(feeds)))
        steps = _write_into_destinations(_donate_buffers(steps, fetched, {s: t for t, s in slots.items()}),
                                         fetched, session.to_device)
        self.steps = steps
        self.fetch_slots = [slots[e] if isinstance(e, Tensor) else None for e in elements]
        if branch is None:
            self.feed_checks = [_feed_check(t, session.to_device) for t in feeds]
            self.fetch_post = [_fetch_post(e, session) for e in elements]
        else:
            self.feed_checks = [_as_is] * len(feeds)
            self.fetch_post = [_copy if _aliases_state(e) else _as_is for e in elements]

    def execute(self, feed_values):
        env = self.template[:]
        for i, (check, value) in enumerate(zip(self.feed_checks, feed_values)):
            env[i] = check(value)
        op = None
        try:
            # Unary and binary kernels are called without building an argument list: at ~40 small ops
            # per training step, that per-op overhead is a visible part of the step.
            for kernel, ins, out, op in self.steps:
                n = len(ins)
                if n == 1:
                    env[out] = kernel(env[ins[0]])
                elif n == 2:
                    env[out] = kernel(env[ins[0]], env[ins[1]])
                else:
                    env[out] = kernel(*[env[i] for i in ins])
        except Exception as exc:
            if op is not None and not isinstance(exc, FailedPreconditionError):
                _name_the_op(exc, op)
            raise
        return [post(env[s]) if s is not None else None for s, post in zip(self.fetch_slots, self.fetch_post)]


def _write_into_destinations(steps, keep, to_device):
    """Let a producer with an `into` kernel write straight into the buffer its only consumer copies it to.

    Only a buffer already on the session's device qualifies (`to_device` hands such a buffer back as is):
    host buckets on a GPU session keep their copy."""
    producer = {out: k for k, (kernel, ins, out, op) in enumerate(steps)}
    readers = {}
    for kernel, ins, out, op in steps:
        for s in ins:
            readers[s] = readers.get(s, 0) + 1
    steps = list(steps)
    for kernel, ins, out, op in steps:
        destinations = op_def(op.type).destinations
        if destinations is None:
            continue
        for s, dest in zip(ins, destinations(op)):
            k = producer.get(s)
            if dest is None or k is None or s in keep or readers[s] != 1:
                continue
            p_kernel, p_ins, p_out, p_op = steps[k]
            into = op_def(p_op.type).into
            if (into is not None and p_op.outputs[0].shape == dest.shape and p_op.outputs[0].dtype == dest.dtype
                    and to_device(dest) is dest):
                steps[k] = (functools.partial(into, dest, **p_op.attrs), p_ins, p_out, p_op)
    return steps


def _donate_buffers(steps, keep, tensors):
    """Swap in an op's in-place kernel where its input 0 is a buffer nobody reads afterwards.

    A buffer qualifies when a `fresh` op (one whose outputs never alias inputs or variables) made it,
    it has rank >= 1, and neither it nor anything that may alias it (outputs of non-fresh ops that
    read it) is read by a later step or fetched (`keep` holds fetched and fed slots).
    """
    last = dict.fromkeys(keep, len(steps))
    for k in range(len(steps) - 1, -1, -1):
        kernel, ins, out, op = steps[k]
        fresh = op_def(op.type).fresh and not isinstance(kernel, operator.itemgetter)
        for s in ins:
            last[s] = max(last.get(s, -1), k if fresh else max(k, last.get(out, k)))
    owned = {out for kernel, ins, out, op in steps if op_def(op.type).fresh
             and out in tensors and tensors[out].ndim and out not in keep}
    donated = []
    for k, (kernel, ins, out, op) in enumerate(steps):
        inplace = op_def(op.type).inplace
        if inplace is not None and ins and ins[0] in owned and last[ins[0]] == k:
            kernel = functools.partial(inplace, **op.attrs) if op.attrs else inplace
        donated.append((kernel, ins, out, op))
    return donated


def _topological_order(elements, fed, branch=None):
    """Kahn's algorithm over only the ops the fetches need; ties go to the op built first.

    Ops built inside a control-flow body (tg.cond, tg.while_loop) carry that body in `_control_flow`; they
    run only in their body's sub-plan (`branch`), whose outside inputs are fed and whose outside control
    inputs the control-flow op itself waits for.
    """
    needed, stack = set(), [e if isinstance(e, Operation) else e.op for e in elements if e not in fed]
    controls = _controls_within(branch)
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        if getattr(op, "_control_flow", None) is not branch:
            raise ValueError(f"Operation {op.name!r} was built inside {op._control_flow} and runs only there; "
                             "return its value from the branch or loop function and use that output instead")
        needed.add(op)
        ref = op_def(op.type).ref_inputs
        stack += [t.op for t in op.inputs[ref:] if t not in fed]
        stack += [c for c in controls(op) if c not in needed]
    indegree, consumers = {op: 0 for op in needed}, {op: [] for op in needed}
    for op in needed:
        ref = op_def(op.type).ref_inputs
        for producer in {t.op for t in op.inputs[ref:] if t not in fed} | set(controls(op)):
            indegree[op] += 1
            consumers[producer].append(op)
    ready = [(op._id, op) for op, n in indegree.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, op = heapq.heappop(ready)
        order.append(op)
        for consumer in consumers[op]:
            indegree[consumer] -= 1
            if indegree[consumer] == 0:
                heapq.heappush(ready, (consumer._id, consumer))
    return order


def _controls_within(branch):
    if branch is None:
        return operator.attrgetter("control_inputs")
    return lambda op: [c for c in op.control_inputs if getattr(c, "_control_flow", None) is branch]


def _as_is(value):
    return value


def _copy(value):
    return value.copy()


def _element(graph, obj, role):
    try:
        return graph.as_graph_element(obj)
    except (TypeError, ValueError, KeyError) as exc:
        raise type(exc)(f"Cannot interpret {obj!r} as a {role}: {exc.args[0]}") from None


def _feed_check(tensor, to_device):
    dtype, name = tensor.dtype, tensor.name
    shape = None if tensor.shape.ndims is None else tuple(tensor.shape.as_list())

    def check(value):
        if dtype == dtypes.string:
            value = as_string_array(value)
        elif type(value) is not np.ndarray or value.dtype != dtype:
            if get_array_module(value) is not np:
                return value
            array = np.asarray(value)
            if array.dtype != dtype:
                if not (np.can_cast(array.dtype, dtype, "same_kind") or array.dtype.kind in "biu" and dtype.kind == "f"):
                    raise ValueError(f"Cannot feed value of dtype {array.dtype.name} for Tensor {name!r}, "
                                     f"which has dtype {dtype.name}")
                array = array.astype(dtype)
            value = array
        if shape is not None and value.shape != shape and (
                value.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, value.shape))):
            raise ValueError(f"Cannot feed value of shape {format_shape(value.shape)} for Tensor {name!r}, "
                             f"which has shape {format_shape(shape)}")
        return to_device(value)
    return check


def _aliases_state(tensor):
    """True when the tensor may share memory with a buffer that outlives the run (or a view of one)."""
    while True:
        d = op_def(tensor.op.type)
        if d.persistent or d.ref_inputs:
            return True
        if not d.view or not tensor.op.inputs:
            return False
        tensor = tensor.op.inputs[0]


def _fetch_post(element, session):
    if not isinstance(element, Tensor):
        return None
    if element.dtype == dtypes.string:
        # TF1 returns a scalar string as bytes, and string arrays as object arrays of bytes.
        return lambda value: value[()] if value.ndim == 0 else value.copy()
    if session.device != "cpu":
        return session.to_host  # a new host array: nothing to copy even where the value aliases state
    if _aliases_state(element):
        return lambda value: value.copy()
    return lambda value: value


def _name_the_op(exc, op):
    """Prefix the failing op to the message, keeping the exception's type (callers may catch it)."""
    if exc.args and isinstance(exc.args[0], str):
        exc.args = (f"{op.type} op {op.name!r} failed: {exc.args[0]}",) + exc.args[1:]
    elif hasattr(exc, "add_note"):
        exc.add_note(f"while running {op.type} op {op.name!r}")


def register_device(name, to_device, to_host, setup=None, replace=False):
    """Make `Session(device=name)` run its graph on another array type.

    to_device(value) places a host value (numpy array or scalar) on the device and returns a device array
    as it is; to_host(array) returns a numpy copy of a device array (fetches pass through it at the end of
    a run). Kernels find the device's array module from their inputs (get_array_module), so the device's
    array type must be CuPy or name its module through `__array_namespace__`. `setup()`, where given, runs
    when a session opens (it may raise RuntimeError saying what is missing).
    """
    if name in _DEVICES and not replace:
        raise ValueError(f"Device {name!r} is already registered; pass replace=True to replace it")
    _DEVICES[name] = (to_device, to_host, setup)


def _device_transfer(device):
    try:
        to_device, to_host, setup = _DEVICES[device]
    except KeyError:
        raise ValueError(f"Unknown device {device!r}: use one of {sorted(_DEVICES)}") from None
    if setup is not None:
        setup()
    return to_device, to_host


def _same(value):
    return value


def _gpu_setup():
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        raise RuntimeError(f"device='gpu' needs CuPy and a CUDA GPU ({exc}); install ringflow[gpu] "
                           "or use device='cpu'") from None
    # The one answer to "which GPU is mine", shared with the NCCL communicator (allreduce/devices.py).
    from allreduce.devices import use_gpu
    use_gpu()


def _to_gpu(value):
    import cupy
    # Strings have no GPU representation: they stay host object arrays.
    return value if getattr(value, "dtype", None) == dtypes.string else cupy.asarray(value)


def _to_host(value):
    return value.get() if hasattr(value, "get") and not isinstance(value, np.ndarray) else value


_DEVICES = {"cpu": (_same, _same, None), "gpu": (_to_gpu, _to_host, _gpu_setup)}


def _flatten(fetches):
    """Leaves of a nested fetch structure, and a function that rebuilds it from their values."""
    if isinstance(fetches, (Tensor, Operation, str)):
        return [fetches], lambda values: values[0]
    if isinstance(fetches, (list, tuple)):
        parts = [_flatten(f) for f in fetches]
        leaves = [leaf for p in parts for leaf in p[0]]
        sizes = [len(p[0]) for p in parts]
        kind = type(fetches)

        def rebuild(values):
            out, start = [], 0
            for (_, rb), n in zip(parts, sizes):
                out.append(rb(values[start:start + n]))
                start += n
            return out if kind is list else (kind(*out) if hasattr(kind, "_fields") else kind(out))
        return leaves, rebuild
    if isinstance(fetches, dict):
        keys = list(fetches)
        leaves, rebuild_list = _flatten([fetches[k] for k in keys])
        return leaves, lambda values: dict(zip(keys, rebuild_list(values)))
    if fetches is None:
        raise TypeError("Fetch argument None is invalid: fetch a Tensor, an Operation or a name")
    raise TypeError(f"Fetch argument {fetches!r} has invalid type {type(fetches).__name__}: fetch a Tensor, "
                    "an Operation, a name string, or a list/tuple/dict of them")


_local = threading.local()


class _DefaultSession:
    def __init__(self, session):
        self.session = session

    def __enter__(self):
        if not hasattr(_local, "stack"):
            _local.stack = []
        _local.stack.append(self.session)
        return self.session

    def __exit__(self, *exc):
        stack = _local.stack
        # An InteractiveSession may close out of nesting order: remove this session's own entry.
        del stack[max(i for i, s in enumerate(stack) if s is self.session)]


def get_default_session():
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


def resolve_session(session, element):
    """`session`, else the default session; it must hold `element`'s graph."""
    session = session or get_default_session()
    if session is None:
        raise ValueError(f"Cannot evaluate {element.name!r}: no default session is registered. Use "
                         "`with tg.Session() as sess:` or pass session=sess")
    if element.graph is not session.graph:
        raise ValueError(f"Cannot evaluate {element.name!r}: its graph is not the session's graph")
    return session
