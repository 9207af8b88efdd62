"""Ops that grow a tensor by repeating or padding it: tile and pad (constant, reflected or symmetric).

Separate from shape_ops.py because both need a gradient op of their own ("TileGrad", "PadGrad") that folds
the grown tensor's gradient back onto the input's shape.
"""
import builtins

import numpy as np

from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, register
from .tensor_util import static_ints, static_shape


def _tile_grad(g, x, multiples):
    interleaved = [d for m, s in zip(multiples, x.shape) for d in (m, s)]
    return np.reshape(g, interleaved).sum(axis=tuple(builtins.range(0, len(interleaved), 2)))


register("Tile", lambda x, multiples: np.tile(x, multiples),
         infer=lambda x, multiples: [(None if x.ndim is None else tuple(
             None if d is None else d * m for d, m in zip(static_shape(x), multiples)), x.dtype)],
         grad=lambda op, g: [apply_op("TileGrad", [g, op.inputs[0]], multiples=op.attrs["multiples"])], fresh=True)
register("TileGrad", _tile_grad, infer=lambda g, x, multiples: [(x.shape, g.dtype)],
         grad=lambda op, gg: [tile(gg, op.attrs["multiples"]), None], fresh=True)


def tile(input, multiples, name=None):  # noqa: A002 - TF1's name
    """`input` repeated multiples[i] times along each dimension i."""
    x = convert_to_tensor(input)
    multiples = tuple(static_ints(multiples, "tile multiples"))
    if x.ndim is not None and len(multiples) != x.ndim:
        raise ValueError(f"tile needs one multiple per dimension of {x.name!r} (rank {x.ndim}), got {multiples}")
    return apply_op("Tile", [x], name=name or "Tile", multiples=multiples)


_PAD_TYPES = {"CONSTANT": "PadV2", "REFLECT": "MirrorPad", "SYMMETRIC": "MirrorPad"}


def _pad(x, paddings, mode, constant_values):
    xp = get_array_module(x)
    if mode == "CONSTANT":
        return xp.pad(x, paddings, constant_values=constant_values[()])
    return xp.pad(x, paddings, mode=mode.lower())


def _pad_grad(g, x, paddings, mode, constant_values):
    if mode == "CONSTANT":
        return g[tuple(slice(before, before + d) for (before, _), d in zip(paddings, x.shape))]
    # A mirrored element receives the gradient of every padded position that copies it.
    xp = get_array_module(g)
    source = xp.pad(xp.arange(x.size).reshape(x.shape), paddings, mode=mode.lower())
    return xp.bincount(source.ravel(), weights=g.ravel(), minlength=x.size).reshape(x.shape).astype(g.dtype)


def _pad_infer(x, paddings, mode, constant_values):
    if x.ndim is None:
        return [(None, x.dtype)]
    return [(tuple(None if d is None else d + a + b for d, (a, b) in zip(static_shape(x), paddings)), x.dtype)]


for _type in ("Pad", "PadV2", "MirrorPad"):
    register(_type, _pad, infer=_pad_infer, grad=lambda op, g: [apply_op("PadGrad", [g, op.inputs[0]], **op.attrs)],
             fresh=True)
register("PadGrad", _pad_grad, infer=lambda g, x, **attrs: [(x.shape, g.dtype)], view=True,  # CONSTANT: a slice
         grad=lambda op, gg: [apply_op(_PAD_TYPES[op.attrs["mode"]], [gg], **op.attrs), None])


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):  # noqa: A002 - TF1's name
    """`tensor` padded by paddings[i] = [before, after] along dimension i: with constant_values (CONSTANT), or
    mirrored without (REFLECT) or with (SYMMETRIC) the edge element."""
    x = convert_to_tensor(tensor)
    mode = str(mode).upper()
    if mode not in _PAD_TYPES:
        raise ValueError(f"pad mode must be one of {sorted(_PAD_TYPES)} (any case), got {mode!r}")
    flat = static_ints(paddings, "pad paddings")
    if len(flat) % 2 or (x.ndim is not None and len(flat) != 2 * x.ndim):
        raise ValueError(f"pad needs paddings of shape [rank, 2] ([{x.ndim}, 2] for {x.name!r}), got {paddings!r}")
    pairs = tuple((flat[i], flat[i + 1]) for i in builtins.range(0, len(flat), 2))
    limit = 0 if mode == "REFLECT" else 1  # REFLECT leaves out the edge element, SYMMETRIC repeats it
    for d, (a, b) in zip(static_shape(x) or (), pairs):
        if min(a, b) < 0 or (mode != "CONSTANT" and d is not None and max(a, b) > d - 1 + limit):
            raise ValueError(f"pad: paddings {pairs} are invalid for {x.name!r} of shape {x.shape} in mode {mode}")
    op_type = "Pad" if mode == "CONSTANT" and constant_values == 0 else _PAD_TYPES[mode]
    value = np.asarray(constant_values, dtype=x.dtype)
    return apply_op(op_type, [x], name=name or "Pad", paddings=pairs, mode=mode, constant_values=value)
