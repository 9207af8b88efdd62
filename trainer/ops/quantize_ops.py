"""Simulated quantization on float tensors (tf.quantization): fake_quant_* with TF's nudged range and its
straight-through gradients, and quantize_and_dequantize with TF's scale that keeps 0 exact.

fake_quant: the range [min, max] is nudged so that 0 is a quantized value: scale = (max - min) / (qmax - qmin),
the zero point qmin - min / scale is rounded half away from zero (std::round) into [qmin, qmax], and the nudged
range is (q - zero point) * scale for q = qmin, qmax. Inputs are clamped to it and rounded to the grid by
floor(x * inverse scale + 0.5) * scale, in float32 as TF's kernels compute. The gradient passes where the input
lies inside the nudged range; min's and max's gradients sum what falls below and above it.
"""
import numpy as np

from ..framework import dtypes
from ..framework.registry import apply_op, get_array_module, infer_same, register
from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from .array_ops import reshape
from .cwise_ops import logical_and
from .math_ops import greater_equal, less_equal, where, zeros_like


def nudged_range(lo, hi, num_bits, narrow_range):
    """(nudged min, nudged max, scale, inverse scale), float32 arrays shaped like lo and hi; the inverse is
    computed from the range, not as 1 / scale, as TF's Nudge does."""
    xp = get_array_module(lo)
    lo, hi = xp.asarray(lo, np.float32), xp.asarray(hi, np.float32)
    qmin, qmax = np.float32(1 if narrow_range else 0), np.float32((1 << num_bits) - 1)
    with np.errstate(all="ignore"):
        scale, inverse = (hi - lo) / (qmax - qmin), (qmax - qmin) / (hi - lo)
        zero_from_min = qmin - lo / scale
    rounded = xp.sign(zero_from_min) * xp.floor(xp.abs(zero_from_min) + np.float32(0.5))
    zero = xp.clip(rounded, qmin, qmax).astype(np.float32)
    return (qmin - zero) * scale, (qmax - zero) * scale, scale, inverse


def _check(num_bits):
    if not 2 <= num_bits <= 16:
        raise InvalidArgumentError(f"fake_quant: num_bits must be between 2 and 16, inclusive, got {num_bits}")


def _fake_quant(x, lo, hi, num_bits, narrow_range):
    xp = get_array_module(x)
    lo, hi = xp.asarray(lo, np.float32), xp.asarray(hi, np.float32)
    nmin, nmax, scale, inverse = nudged_range(lo, hi, num_bits, narrow_range)
    clamped = xp.maximum(xp.minimum(x, nmax), nmin)  # TF's order: a reversed range gives its nudged min
    # TF's CPU kernel fuses the multiply and the add (one rounding): the float64 product of two float32 is exact
    steps = xp.floor(clamped.astype(np.float64) * inverse.astype(np.float64) + 0.5).astype(np.float32)
    out = (steps * scale).astype(np.float32)
    return xp.where((lo == 0) & (hi == 0), np.float32(0), out)  # TF's kernels: a [0, 0] range quantizes to 0


def _inside(x, lo, hi, num_bits, narrow_range):
    xp = get_array_module(x)
    nmin, nmax, _, _ = nudged_range(xp.asarray(lo, np.float32), xp.asarray(hi, np.float32), num_bits, narrow_range)
    return (x >= nmin) & (x <= nmax), x < nmin, x > nmax


def _args(x, min, max, num_bits, narrow_range):  # noqa: A002 - TF's attribute names
    if not min < max:
        raise InvalidArgumentError(f"FakeQuantWithMinMaxArgs: min has to be smaller than max, was: min={min}, "
                                   f"max={max}")
    _check(num_bits)
    return _fake_quant(x, min, max, num_bits, narrow_range)


def _args_grad(g, x, min, max, num_bits, narrow_range):  # noqa: A002 - TF's attribute names
    inside, _, _ = _inside(x, min, max, num_bits, narrow_range)
    return (g * inside).astype(np.float32)


def _vars(x, lo, hi, num_bits, narrow_range):
    _check(num_bits)
    return _fake_quant(x, lo, hi, num_bits, narrow_range)


def _vars_grad(g, x, lo, hi, num_bits, narrow_range, per_channel=False):
    inside, below, above = _inside(x, lo, hi, num_bits, narrow_range)
    axes = tuple(range(x.ndim - 1)) if per_channel else None
    return [(g * inside).astype(np.float32), (g * below).sum(axis=axes).astype(np.float32),
            (g * above).sum(axis=axes).astype(np.float32)]


def _vars_grad_infer(g, x, lo, hi, **attrs):
    return [(x.shape, dtypes.float32), (lo.shape, dtypes.float32), (hi.shape, dtypes.float32)]


register("FakeQuantWithMinMaxArgs", _args, infer=infer_same, fresh=True,
         grad=lambda op, g: [fake_quant_with_min_max_args_gradient(g, op.inputs[0], **op.attrs)])
register("FakeQuantWithMinMaxArgsGradient", _args_grad, infer=lambda g, x, **attrs: [(x.shape, x.dtype)],
         fresh=True)
