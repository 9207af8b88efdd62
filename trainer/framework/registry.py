"""The op registry: each op type's forward kernel, shape/dtype inference and gradient, side by side."""
import functools

import numpy as np

from .graph import get_default_graph


class OpDef:
    """How to run, shape and differentiate one op type; every field is declared once, in `register`.

    forward(*arrays, **attrs): the outputs of a pure op. It must compute with the array module of its
        inputs (get_array_module), so that the same kernel runs on numpy and on CuPy.
    kernel(op, session): instead of `forward`, a factory returning that callable, for ops that need the
        session: its variables, its random streams (session.rng) or its device (session.to_device, which
        a kernel without array inputs uses to put its result where the other arrays live).
    infer(*input_tensors, **attrs): a list of (shape, dtype), one per output (default: broadcasting).
    grad(op, *output_grads): one gradient Tensor (or None) per input.
    view: an output may share memory with input 0.
    ref_inputs: the number of leading inputs that are variables updated in place (passed by reference,
        not read).
    constant: the op's value is attrs["value"], placed on the device once when a plan is built.
    fresh: outputs are always new arrays, never views of inputs or variables; the session may then hand
        such a buffer to a later op's `inplace` kernel.
    inplace(*arrays, **attrs): computes the op into input `inplace_input`'s buffer (input 0 unless said, counted
        after the ref inputs); the session uses it when that buffer is fresh and nobody reads it after this op.
        For an op registered with kernel=, inplace is a factory (op, session) too.
    into(out, *arrays, **attrs): computes the op straight into `out`; with `destinations`, this is the
        zero-copy handshake below.
    destinations(op, session): per input, the buffer this op would copy that input into when it runs in
        `session` (or None). When the input's producer has `into`, matches the buffer's shape, dtype and
        device, and feeds nothing else, the session has the producer write there and the copy disappears
        (gradients into fusion buckets: each device its own).
    persistent: outputs are buffers that outlive the run (a variable's storage, communication buckets);
        fetches of them are copied.
    skips_unread: the kernel takes `read=`, the frozenset of the indices of its outputs that the plan running it
        reads (later steps or fetches; every output when called outside a plan), and may return None for the
        others, so that a large output only some graphs use (a gradient op's) is not written where none does.
        A plan is made per fetch set, so an output it skipped is never read; one returned as None where the plan
        reads it raises.
    """

    __slots__ = ("type", "forward", "kernel", "infer", "grad", "view", "ref_inputs", "constant", "fresh",
                 "inplace", "into", "destinations", "persistent", "inplace_input", "skips_unread")

    def __init__(self, op_type, forward, kernel, infer, grad, view, ref_inputs, constant, fresh, inplace, into,
                 destinations, persistent, inplace_input=0, skips_unread=False):
        self.type, self.forward, self.kernel, self.infer = op_type, forward, kernel, infer
        self.grad, self.view, self.ref_inputs, self.constant = grad, view, ref_inputs, constant
        self.fresh, self.inplace, self.into, self.inplace_input = fresh, inplace, into, inplace_input
        self.destinations, self.persistent, self.skips_unread = destinations, persistent, skips_unread


OPS = {}


def on_host(make):
    """A kernel factory (op, session) -> kernel for an op that works in host memory whatever the session's device,
    as TF1 places its string, file, reader and queue ops on the CPU: the kernel's inputs come to the host and its
    outputs go back to the session's device."""
    def made(op, session):
        run, to_host, to_device = make(op, session), session.to_host, session.to_device

        def kernel(*inputs):
            out = run(*[to_host(x) for x in inputs])
            if isinstance(out, (list, tuple)):
                return type(out)(to_device(x) for x in out)
            return out if out is None else to_device(out)
        return kernel
    return made


def host_kernel(forward):
    """on_host for an op whose `forward(*numpy arrays, **attrs)` needs host arrays (strings, special functions,
    codecs, factorizations, index arithmetic ringflow has no device kernel for): one round trip per run."""
    return on_host(lambda op, session: functools.partial(forward, **op.attrs))


def register(op_type, forward=None, *, kernel=None, infer=None, grad=None, view=False, ref_inputs=0,
             constant=False, fresh=False, inplace=None, into=None, destinations=None, persistent=False,
             inplace_input=0, skips_unread=False):
    """Register an op type with every property the session relies on (see OpDef); returns its OpDef."""
    if op_type in OPS:
        raise ValueError(f"Op type {op_type!r} is already registered")
    if (forward is None) == (kernel is None) and not constant:
        raise ValueError(f"Op type {op_type!r} needs exactly one of forward= and kernel=")
    OPS[op_type] = OpDef(op_type, forward, kernel, infer or infer_broadcast, grad, view, ref_inputs, constant,
                         fresh, inplace, into, destinations, persistent, inplace_input, skips_unread)
    return OPS[op_type]


def register_gradient(op_type):
    """Decorator setting the gradient rule of a registered op type."""
    def decorate(fn):
        OPS[op_type].grad = fn
        return fn
    return decorate


