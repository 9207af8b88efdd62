"""Reverse-mode autodiff as a graph-to-graph transform: gradient rules add ops to the same graph."""
import enum

import numpy as np

from ..framework.tensor import Tensor
from .array_ops import reshape
from .core_ops import constant, convert_to_tensor
from .math_ops import add_n, ones_like, zeros_like
from .stack_ops import stack
from ..framework.registry import op_def


class AggregationMethod:
    """TF1's ways of adding the gradients that meet at a tensor; tg.gradients adds them with add_n whichever is
    asked for (all give the same sum)."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """What tg.gradients gives an x that does not reach the ys: None (TF1's default) or zeros of x's shape."""
    NONE = "none"
    ZERO = "zero"


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False, gate_gradients=False,
              aggregation_method=None, stop_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
    """d(sum of ys)/d(x) for each x in xs, as Tensors of the same graph (None where x does not reach ys).

    Gradients do not flow back through `stop_gradients` (TF1); a control-flow gradient uses it to stop at
    a branch's captured inputs. The placement/aggregation arguments are accepted and ignored (one device).
    """
    ys, xs = _as_list(ys), _as_list(xs)
    unconnected = UnconnectedGradients(unconnected_gradients)  # a bad value raises ValueError naming it
    stops = set(_as_list(stop_gradients)) if stop_gradients is not None else set()
    grad_ys = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    if len(grad_ys) != len(ys):
        raise ValueError(f"gradients got {len(ys)} ys but {len(grad_ys)} grad_ys")
    graph = ys[0].graph
    ops = _ops_between(graph, ys, xs, stops)
    with graph.as_default(), graph.name_scope(name):
        grads = {}
        for i, (y, gy) in enumerate(zip(ys, grad_ys)):
            gy = _ones_for(y) if gy is None else _given_grad_y(y, convert_to_tensor(gy, name=f"grad_ys_{i}"))
            grads.setdefault(y, []).append(gy)
        for op in sorted(ops, key=lambda o: o.schedule_key, reverse=True):
            out_grads = [None if t in stops else _sum(grads.get(t)) for t in op.outputs]
            if all(g is None for g in out_grads):
                continue
            rule = op_def(op.type).grad
            if rule is None:
                raise NotImplementedError(f"No gradient is defined for op type {op.type!r} (op {op.name!r}); "
                                          f"register one with register_gradient({op.type!r}) or stop the "
                                          "gradient before this op")
            with graph.name_scope(f"{op.name}_grad"):
                in_grads = rule(op, *out_grads)
            if len(in_grads) != len(op.inputs):
                raise ValueError(f"The gradient of {op.type!r} returned {len(in_grads)} values for "
                                 f"{len(op.inputs)} inputs (op {op.name!r})")
            for i, (t, g) in enumerate(zip(op.inputs, in_grads)):
                if g is not None and t.dtype.kind in "fc":
                    if isinstance(g, Tensor) and not t.shape.is_compatible_with(g.shape):
                        raise ValueError(f"Incompatible shapes between op input and calculated input gradient. "
                                         f"Forward operation: {op.name}. Input index: {i}. Original input shape: "
                                         f"{t.shape}. Calculated input gradient shape: {g.shape} (a gradient "
                                         f"rule of {op.type!r} that does not give its input's shape: stop the "
                                         "gradient there, or give the inputs the shapes the op expects)")
                    grads.setdefault(t, []).append(g)
        found = [_sum(grads.get(x)) for x in xs]
        if unconnected is UnconnectedGradients.ZERO:
            found = [zeros_like(x) if g is None else g for x, g in zip(xs, found)]
        return found


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """For each x of xs, the second derivatives of sum(ys): a Tensor of shape x.shape + x.shape (x's shape known)."""
    found = []
    for x in _as_list(xs):
        if x.ndim is None or None in x.shape:
            raise ValueError(f"hessians needs {x.name!r} to have a fully known shape, got {x.shape}: "
                             "reshape it to a known shape first")
        with x.graph.as_default(), x.graph.name_scope(name):
            grad = reshape(gradients(ys, x)[0], [-1])
            size = int(np.prod(x.shape, dtype=np.int64))
            rows = [gradients(grad[i], x, unconnected_gradients="zero")[0] for i in range(size)]
            found.append(reshape(stack(rows), list(x.shape) * 2))
    return found


def _given_grad_y(y, gy):
    """TF1 checks only that a real y gets a real or integer grad_y and a complex y a complex one, and casts
    nothing: a float32 grad_y for a float64 y flows on as float32 (an op whose gradient mixes it with float64
    then refuses the mix, as TF1's does)."""
    numeric = y.dtype.is_floating or y.dtype.is_integer
    if not (numeric or y.dtype.is_complex):
        raise TypeError(f"Tensor {y.name!r} with type {y.dtype.name} must be numeric to obtain a gradient")
    given_numeric = gy.dtype.is_floating or gy.dtype.is_integer
    if (numeric and not given_numeric) or (y.dtype.is_complex and not gy.dtype.is_complex):
        kind = "real or integer" if numeric else "complex"
        raise TypeError(f"Gradient type {gy.dtype.name} given in grad_ys for the {kind}-valued tensor {y.name!r} "
                        f"of type {y.dtype.name} must be {kind}; pass grad_ys of a {kind} dtype (tg.cast)")
    return gy


def _ones_for(y):
    if y.dtype.is_complex:  # TF1: a complex y has no natural "ones" direction
        raise TypeError(f"Gradients of complex tensors ({y.name!r}) must set grad_ys (y.dtype = {y.dtype.name})")
    if y.ndim is not None and None not in y.shape and len(y.shape) <= 1 and y.dtype.kind == "f":
        return constant(np.ones(y.shape, dtype=y.dtype), name="grad_ys")
    return ones_like(y, name="grad_ys")


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _sum(grads):
    if not grads:
        return None
    if len(grads) == 1:
        return grads[0]
    return add_n(grads)


def _ops_between(graph, ys, xs, stops=()):
    """The ops on some path from an x to a y: reachable backwards from ys (not past `stops`) and forwards from xs."""
    backward, stack = set(), [y.op for y in ys if y not in stops]
    while stack:
        op = stack.pop()
        if op not in backward:
            backward.add(op)
            stack += [t.op for t in op.inputs if t not in stops]
    sources = {x for x in xs if isinstance(x, Tensor)}
    between = set()
    for op in sorted(backward, key=lambda o: o.schedule_key):
        if op.inputs and any(t in sources for t in op.inputs):
            between.add(op)
            sources.update(op.outputs)
    return between
