"""Reversing along axes: reverse (ReverseV2) and reverse_sequence (each row's first seq_lengths[i] entries)."""
import numpy as np

from ..platform.errors import InvalidArgumentError
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, get_array_module, infer_same, register
from .tensor_util import argument_lookup, static_ints


register("ReverseV2", lambda x, axis: get_array_module(x).flip(x, axis), infer=infer_same, view=True,
         grad=lambda op, g: [apply_op("ReverseV2", [g], **op.attrs)])


def reverse(tensor, axis, name=None):
    """`tensor` with the order of its entries reversed along each of `axis` (a list of ints)."""
    x = convert_to_tensor(tensor)
    axes = static_ints(axis, "reverse: axis")
    if x.ndim is None and any(a < 0 for a in axes):
        raise NotImplementedError(f"reverse with negative axes {axes} needs {x.name!r} of known rank")
    if x.ndim is not None:
        bad = [a for a in axes if not -x.ndim <= a < x.ndim]
        if bad:
            raise InvalidArgumentError(f"reverse: axis {bad[0]} is out of range for {x.name!r} of rank {x.ndim}")
        axes = [a % x.ndim for a in axes]
    twice = sorted({a for a in axes if axes.count(a) > 1})
    if twice:
        raise InvalidArgumentError(f"reverse: axis {twice[0]} is specified more than once in {axis!r}")
    return apply_op("ReverseV2", [x], name=name or "ReverseV2", axis=tuple(axes))


reverse_v2 = reverse


def _reverse_sequence(x, lengths, seq_axis, batch_axis):
    xp = get_array_module(x)
    batch, steps = x.shape[batch_axis], x.shape[seq_axis]
    if lengths.shape != (batch,):
        raise InvalidArgumentError(f"reverse_sequence: seq_lengths has shape {tuple(lengths.shape)}, but the input "
                                   f"has {batch} entries along batch_axis {batch_axis}: give one length per entry")
    if batch and (int(lengths.max()) > steps or int(lengths.min()) < 0):
        worst = int(lengths.max()) if int(lengths.max()) > steps else int(lengths.min())
        raise InvalidArgumentError(f"reverse_sequence: seq_lengths value {worst} is not in [0, {steps}], the "
                                   f"input's size along seq_axis {seq_axis}")
    moved = xp.moveaxis(x, (batch_axis, seq_axis), (0, 1))
    j = xp.arange(steps)[None, :]
    n = lengths.astype(np.int64)[:, None]
    source = xp.where(j < n, n - 1 - j, j)  # (batch, steps): where each output step reads from
    source = xp.broadcast_to(source.reshape(source.shape + (1,) * (x.ndim - 2)), moved.shape)
    out = xp.take_along_axis(moved, source, axis=1)
    return xp.ascontiguousarray(xp.moveaxis(out, (0, 1), (batch_axis, seq_axis)))


register("ReverseSequence", _reverse_sequence, infer=infer_same, fresh=True,
         grad=lambda op, g: [apply_op("ReverseSequence", [g, op.inputs[1]], **op.attrs), None])


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa: A002 - TF1's names
                     seq_dim=None, batch_dim=None):
    """For each i along batch_axis (default 0), reverse the first seq_lengths[i] entries along seq_axis."""
    seq_axis = argument_lookup("seq_axis", seq_axis, "seq_dim", seq_dim)
    batch_axis = argument_lookup("batch_axis", batch_axis, "batch_dim", batch_dim)
    batch_axis = 0 if batch_axis is None else int(batch_axis)
    if seq_axis is None:
        raise ValueError("reverse_sequence needs seq_axis (or its older name seq_dim)")
    x, lengths = convert_to_tensor(input), convert_to_tensor(seq_lengths)
    if lengths.dtype.kind not in "iu":
        raise TypeError(f"reverse_sequence needs integer seq_lengths, got {lengths.name!r} of dtype "
                        f"{lengths.dtype.name}")
    axes = []
    for what, a in (("seq_dim", int(seq_axis)), ("batch_dim", batch_axis)):  # TF's words name the attributes
        if x.ndim is None and a < 0:
            raise ValueError(f"reverse_sequence: a negative {what} ({a}) needs {x.name!r} to have a known rank")
        if x.ndim is not None and not -x.ndim <= a < x.ndim:
            raise ValueError(f"reverse_sequence: {what} must be < input rank: {what}={a}, and {x.name!r} has rank "
                             f"{x.ndim}")
        axes.append(a if x.ndim is None else a % x.ndim)
    if axes[0] == axes[1]:
        raise ValueError(f"reverse_sequence: batch_dim == seq_dim == {axes[0]}; seq_axis and batch_axis must differ")
    if lengths.ndim not in (None, 1):
        raise ValueError(f"reverse_sequence: Shape must be rank 1 but is rank {lengths.ndim}: seq_lengths must be "
                         f"1-D, got {lengths.name!r} of shape {lengths.shape}")
    batch = None if x.ndim is None else x.shape.as_list()[axes[1]]
    count = lengths.shape.as_list()[0] if lengths.ndim == 1 else None
    if batch is not None and count is not None and batch != count:
        raise ValueError(f"reverse_sequence: Dimensions must be equal, but are {batch} and {count}: {x.name!r} has "
                         f"{batch} entries along batch_dim {axes[1]} and seq_lengths has {count}")
    return apply_op("ReverseSequence", [x, lengths], name=name or "ReverseSequence", seq_axis=axes[0],
                    batch_axis=axes[1])
