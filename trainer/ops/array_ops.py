"""Array ops: reshape, transpose, concat, cast, one_hot, argmax/argmin, shape, zeros and ones (slicing is in
slice_ops.py)."""
import numpy as np

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor
from .core_ops import convert_to_tensor
from ..framework.registry import apply_op, check_same_dtype, get_array_module, register
from ..platform.errors import UnimplementedError
from .tensor_util import argument_lookup, constant_value, static_int, static_ints, static_shape
from .shape_tensors import known_dim as _known_dim, known_shape, shape_argument


def _reshape_infer(x, *shape_input, shape):
    if shape is None:  # the shape is a Tensor: what is known of it while building (-1 stays unknown)
        return [(known_shape(shape_input[0]), x.dtype)]
    xs = static_shape(x)
    if xs is not None and None not in xs and -1 not in shape and np.prod(xs) != np.prod(shape):
        raise ValueError(f"Cannot reshape a tensor with {int(np.prod(xs))} elements to shape "
                         f"[{','.join(map(str, shape))}] ({int(np.prod(shape))} elements): {x.name!r} has shape {xs}")
    if xs is not None and None in xs and -1 not in shape:  # the known dims must divide the new element count
        known = int(np.prod([d for d in xs if d is not None]))
        if known and int(np.prod(shape)) % known:
            raise ValueError(f"Dimension size must be evenly divisible by {known} but is {int(np.prod(shape))}: "
                             f"cannot reshape {x.name!r} (shape {xs}) to {shape}")
    if -1 in shape and xs is not None and None not in xs:
        known = int(np.prod([d for d in shape if d != -1]))
        if known and int(np.prod(xs)) % known:
            raise ValueError(f"Dimension size must be evenly divisible by {known} but is {int(np.prod(xs))}: "
                             f"cannot reshape {x.name!r} (shape {xs}) to {shape}")
        shape = tuple(int(np.prod(xs)) // max(known, 1) if d == -1 else d for d in shape)
    return [(tuple(None if d == -1 else d for d in shape), x.dtype)]


def _reshape(x, *shape_input, shape):
    return np.reshape(x, shape if shape is not None else tuple(int(d) for d in shape_input[0]))


register("Reshape", _reshape, infer=_reshape_infer, view=True,
         grad=lambda op, g: [reshape_like(g, op.inputs[0])] + [None] * (len(op.inputs) - 1))
register("ReshapeLike", lambda x, like: np.reshape(x, like.shape), view=True,
         infer=lambda x, like: [(like.shape, x.dtype)],
         grad=lambda op, g: [reshape_like(g, op.inputs[0]), None])


def reshape(tensor, shape, name=None):
    """The same values in a new shape; one dim may be -1 (inferred). `shape` may be a Tensor, or hold Tensors."""
    x = convert_to_tensor(tensor)
    if not isinstance(shape, Tensor) and any(isinstance(d, Tensor) for d in shape):
        # the "Pack" op (stack_ops.py, whose gradients need concat from here) by its registered name
        shape = apply_op("Pack", [convert_to_tensor(d, dtype=dtypes.int32) if not isinstance(d, Tensor) else d
                                  for d in shape], name="stack", axis=0)
    static = constant_value(shape) if isinstance(shape, Tensor) else shape
    if static is None:
        return apply_op("Reshape", [x, shape], name=name or "Reshape", shape=None)
    shape = tuple(-1 if d is None else int(d) for d in static)
    if shape.count(-1) > 1:
        raise ValueError(f"reshape takes at most one -1 (inferred) dimension, got shape {shape}")
    return apply_op("Reshape", [x], name=name or "Reshape", shape=shape)


def reshape_like(x, like):
    """x reshaped to `like`'s run-time shape."""
    return apply_op("ReshapeLike", [x, like], name="Reshape")


def _transpose_infer(x, axes):
    shape = static_shape(x)
    return [(None if shape is None else tuple(shape[a] for a in axes), x.dtype)]


def _transpose_grad(op, g):
    axes = op.attrs["axes"]
    return [transpose(g, None if axes is None else tuple(np.argsort(axes)))]  # a reversal undoes itself


register("Transpose", np.transpose, infer=_transpose_infer, view=True, grad=_transpose_grad)


def transpose(a, perm=None, name=None):
    """Permute the dimensions of `a` (reverse them when perm is None)."""
    a = convert_to_tensor(a)
    if perm is None:
        if a.ndim is None:  # TF reverses the dims its rank has at run time: so does np.transpose without axes
            return apply_op("Transpose", [a], name=name or "transpose", axes=None)
        perm = tuple(reversed(range(a.ndim)))
    return apply_op("Transpose", [a], name=name or "transpose", axes=tuple(static_ints(perm, "transpose perm")))


def _concat_infer(*values, axis):
    shapes = [static_shape(v) for v in values]
    if any(s is None for s in shapes):
        return [(None, values[0].dtype)]
    shape = list(shapes[0])
    sizes = [s[axis] for s in shapes]
    shape[axis] = None if None in sizes else sum(sizes)
    return [(tuple(shape), values[0].dtype)]


def _concat_slice(g, *values, axis, index):
    start = sum(v.shape[axis] for v in values[:index])
    key = (slice(None),) * (axis % g.ndim) + (slice(start, start + values[index].shape[axis]),)
    return g[key]


register("ConcatV2", lambda *values, axis: np.concatenate(values, axis=axis), infer=_concat_infer,
         grad=lambda op, g: [apply_op("ConcatSlice", [g, *op.inputs], axis=op.attrs["axis"], index=i)
                             for i in range(len(op.inputs))], fresh=True)
register("ConcatSlice", _concat_slice, view=True,
         infer=lambda g, *values, axis, index: [(values[index].shape, g.dtype)])


def concat(values, axis, name=None):
    """Join tensors along an existing axis."""
    values = [convert_to_tensor(v) for v in values]
    check_same_dtype("ConcatV2", values)
    rank = values[0].ndim
    axis = static_int(axis, "concat axis")
    axis = axis % rank if rank is not None else axis
    return apply_op("ConcatV2", values, name=name or "concat", axis=axis)


def _cast_grad(op, g):
    x = op.inputs[0]
    if x.dtype.kind == "f" and op.outputs[0].dtype.kind == "f":
        return [cast(g, x.dtype)]
    return [None]


def _cast_kernel(x, dtype):
    if (x.dtype.kind in "OSU") != (np.dtype(dtype).kind in "OSU"):  # numbers and strings do not convert, as in TF
        raise UnimplementedError(message=f"Cast {dtypes.as_dtype(x.dtype).name} to {dtypes.as_dtype(dtype).name} "
                                         "is not supported: use tf.as_string or tf.strings.to_number")
    return x.astype(dtype, copy=False)


register("Cast", _cast_kernel, view=True, infer=lambda x, dtype: [(x.shape, dtype)], grad=_cast_grad)


def cast(x, dtype, name=None):
    """x converted to `dtype`."""
    x, dtype = convert_to_tensor(x), dtypes.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return apply_op("Cast", [x], name=name or "Cast", dtype=dtype)


def to_float(x, name="ToFloat"):
    """x cast to float32."""
    return cast(x, dtypes.float32, name=name)


def to_bfloat16(x, name="ToBFloat16"):
    """x cast to bfloat16 (computing in it needs the ml_dtypes package, see tg.bfloat16)."""
    return cast(x, dtypes.bfloat16, name=name)


def to_complex64(x, name="ToComplex64"):
    """x cast to complex64."""
    return cast(x, dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    """x cast to complex128."""
    return cast(x, dtypes.complex128, name=name)


def to_double(x, name="ToDouble"):
    """x cast to float64."""
    return cast(x, dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    """x cast to int32."""
    return cast(x, dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    """x cast to int64."""
    return cast(x, dtypes.int64, name=name)


def _one_hot(indices, *given, depth, on_value, off_value, axis, dtype):
    if given:  # depth, on_value and off_value as the run computed them
        depth, on_value, off_value = int(given[0]), given[1], given[2]
    if depth < 0:
        raise ValueError(f"depth must be non-negative, got: {depth} (one_hot's depth, the number of classes)")
    xp = get_array_module(indices)
    hot = xp.expand_dims(indices, -1) == xp.arange(depth)
    out = xp.where(hot, on_value[()], off_value[()]).astype(dtype)
    return out if axis == -1 else xp.moveaxis(out, -1, axis)


def _one_hot_infer(i, *given, depth, on_value, off_value, axis, dtype):
    if i.ndim is None:
        return [(None, dtype)]
    shape = list(static_shape(i))
    shape.insert(len(shape) if axis == -1 else axis, depth)
    return [(tuple(shape), dtype)]


register("OneHot", _one_hot, infer=_one_hot_infer, fresh=True)


def _hinted_dtype(value, hint):
    """The dtype tf.convert_to_tensor(value, dtype_hint=hint) gives: a Tensor's or numpy value's own, a Python
    number's the hint where it converts losslessly (an int to any number, a float to a float), else TF's default."""
    if isinstance(value, (Tensor, np.ndarray, np.generic)) or hint is None:
        return value.dtype if isinstance(value, Tensor) else dtypes.default_dtype_for(value)
    kind = np.asarray(value).dtype.kind
    if (kind in "iub" and hint.kind in "iuf" and kind != "b") or (kind == "f" and hint.kind == "f") or \
            (kind == "b" and hint.kind == "b"):
        return hint
    return dtypes.default_dtype_for(value)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`depth`-wide one-hot vectors for integer `indices` along `axis` (-1: a new last axis); indices outside
    [0, depth) give all off_value. The dtype is `dtype`, else on/off_value's, else float32. depth, on_value
    and off_value may be scalar Tensors."""
    indices = convert_to_tensor(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"one_hot needs integer indices, got {indices.name!r} of dtype {indices.dtype.name}")
    hint = None if dtype is None else dtypes.as_dtype(dtype)
    given = {which: _hinted_dtype(v, hint) for which, v in (("on_value", on_value), ("off_value", off_value))
             if v is not None}
    for which, found in given.items():  # TF's checks, on the values as tf.convert_to_tensor(v, dtype_hint=dtype)
        if hint is not None and found != hint:
            raise TypeError(f"dtype {found!r} of {which} does not match dtype parameter {hint!r}")
    if len(set(given.values())) > 1:
        raise TypeError(f"dtype {given['on_value']!r} of on_value does not match dtype {given['off_value']!r} of "
                        "off_value")
    dtype = hint or next(iter(given.values()), dtypes.float32)
    rank = indices.ndim
    axis = -1 if axis is None else int(axis)
    if rank is not None and not -1 <= axis <= rank:
        raise ValueError(f"one_hot axis must be in [-1, {rank}] for indices of rank {rank}, got {axis}")
    values = [1 if on_value is None else on_value, 0 if off_value is None else off_value, depth]
    known = [constant_value(v) for v in values]
    if any(k is None for k in known):
        depth = convert_to_tensor(depth, dtype=dtypes.int32, name="depth")
        on, off = (convert_to_tensor(v, dtype=dtype) for v in values[:2])
        return apply_op("OneHot", [indices, depth, on, off], name=name or "one_hot", depth=_known_dim(depth),
                        on_value=None, off_value=None, axis=axis, dtype=dtype)
    on, off = (np.asarray(k, dtype=dtype) for k in known[:2])
    return apply_op("OneHot", [indices], name=name or "one_hot", depth=int(known[2]), on_value=on, off_value=off,
                    axis=axis, dtype=dtype)


def _arg_infer(x, axis, output_type):
    shape = static_shape(x)
    if shape is None:
        return [(None, output_type)]
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"argmax/argmin axis {axis} is out of range for {x.name!r} of rank {len(shape)}")
    return [(tuple(d for i, d in enumerate(shape) if i != axis % len(shape)), output_type)]


def _arg_kernel(reduce):
    def forward(x, axis, output_type):
        if x.shape[axis] == 0:  # numpy's own words name no axis; TF's say which one is empty
            raise ValueError(f"Reduction axis {axis} is empty in shape [{','.join(map(str, x.shape))}]")
        return reduce(x, axis=axis).astype(output_type, copy=False)
    return forward


register("ArgMax", _arg_kernel(np.argmax), infer=_arg_infer, fresh=True)
register("ArgMin", _arg_kernel(np.argmin), infer=_arg_infer, fresh=True)


def _arg_builder(op_type, public_name, doc):
    def build(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002 - TF1's name
        axis = argument_lookup("axis", axis, "dimension", dimension)
        output_type = dtypes.as_dtype(output_type)
        if output_type not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"{public_name} output_type must be tg.int32 or tg.int64, got {output_type!r}")
        known = 0 if axis is None else constant_value(axis)
        if known is None:
            raise NotImplementedError(f"{public_name} axis {getattr(axis, 'name', axis)!r} is computed while the "
                                      "graph runs; give it as a Python int")
        axis = int(known)
        return apply_op(op_type, [convert_to_tensor(input)], name=name or op_type, axis=axis, output_type=output_type)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


argmax = _arg_builder("ArgMax", "argmax", "Index of the largest value along `axis` (default 0; int64 unless "
                      "output_type=tg.int32).")
argmin = _arg_builder("ArgMin", "argmin", "Index of the smallest value along `axis` (default 0; int64 unless "
                      "output_type=tg.int32).")


def arg_max(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 - TF1's name
    """TF1's older argmax: the index of the largest value along `dimension`."""
    return argmax(input, dimension, name=name, output_type=output_type)


def arg_min(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 - TF1's name
    """TF1's older argmin: the index of the smallest value along `dimension`."""
    return argmin(input, dimension, name=name, output_type=output_type)


register("Shape", kernel=lambda op, session: lambda x, to_device=session.to_device: to_device(
         np.array(x.shape, dtype=np.int32)),
         infer=lambda x: [((x.ndim,), dtypes.int32)], fresh=True)


def shape(input, name=None):  # noqa: A002 - TF1's name
    """The run-time shape of a tensor, as an int32 vector."""
    return apply_op("Shape", [convert_to_tensor(input)], name=name or "Shape")


register("Zeros", kernel=lambda op, session: _filled_kernel(np.zeros, op, session),
         infer=lambda *dims, shape, dtype: [(shape, dtype)], fresh=True)
register("Ones", kernel=lambda op, session: _filled_kernel(np.ones, op, session),
         infer=lambda *dims, shape, dtype: [(shape, dtype)], fresh=True)


def _filled_kernel(fill, op, session):
    # No array input tells the device: the session does (a new host array is placed there each run). A shape
    # only the run knows arrives as the op's input.
    shape, dtype, to_device = op.attrs["shape"], op.attrs["dtype"], session.to_device
    if op.inputs:
        return lambda dims: to_device(fill(tuple(int(d) for d in dims), dtype=dtype))
    return lambda: to_device(fill(shape, dtype=dtype))


def _filled(op_type, shape, dtype, name):
    static, dims = shape_argument(shape, name)
    dtype = dtypes.as_dtype(dtype)
    op = get_default_graph().create_op(op_type, [] if dims is None else [dims], [(static, dtype)], name=name,
                                       attrs={"shape": static, "dtype": dtype})
    return op.outputs[0]


def zeros(shape, dtype=dtypes.float32, name=None):
    """Zeros of `shape` (ints, or an int vector Tensor such as tg.shape(x), or a list mixing ints and scalar
    Tensors), made when the op runs (no constant is stored in the graph)."""
    return _filled("Zeros", shape, dtype, name or "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """Ones of `shape` (as for zeros), made when the op runs."""
    return _filled("Ones", shape, dtype, name or "ones")
