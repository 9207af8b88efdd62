"""TF1's higher-order functions over the leading dimension: tg.map_fn, tg.scan, tg.foldl and tg.foldr.

TF1 builds them on while_loop and TensorArray. When the leading dimension is known while the graph is built
the loop is unrolled instead (unstack, call fn per element, stack): the result is made of ordinary ops. Only an
unknown leading dimension takes a while loop over the elements (step_loop, which stacks fn's results whatever
their shapes); its gradient is the loop's.
"""
from contextlib import nullcontext

from ..framework import dtypes
from ..framework.graph import get_default_graph
from .scopes import get_variable_scope, variable_scope
from ..framework.tensor_shape import dimension_value
from .array_ops import concat, reshape, shape, zeros
from .core_ops import convert_to_tensor
from .cwise_ops import stop_gradient
from .gather_ops import gather
from .math_ops import subtract
from .nest import describe, flatten, pack, same_structure
from .reverse_ops import reverse as reverse_op
from .stack_ops import stack, unstack
from .while_loop_ops import step_loop


def _elements(elems, what):
    """The leaves of `elems` as Tensors, their structure, and their common leading dimension (None if unknown)."""
    leaves, structure = flatten(elems)
    if not leaves:
        raise ValueError(f"{what} needs at least one tensor in elems, got elems={elems!r}")
    leaves = [convert_to_tensor(t, name="elems") for t in leaves]
    for t in leaves:
        if t.shape.ndims == 0:
            raise ValueError(f"Elements in elems must be 1+ dimensional Tensors, not scalars: {t.name!r} has "
                             f"shape {t.shape}; {what} runs fn over the leading dimension")
    known = {t.name: dimension_value(t.shape[0]) for t in leaves if t.shape.ndims is not None}
    known = {k: v for k, v in known.items() if v is not None}
    if len(set(known.values())) > 1:
        raise ValueError(f"The tensors in elems must have the same leading dimension, got {known!r}")
    return leaves, structure, next(iter(known.values()), None)


def _check_outputs(value, structure, out_dtypes, what):
    """fn's result as leaves, after checking it against the structure and dtypes the caller expects."""
    leaves, got = flatten(value)
    if not same_structure(structure, got):
        raise ValueError(f"{what}: fn must return the structure {describe(structure)}, got {value!r}")
    leaves = [convert_to_tensor(v) for v in leaves]
    for t, dt in zip(leaves, out_dtypes):
        if t.dtype != dt:
            raise ValueError(f"{what}: fn returned {t.name!r} of dtype {t.dtype.name} where {dtypes.as_dtype(dt).name}"
                             " is expected; pass dtype= (map_fn) or an initializer of that dtype")
    return leaves


def _stack_or_empty(outs, probe):
    """Stack per-element outputs along a new axis 0; for no elements, an empty tensor shaped like `probe`."""
    if outs:
        return stack(outs)
    if probe.shape.is_fully_defined():
        return zeros([0] + probe.shape.as_list(), probe.dtype)
    return reshape(zeros([0], probe.dtype), concat([[0], shape(probe)], 0))


def _unrolled(step, carry, leaves, structure, n, reverse, collect):
    """Run `carry, out = step(carry, element)` over the n elements in order; stacked outs (or None)."""
    slices = [unstack(t, num=n) for t in leaves]
    order = list(range(n))[::-1] if reverse else list(range(n))
    outs = [None] * n
    graph, body_scope, var_scope = get_default_graph(), None, get_variable_scope()
    for k, i in enumerate(order):
        # TF1 traces fn once: every call shares one "while/" scope, and calls after the first reuse the
        # variables the first one made with tg.get_variable.
        with variable_scope(var_scope, reuse=True) if k else nullcontext():
            with graph.name_scope(body_scope or "while") as body_scope:
                carry, outs[i] = step(carry, pack(structure, [s[i] for s in slices]))
    if not collect:
        return carry, None
    if n == 0:  # trace fn once on a dummy element so the empty result has fn's per-element shape
        with graph.name_scope("while"):
            dummy = pack(structure, [zeros([0 if d is None else d for d in t.shape.as_list()[1:]], t.dtype)
                                     for t in leaves])
            _, probe = step(carry, dummy)
        return carry, [_stack_or_empty([], p) for p in probe]
    return carry, [_stack_or_empty([o[k] for o in outs], outs[0][k]) for k in range(len(outs[0]))]


