"""Ops that grow a tensor by repeating or padding it: tile and pad (constant, reflected or symmetric).

Separate from shape_ops.py because both need a gradient op of their own ("TileGrad", "PadGrad") that folds
the grown tensor's gradient back onto the input's shape.
"""
import builtins

import numpy as np

from ..framework import dtypes
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import constant_value, holds_tensor, static_shape
from .shape_tensors import known_shape, shape_argument


def _multiples(m, multiples):
    return multiples if multiples is not None else tuple(int(v) for v in m[0])


def _tile_grad(g, x, *m, multiples):
    interleaved = [d for k, s in zip(_multiples(m, multiples), x.shape) for d in (k, s)]
    return np.reshape(g, interleaved).sum(axis=tuple(builtins.range(0, len(interleaved), 2)))


def _tile_infer(x, *m, multiples):
    shape = static_shape(x)
    known = multiples if multiples is not None else known_shape(m[0])
    if shape is None or known is None:
        return [(None if shape is None else (None,) * len(shape), x.dtype)]
    return [(tuple(None if d is None or k is None else d * k for d, k in zip(shape, known)), x.dtype)]


# multiples known while building are an attribute; otherwise they are the op's second input (TF1's).
def _tile(x, *m, multiples):
    reps = _multiples(m, multiples)
    if len(reps) != np.ndim(x):
        raise ValueError(f"Expected multiples argument to be a vector of length {np.ndim(x)} but got length "
                         f"{len(reps)}: tile takes one multiple per dimension of its input, of shape {np.shape(x)}")
    if any(k < 0 for k in reps):
        raise ValueError(f"Expected every multiple to be >= 0, but got {list(reps)}")
    return np.tile(x, reps)


register("Tile", _tile, infer=_tile_infer,
         grad=lambda op, g: [apply_op("TileGrad", [g, *op.inputs], **op.attrs)] + [None] * (len(op.inputs) - 1),
         fresh=True)
register("TileGrad", _tile_grad, infer=lambda g, x, *m, multiples: [(x.shape, g.dtype)],
         grad=lambda op, gg: [tile(gg, op.attrs["multiples"] or op.inputs[2]), None] + [None] * (len(op.inputs) - 2),
         fresh=True)


def tile(input, multiples, name=None):  # noqa: A002 - TF1's name
    """`input` repeated multiples[i] times along each dimension i; multiples may be a Tensor (or hold some)."""
    x = convert_to_tensor(input)
    static, dynamic = shape_argument(multiples, "tile multiples")
    if static is not None and x.ndim is not None and len(static) != x.ndim:
        raise ValueError(f"tile needs one multiple per dimension of {x.name!r} (rank {x.ndim}), got {multiples}")
    if dynamic is None:
        return apply_op("Tile", [x], name=name or "Tile", multiples=tuple(static))
    return apply_op("Tile", [x, dynamic], name=name or "Tile", multiples=None)


_PAD_TYPES = {"CONSTANT": "PadV2", "REFLECT": "MirrorPad", "SYMMETRIC": "MirrorPad"}


def _pairs(p, paddings):
    return paddings if paddings is not None else tuple((int(a), int(b)) for a, b in p[0].tolist())


def _pad(x, *p, paddings, mode, constant_values):
    xp, paddings = get_array_module(x), _pairs(p, paddings)
    if mode == "CONSTANT":
        return xp.pad(x, paddings, constant_values=constant_values[()])
    return xp.pad(x, paddings, mode=mode.lower())


def _pad_grad(g, x, *p, paddings, mode, constant_values):
    paddings = _pairs(p, paddings)
    if mode == "CONSTANT":
        return g[tuple(slice(before, before + d) for (before, _), d in zip(paddings, x.shape))]
    return _mirror_pad_grad(g, paddings, mode)


def _mirror_pad_grad(g, paddings, mode):
    # A mirrored element receives the gradient of every padded position that copies it.
    xp = get_array_module(g)
    shape = tuple(d - int(a) - int(b) for d, (a, b) in zip(g.shape, paddings))
    size = int(np.prod(shape, dtype=np.int64))
    source = xp.pad(xp.arange(size).reshape(shape), [(int(a), int(b)) for a, b in paddings], mode=mode.lower())
    return xp.bincount(source.ravel(), weights=g.ravel(), minlength=size).reshape(shape).astype(g.dtype)


def _known_pairs(paddings, rank):
    # [[0, n - tg.shape(x)[0]], [0, 0]] is a Pack of rows: a row known while building keeps its dimension static
    if paddings.op.type == "Pack" and len(paddings.op.inputs) == rank:
        return [known_shape(row) or (None, None) for row in paddings.op.inputs]
    return [(None, None)] * rank