register("FakeQuantWithMinMaxVars", _vars, infer=infer_same, fresh=True,
         grad=lambda op, g: list(fake_quant_with_min_max_vars_gradient(g, *op.inputs, **op.attrs)))
register("FakeQuantWithMinMaxVarsGradient", _vars_grad, infer=_vars_grad_infer, fresh=True)
register("FakeQuantWithMinMaxVarsPerChannel", _vars, infer=infer_same, fresh=True,
         grad=lambda op, g: list(fake_quant_with_min_max_vars_per_channel_gradient(g, *op.inputs, **op.attrs)))
register("FakeQuantWithMinMaxVarsPerChannelGradient",
         lambda g, x, lo, hi, **attrs: _vars_grad(g, x, lo, hi, per_channel=True, **attrs),
         infer=_vars_grad_infer, fresh=True)


def _float32(x, what):
    x = convert_to_tensor(x, dtype=dtypes.float32) if not hasattr(x, "graph") else x
    if x.dtype != dtypes.float32:
        raise TypeError(f"{what} takes float32 tensors, got {x.name!r} of dtype {x.dtype.name}: cast it first")
    return x


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """inputs (float32) clamped to the nudged [min, max] and rounded to its 2**num_bits - 1 steps."""
    return apply_op("FakeQuantWithMinMaxArgs", [_float32(inputs, "fake_quant_with_min_max_args")],
                    name=name or "FakeQuantWithMinMaxArgs", min=float(min), max=float(max), num_bits=int(num_bits),
                    narrow_range=bool(narrow_range))


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6,  # noqa: A002 - TF's names
                                          num_bits=8, narrow_range=False, name=None):
    """gradients where inputs lie inside the nudged [min, max], 0 elsewhere."""
    return apply_op("FakeQuantWithMinMaxArgsGradient", [_float32(gradients, "fake_quant gradients"),
                                                        _float32(inputs, "fake_quant inputs")],
                    name=name or "FakeQuantWithMinMaxArgsGradient", min=float(min), max=float(max),
                    num_bits=int(num_bits), narrow_range=bool(narrow_range))


def _range_tensors(min, max, rank, what):  # noqa: A002
    lo, hi = _float32(min, what), _float32(max, what)
    for t in (lo, hi):
        if t.ndim is not None and t.ndim != rank:
            raise ValueError(f"{what}: min and max must be of rank {rank}, got {t.name!r} of shape {t.shape}")
    return lo, hi


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """fake_quant_with_min_max_args with min and max scalar float32 Tensors (trainable: they get gradients)."""
    lo, hi = _range_tensors(min, max, 0, "fake_quant_with_min_max_vars")
    return apply_op("FakeQuantWithMinMaxVars", [_float32(inputs, "fake_quant_with_min_max_vars"), lo, hi],
                    name=name or "FakeQuantWithMinMaxVars", num_bits=int(num_bits), narrow_range=bool(narrow_range))


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8, narrow_range=False,  # noqa: A002
                                          name=None):
    """(gradient to inputs, to min, to max) of fake_quant_with_min_max_vars."""
    lo, hi = _range_tensors(min, max, 0, "fake_quant_with_min_max_vars_gradient")
    return apply_op("FakeQuantWithMinMaxVarsGradient", [_float32(gradients, "fake_quant gradients"),
                                                        _float32(inputs, "fake_quant inputs"), lo, hi],
                    name=name or "FakeQuantWithMinMaxVarsGradient", num_bits=int(num_bits),
                    narrow_range=bool(narrow_range))


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8, narrow_range=False,  # noqa: A002
                                             name=None):
    """fake_quant_with_min_max_vars with one range per channel of the last axis (min, max of shape [d])."""
    lo, hi = _range_tensors(min, max, 1, "fake_quant_with_min_max_vars_per_channel")
    x = _float32(inputs, "fake_quant_with_min_max_vars_per_channel")
    return apply_op("FakeQuantWithMinMaxVarsPerChannel", [x, lo, hi],
                    name=name or "FakeQuantWithMinMaxVarsPerChannel", num_bits=int(num_bits),
                    narrow_range=bool(narrow_range))


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                                      narrow_range=False, name=None):
    """(gradient to inputs, to min, to max) of fake_quant_with_min_max_vars_per_channel, min's and max's per
    channel."""
    lo, hi = _range_tensors(min, max, 1, "fake_quant_with_min_max_vars_per_channel_gradient")
    return apply_op("FakeQuantWithMinMaxVarsPerChannelGradient",
                    [_float32(gradients, "fake_quant gradients"), _float32(inputs, "fake_quant inputs"), lo, hi],
                    name=name or "FakeQuantWithMinMaxVarsPerChannelGradient", num_bits=int(num_bits),
                    narrow_range=bool(narrow_range))


# -- quantize_and_dequantize: a scale that keeps 0 exact, from the given range or the input's own ---------------