FUSIONS = {}  # op type: [(input index, producer's op type, forward, inplace, kernel)], from register_fusion


def register_fusion(op_type, input_index, producer_type, forward=None, *, inplace=None, kernel=None):
    """Declare a kernel computing `op_type` together with the `producer_type` op that makes its input `input_index`
    (counted after the ref inputs), as TF's remapper fuses such pairs: forward(*op_type's inputs with that one
    replaced by the producer's inputs, **op_type's attrs), and `inplace` the same into the buffer op_type's own
    `inplace` kernel writes. The session runs it where the producer's output feeds nothing else (client/fusion.py).
    An update of a variable (an op with ref inputs) declares `kernel` instead: a factory (op, producer, session)
    returning that kernel, or None where it has none for these ops; its fused step runs at the producer's place."""
    if op_type not in OPS:
        raise ValueError(f"register_fusion needs {op_type!r} registered first (register), to fuse it with "
                         f"{producer_type!r}")
    if (forward is None) == (kernel is None):
        raise ValueError(f"register_fusion of {op_type!r} with {producer_type!r} needs exactly one of forward= and "
                         f"kernel=")
    FUSIONS.setdefault(op_type, []).append((input_index, producer_type, forward, inplace, kernel))


def fusions(op_type):
    """The (input index, producer's op type, forward, inplace, kernel) fused kernels declared for `op_type`."""
    return FUSIONS.get(op_type, ())


def op_def(op_type):
    try:
        return OPS[op_type]
    except KeyError:
        raise NotImplementedError(f"No op type {op_type!r} is registered; known: {sorted(OPS)}") from None


def make_kernel(op, session, read=None):
    """The callable that computes `op`'s outputs from its input arrays in `session`; `read`, the indices of the
    outputs its caller reads (default: all), reaches a `skips_unread` kernel."""
    d = op_def(op.type)
    kernel = d.kernel(op, session) if d.kernel is not None else \
        functools.partial(d.forward, **op.attrs) if op.attrs else d.forward
    if d.skips_unread:
        kernel = functools.partial(kernel, read=frozenset(range(len(op.outputs)) if read is None else read))
    return kernel


def make_inplace_kernel(op, session):
    """The callable that computes `op` into its input `inplace_input`'s buffer in `session` (OpDef.inplace)."""
    d = op_def(op.type)
    if d.kernel is not None:
        return d.inplace(op, session)
    return functools.partial(d.inplace, **op.attrs) if op.attrs else d.inplace


def apply_op(op_type, inputs, name=None, **attrs):
    """Build an op of `op_type` from input Tensors; returns its Tensor (or tuple of Tensors)."""
    inputs = list(inputs)
    graph = inputs[0].graph if inputs else get_default_graph()
    specs = op_def(op_type).infer(*inputs, **attrs)
    op = graph.create_op(op_type, inputs, specs, name=name, attrs=attrs)
    return op.outputs[0] if len(op.outputs) == 1 else op.outputs


def broadcast_shapes(*shapes):
    """numpy broadcasting on static shapes with None for unknown dims (None rank if any rank is unknown)."""
    if any(s is None or getattr(s, "ndims", 0) is None for s in shapes):  # TensorShape(None): unknown rank
        return None
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for dims in zip(*[(1,) * (rank - len(s)) + tuple(s) for s in shapes]):
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(f"Shapes {', '.join(map(str, shapes))} cannot be broadcast together: "
                             f"dimensions {sorted(known)} differ")
        if known:
            out.append(known.pop())
        elif None in dims:
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def infer_broadcast(*inputs, **attrs):
    """Default inference: numpy broadcasting of the inputs, the dtype of the first input."""
    return [(broadcast_shapes(*[t.shape for t in inputs]), inputs[0].dtype)]


def infer_same(x, *rest, **attrs):
    """Output has the shape and dtype of the first input."""
    return [(x.shape, x.dtype)]


def check_same_dtype(op_type, tensors):
    dtypes = {t.dtype for t in tensors}
    if len(dtypes) > 1:
        desc = ", ".join(f"{t.name!r} ({t.dtype.name})" for t in tensors)
        raise TypeError(f"{op_type} needs inputs of one dtype, got {desc}; use tg.cast to convert")


def get_array_module(x):
    """The array module of `x`: numpy, cupy for a CuPy array, or the namespace another array type names
    through the Array API's `__array_namespace__` (how tests' device stand-in is found)."""
    cls = type(x)
    if cls is np.ndarray:
        return np
    if cls.__module__.startswith("cupy"):
        import cupy  # already loaded, since x is a CuPy array
        return cupy
    namespace = getattr(x, "__array_namespace__", None)
    if namespace is None or isinstance(x, (np.ndarray, np.generic)):
        return np
    return namespace()


def to_numpy(x):
    """`x` as a numpy array: a device array (CuPy, or another module's through its `.get()`) is copied to the
    host, anything else goes through np.asarray. For code that needs host memory whatever the session's device:
    the host buckets, a communicator, a summary's protobuf."""
    return np.asarray(x) if get_array_module(x) is np else x.get()