def _looped(step, carry, leaves, structure, from_elems, reverse, back_prop, collect):
    """The same computation as _unrolled for an unknown leading dimension, on step_loop."""
    first = list(carry) if from_elems and collect else None
    elems = [reverse_op(t, [0]) if reverse else t for t in leaves]
    if from_elems:  # the first element (the last if reverse) is the initial accumulator
        elems = [t[1:] for t in elems]

    def body(carried, slices):
        new_carry, out = step(list(carried), pack(structure, slices))
        return new_carry, out if collect else []

    carry, outs = step_loop(body, carry, elems, back_prop=back_prop)
    if not collect:
        return carry, None
    if first is not None:  # scan without initializer: the first element is also the first output
        outs = [concat([f[None], o], 0) for f, o in zip(first, outs)]
    return carry, [reverse_op(o, [0]) for o in outs] if reverse else outs


def _run(what, fn, elems, initializer, setup, reverse, back_prop, collect, name):
    """The loop shared by the four functions: a carry threaded through fn, optionally stacked outputs."""
    if not callable(fn):
        raise TypeError(f"{what}: fn must be callable, got {fn!r}")
    with get_default_graph().name_scope(name or what.replace("_fn", "")):  # TF1's scopes: map, scan, foldl, foldr
        leaves, structure, n = _elements(elems, what)
        step, carry = setup(leaves, structure)
        from_elems = carry is None  # a fold or scan without initializer starts from the first element
        if from_elems:
            if n == 0:
                raise ValueError(f"{what} on elems {leaves[0].name!r} with no elements needs an initializer")
            index = -1 if reverse else 0
            if n is not None:
                carry = [unstack(t, num=n)[index] for t in leaves]
                leaves = [t[:-1] if reverse else t[1:] for t in leaves]
                n -= 1
            else:
                carry = [gather(t, subtract(shape(t)[0], 1) if reverse else 0) for t in leaves]
        if n is not None:
            first = list(carry) if from_elems and collect else None
            carry, outs = _unrolled(step, carry, leaves, structure, n, reverse, collect)
            if first is not None:  # scan without initializer: the first element is also the first output
                outs = [concat([o, f[None]] if reverse else [f[None], o], 0) for f, o in zip(first, outs)]
        else:
            carry, outs = _looped(step, carry, leaves, structure, from_elems, reverse, back_prop, collect)
        results = outs if collect else carry
        if not back_prop:
            results = [stop_gradient(t) for t in results]
        return results


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None):
    """Apply fn to each slice of elems along axis 0 and stack the results (TF1's tf.map_fn).

    dtype gives the structure and dtypes of fn's results when they differ from elems'. parallel_iterations,
    swap_memory and infer_shape are accepted and ignored (elements run one after another).
    """
    spec = {}

    def setup(leaves, structure):
        if dtype is None:
            spec["structure"], spec["dtypes"] = structure, [t.dtype for t in leaves]
        else:
            d, s = flatten(dtype)
            spec["structure"], spec["dtypes"] = s, [dtypes.as_dtype(x) for x in d]
        return (lambda carry, x: (carry, _check_outputs(fn(x), spec["structure"], spec["dtypes"], "map_fn"))), []

    outs = _run("map_fn", fn, elems, None, setup, False, back_prop, True, name)
    return pack(spec["structure"], outs)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """The running values a = fn(a, x) over the slices x of elems along axis 0, stacked (TF1's tf.scan).

    Without an initializer the first element starts the accumulator and is the first output.
    parallel_iterations, swap_memory and infer_shape are accepted and ignored.
    """
    return _fold("scan", fn, elems, initializer, back_prop, reverse, True, name)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """Reduce elems along axis 0 from the first slice on with a = fn(a, x) (TF1's tf.foldl).

    parallel_iterations and swap_memory are accepted and ignored.
    """
    return _fold("foldl", fn, elems, initializer, back_prop, False, False, name)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """Reduce elems along axis 0 from the last slice back with a = fn(a, x) (TF1's tf.foldr).

    parallel_iterations and swap_memory are accepted and ignored.
    """
    return _fold("foldr", fn, elems, initializer, back_prop, True, False, name)


def _fold(what, fn, elems, initializer, back_prop, reverse, collect, name):
    spec = {}

    def setup(leaves, structure):
        if initializer is None:
            spec["structure"] = structure
            carry = None
        else:
            init, spec["structure"] = flatten(initializer)
            carry = [convert_to_tensor(v, name="initializer") for v in init]

        def step(carry, x):
            a = pack(spec["structure"], carry)
            new = _check_outputs(fn(a, x), spec["structure"], [c.dtype for c in carry], what)
            return new, new
        return step, carry

    results = _run(what, fn, elems, initializer, setup, reverse, back_prop, collect, name)
    return pack(spec["structure"], results)