def _pad_infer(x, *p, paddings, mode, constant_values):
    if x.ndim is None:
        return [(None, x.dtype)]
    pairs = paddings if paddings is not None else _known_pairs(p[0], x.ndim)
    return [(tuple(None if None in (d, a, b) else d + a + b for d, (a, b) in zip(static_shape(x), pairs)), x.dtype)]


# paddings known while building are an attribute; otherwise they are the op's second input (TF1's).
for _type in ("Pad", "PadV2", "MirrorPad"):
    register(_type, _pad, infer=_pad_infer, fresh=True,
             grad=lambda op, g: [apply_op("PadGrad", [g, *op.inputs], **op.attrs)] + [None] * (len(op.inputs) - 1))
register("PadGrad", _pad_grad, infer=lambda g, x, *p, **attrs: [(x.shape, g.dtype)], view=True,  # CONSTANT: a slice
         grad=lambda op, gg: [apply_op(_PAD_TYPES[op.attrs["mode"]], [gg, *op.inputs[2:]], **op.attrs)]
         + [None] * (len(op.inputs) - 1))


def _mirror_pad_grad_infer(g, paddings, mode):
    known = constant_value(paddings)
    if known is None or g.ndim is None:
        return [(None if g.ndim is None else (None,) * g.ndim, g.dtype)]
    return [(tuple(None if d is None else d - int(a) - int(b) for d, (a, b) in zip(static_shape(g), known)), g.dtype)]


# TF's gradient of MirrorPad, as graphs TensorFlow writes (and ringflow's exports) hold it
register("MirrorPadGrad", lambda g, paddings, mode: _mirror_pad_grad(g, paddings, mode), infer=_mirror_pad_grad_infer,
         grad=lambda op, gg: [apply_op("MirrorPad", [gg, op.inputs[1]], paddings=None, mode=op.attrs["mode"],
                                       constant_values=np.zeros((), gg.dtype)), None])


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):  # noqa: A002 - TF1's name
    """`tensor` padded by paddings[i] = [before, after] along dimension i: with constant_values (CONSTANT), or
    mirrored without (REFLECT) or with (SYMMETRIC) the edge element. paddings may be a Tensor (or hold some)."""
    x = convert_to_tensor(tensor)
    mode = str(mode).upper()
    if mode not in _PAD_TYPES:
        raise ValueError(f"pad mode must be one of {sorted(_PAD_TYPES)} (any case), got {mode!r}")
    value = constant_value(constant_values)
    if value is None:
        raise NotImplementedError(f"pad constant_values {constant_values.name!r} is computed while the graph runs; "
                                  "give it as a number (or a constant)")
    op_type = "Pad" if mode == "CONSTANT" and value == 0 else _PAD_TYPES[mode]
    value = np.asarray(value, dtype=x.dtype)
    known = constant_value(convert_to_tensor(paddings, dtype=dtypes.int32) if holds_tensor(paddings) else paddings)
    if known is None:
        dynamic = convert_to_tensor(paddings, dtype=dtypes.int32)
        if dynamic.ndim is not None and (dynamic.ndim != 2 or dynamic.shape[1] not in (None, 2)):
            raise ValueError(f"pad needs paddings of shape [rank, 2], got {dynamic.name!r} of shape {dynamic.shape}")
        return apply_op(op_type, [x, dynamic], name=name or "Pad", paddings=None, mode=mode, constant_values=value)
    flat = [int(v) for v in np.ravel(known)]
    if len(flat) % 2 or (x.ndim is not None and len(flat) != 2 * x.ndim):
        raise ValueError(f"pad needs paddings of shape [rank, 2] ([{x.ndim}, 2] for {x.name!r}), got {paddings!r}")
    pairs = tuple((flat[i], flat[i + 1]) for i in builtins.range(0, len(flat), 2))
    limit = 0 if mode == "REFLECT" else 1  # REFLECT leaves out the edge element, SYMMETRIC repeats it
    for d, (a, b) in zip(static_shape(x) or (), pairs):
        if min(a, b) < 0 or (mode != "CONSTANT" and d is not None and max(a, b) > d - 1 + limit):
            raise ValueError(f"pad: paddings {pairs} are invalid for {x.name!r} of shape {x.shape} in mode {mode}")
    return apply_op(op_type, [x], name=name or "Pad", paddings=pairs, mode=mode, constant_values=value)
