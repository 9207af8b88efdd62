"""tf.bitcast: a tensor's bytes read as another numeric type, no copy of the values' meaning (TF1's Bitcast)."""
from ..framework import dtypes
from ..framework.registry import apply_op, get_array_module, register
from .core_ops import convert_to_tensor
from .tensor_util import static_shape


def _bitcast(x, type):
    xp = get_array_module(x)
    x = xp.ascontiguousarray(x)
    if x.dtype.itemsize > type.itemsize:
        return x[..., None].view(type.dtype)
    out = x.view(type.dtype)
    return out if x.dtype.itemsize == type.itemsize else out[..., 0]


def _bitcast_shape(x, type):
    shape, have, want = static_shape(x), x.dtype.itemsize, type.itemsize
    if shape is None or have == want:
        return shape
    if have > want:
        return shape + (have // want,)
    if not shape or shape[-1] not in (None, want // have):
        raise ValueError(f"Cannot bitcast {x.name!r} of shape {shape} and dtype {x.dtype.name} to {type.name}: its "
                         f"last dimension must be {want // have}")
    return shape[:-1]


register("Bitcast", _bitcast, infer=lambda x, type: [(_bitcast_shape(x, type), type)])
_NUMBERS = "iufc"


def bitcast(input, type, name=None):
    """The bytes of `input` as dtype `type`: a wider type takes the last dimension's values together (it must be
    the ratio of the sizes), a narrower one adds a last dimension of that ratio."""
    input, type = convert_to_tensor(input), dtypes.as_dtype(type)
    for have in (input.dtype, type):
        if have.kind not in _NUMBERS or have.is_quantized:
            raise TypeError(f"bitcast converts between numeric dtypes, got {input.name!r} of dtype "
                            f"{input.dtype.name} to {type.name}")
    return apply_op("Bitcast", [input], name=name or "Bitcast", type=type)