def _qdq(x, lo, hi, signed_input, num_bits, range_given, round_mode, narrow_range, axis):
    xp = get_array_module(x)
    moved = xp.moveaxis(x, axis, -1) if axis != -1 else x
    if range_given:
        lo, hi = xp.asarray(lo, x.dtype), xp.asarray(hi, x.dtype)
        if axis == -1 and bool(lo > hi):  # TF checks the range of a whole tensor only
            raise InvalidArgumentError(f"QuantizeAndDequantize: Invalid range: input_min {lo!r} > input_max "
                                       f"{hi!r}")
    else:
        flat = moved.reshape(-1, moved.shape[-1]) if axis != -1 else moved.reshape(-1)
        lo = flat.min(axis=0) if flat.size else xp.zeros(flat.shape[1:], x.dtype)
        hi = flat.max(axis=0) if flat.size else xp.zeros(flat.shape[1:], x.dtype)
    if signed_input and num_bits < 2 or num_bits < 1 or num_bits > (63 if signed_input else 62):
        raise InvalidArgumentError(f"QuantizeAndDequantize: num_bits is out of range: {num_bits} with signed_input "
                                   f"{signed_input}")
    half = 1 << (num_bits - 1)
    qmin = (-half + 1 if narrow_range else -half) if signed_input else 0
    qmax = half - 1 if signed_input else (1 << num_bits) - 1
    big = np.finfo(x.dtype).max
    with np.errstate(all="ignore"):
        from_min = xp.where(qmin * lo > 0, qmin / lo, big).astype(x.dtype)
        from_max = xp.where(qmax * hi > 0, qmax / hi, big).astype(x.dtype)
        use_min = from_min < from_max
        scale = xp.where(use_min, from_min, from_max)
        inverse = xp.where(use_min, lo / x.dtype.type(qmin if qmin else 1), hi / x.dtype.type(qmax))
        lo, hi = xp.where(use_min, lo, qmin * inverse), xp.where(use_min, qmax * inverse, hi)
    y = xp.minimum(xp.maximum(moved, lo), hi) if range_given else moved
    y = y * scale
    y = xp.rint(y) if round_mode == "HALF_TO_EVEN" else xp.floor(y + x.dtype.type(0.5))
    out = (y * inverse).astype(x.dtype)
    return xp.moveaxis(out, -1, axis) if axis != -1 else out


def _v4_grad(op, g):
    x, lo, hi = op.inputs
    axis = op.attrs["axis"]
    if axis != -1 and x.ndim is not None:  # a per-slice range lines up with its axis
        lo, hi = (reshape_to_axis(v, axis, x.ndim) for v in (lo, hi))
    inside = logical_and(greater_equal(x, lo), less_equal(x, hi))
    return [where(inside, g, zeros_like(g)), zeros_like(op.inputs[1]), zeros_like(op.inputs[2])]


def reshape_to_axis(v, axis, rank):
    """A per-slice vector shaped to broadcast along `axis` of a rank-`rank` tensor."""
    return reshape(v, [1] * axis + [-1] + [1] * (rank - axis - 1))


register("QuantizeAndDequantizeV2", _qdq, infer=infer_same, fresh=True, grad=lambda op, g: [g, None, None])
register("QuantizeAndDequantizeV4", _qdq, infer=infer_same, fresh=True, grad=_v4_grad)


def _quantize_and_dequantize(op_type, input, input_min, input_max, signed_input, num_bits, range_given,  # noqa: A002
                             round_mode, name, narrow_range, axis):
    x = convert_to_tensor(input)
    if x.dtype not in (dtypes.float32, dtypes.float64, dtypes.float16):
        raise TypeError(f"quantize_and_dequantize takes a float tensor, got {x.name!r} of dtype {x.dtype.name}")
    if round_mode not in ("HALF_TO_EVEN", "HALF_UP"):
        raise ValueError(f"round_mode must be 'HALF_TO_EVEN' or 'HALF_UP', got {round_mode!r}")
    if axis is None:
        axis = -1
    elif axis < 0:
        if x.ndim is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= x.ndim
    lo, hi = (convert_to_tensor(v, dtype=x.dtype) if not hasattr(v, "graph") else v
              for v in (input_min, input_max))
    return apply_op(op_type, [x, lo, hi], name=name or op_type, signed_input=bool(signed_input),
                    num_bits=int(num_bits), range_given=bool(range_given), round_mode=round_mode,
                    narrow_range=bool(narrow_range), axis=int(axis))


def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8, range_given=False,  # noqa: A002
                            round_mode="HALF_TO_EVEN", name=None, narrow_range=False, axis=None):
    """input quantized to num_bits with a scale that keeps 0 exact, then back to floats; the gradient passes
    straight through."""
    return _quantize_and_dequantize("QuantizeAndDequantizeV2", input, input_min, input_max, signed_input,
                                    num_bits, range_given, round_mode, name, narrow_range, axis)


def quantize_and_dequantize_v2(input, input_min, input_max, signed_input=True, num_bits=8,  # noqa: A002
                               range_given=False, round_mode="HALF_TO_EVEN", name=None, narrow_range=False, axis=None):
    """quantize_and_dequantize whose gradient passes only where the input lies in [input_min, input_max]."""
    return _quantize_and_dequantize("QuantizeAndDequantizeV4", input, input_min, input_max, signed_input,
                                    num_bits, range_given, round_mode, name, narrow_range, axis)
