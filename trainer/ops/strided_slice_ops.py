"""tf.strided_slice(input_, begin, end, strides, *_mask): TF1's spelled-out form of x[key].

Entry i of begin/end/strides makes entry i of the key, its meaning picked by bit i of the masks (TF1's
precedence: ellipsis, then new axis, then shrink, then an ordinary slice whose begin_mask/end_mask bits drop its
start/stop). Positions may be Python ints, scalar int Tensors (x[0, i * n]-style lists, TF1 packs those), or
one 1-D int Tensor of known length; slice_ops.py turns the Tensors into the op's inputs.
"""
import numpy as np

from ..framework.tensor import Tensor
from .slice_ops import strided_slice as slice_by_key
from .tensor_util import constant_value


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """The strided slice of `input_` from `begin` to `end` by `strides`, each a list of positions (TF1)."""
    if var is not None:
        raise NotImplementedError("tg.strided_slice(var=...) (the sliced assignment's bookkeeping) is not "
                                  "implemented: slice the variable itself")
    begin, end = _positions(begin, "begin"), _positions(end, "end")
    strides = [1] * len(begin) if strides is None else _positions(strides, "strides")
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"strided_slice needs begin, end and strides of one length, got {len(begin)}, "
                         f"{len(end)} and {len(strides)}")
    if bin(ellipsis_mask).count("1") > 1:
        raise ValueError(f"strided_slice allows one ellipsis, got ellipsis_mask={ellipsis_mask!r}")
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b)
        else:
            key.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return slice_by_key(input_, tuple(key), name=name or "StridedSlice")


def _positions(value, what):
    """`value` as a list whose entries are ints or scalar int Tensors."""
    if isinstance(value, Tensor):
        known = constant_value(value)
        if known is not None:
            return [int(v) for v in np.ravel(known)]
        dims = value.shape.as_list() if value.shape.ndims is not None else None
        if dims is None or len(dims) != 1 or dims[0] is None:
            raise NotImplementedError(f"strided_slice: {what} {value.name!r} has shape {value.shape}: ringflow "
                                      "needs a list, or a 1-D Tensor whose length the graph knows")
        return [value[j] for j in range(dims[0])]
    if isinstance(value, (list, tuple, np.ndarray)):
        return [v if isinstance(v, Tensor) else int(v) for v in value]
    raise TypeError(f"strided_slice: {what} must be a list of ints or scalar int Tensors, or a 1-D int Tensor, "
                    f"got {value!r}")
