"""Running sums and products along an axis: cumsum and cumprod, with TF1's exclusive and reverse flags."""
from .core_ops import convert_to_tensor
from .math_ops import check_input_kind
from ..framework.registry import apply_op, get_array_module, infer_same, register
from .tensor_util import constant_value


def _scan(name, identity):
    def run(x, axis, exclusive, reverse):
        xp = get_array_module(x)
        if reverse:
            x = xp.flip(x, axis)
        out = getattr(xp, name)(x, axis=axis, dtype=x.dtype)
        if exclusive:  # shift by one: element i holds the scan of elements before i
            head = (slice(None),) * axis
            out = xp.concatenate([xp.full_like(out[head + (slice(0, 1),)], identity),
                                  out[head + (slice(0, out.shape[axis] - 1),)]], axis=axis)
        return xp.ascontiguousarray(xp.flip(out, axis) if reverse else out)
    return run


def _cumsum_grad(op, g):
    a = op.attrs
    return [apply_op("Cumsum", [g], axis=a["axis"], exclusive=a["exclusive"], reverse=not a["reverse"])]


def _cumprod_grad(op, g):
    # TF1's rule: the reverse scan of (output * g), divided by x (so it is not defined where x is 0).
    x, a = op.inputs[0], op.attrs
    scanned = apply_op("Cumsum", [op.outputs[0] * g], axis=a["axis"], exclusive=a["exclusive"],
                       reverse=not a["reverse"])
    return [scanned / x]


register("Cumsum", _scan("cumsum", 0), infer=infer_same, grad=_cumsum_grad, fresh=True)
register("Cumprod", _scan("cumprod", 1), infer=infer_same, grad=_cumprod_grad, fresh=True)


def _build(op_type, x, axis, exclusive, reverse, name):
    x = convert_to_tensor(x)
    axis = constant_value(axis)
    if axis is None:
        raise NotImplementedError(f"{op_type.lower()} needs its axis known while building (an int or a constant)")
    axis = int(axis)
    if x.ndim is not None:
        if not -x.ndim <= axis < max(x.ndim, 1):
            raise ValueError(f"{op_type.lower()}: axis {axis} is out of range for {x.name!r} of rank {x.ndim}")
        axis %= max(x.ndim, 1)
    elif axis < 0:
        raise NotImplementedError(f"{op_type.lower()} with a negative axis needs {x.name!r} of known rank")
    check_input_kind(op_type, x)
    return apply_op(op_type, [x], name=name or op_type, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse))


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sum along `axis`; exclusive leaves out each element itself, reverse runs from the end."""
    return _build("Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running product along `axis`; exclusive leaves out each element itself, reverse runs from the end."""
    return _build("Cumprod", x, axis, exclusive, reverse, name)
