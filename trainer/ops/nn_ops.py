"""Neural-network ops: activations, softmax, dropout, bias_add and the (numerically stable) losses."""
import math

import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from .array_ops import cast, reshape, shape as array_shape, transpose
from .slice_ops import strided_slice
from .core_ops import convert_to_tensor
from .kernels import cuda_kernels
from .cwise_ops import stop_gradient
from .math_ops import binary_operands, check_input_kind, exp, inplace_binary, unary_builder
from .reduction_ops import reduce_sum
from ..framework.registry import apply_op, get_array_module, infer_same, register
from .tensor_util import argument_lookup, static_shape


@cuda_kernels.on_cupy(cuda_kernels.relu_grad)
def _relu_grad(g, y):
    return np.multiply(g, y > 0)


@cuda_kernels.on_cupy(cuda_kernels.relu_grad_inplace)
def _relu_grad_inplace(g, y):
    return np.multiply(g, y > 0, out=g)


# numpy's maximum against a scalar runs a scalar loop; against a contiguous block of zeros, its SIMD one: 3-4x
# faster over a conv layer's activations, to the same bits (NaNs and signed zeros included). Blocks of 16384 values
# (64 KiB of float32 zeros, made per call) measured best of 1024-65536 on LeNet's and a dense layer's activations.
RELU_BLOCK = 16384


def _relu(x):
    if type(x) is not np.ndarray or x.size < RELU_BLOCK or not x.flags.c_contiguous:
        return np.maximum(x, 0)
    return _relu_blocks(x, np.empty_like(x))


def _relu_inplace(x):
    if type(x) is not np.ndarray or x.size < RELU_BLOCK or not x.flags.c_contiguous:
        return np.maximum(x, 0, out=x)
    return _relu_blocks(x, x)


def _relu_blocks(x, out):
    flat, dest = x.reshape(-1), out.reshape(-1)
    n = flat.size - flat.size % RELU_BLOCK
    np.maximum(flat[:n].reshape(-1, RELU_BLOCK), np.zeros(RELU_BLOCK, x.dtype), out=dest[:n].reshape(-1, RELU_BLOCK))
    np.maximum(flat[n:], 0, out=dest[n:])
    return out


def _sigmoid(x):
    """1 / (1 + exp(-x)), as exp(x) / (1 + exp(x)) for negative x: exp(-|x|) never overflows and keeps the relative
    precision of tiny results (logaddexp was 10-100x slower). The numerator max(e, x >= 0) is 1 where x >= 0 (e <= 1)
    and e elsewhere, as a select would give, without the select: on mixed signs np.where took 4x the whole rest."""
    xp = get_array_module(x)
    e = xp.exp(-xp.abs(x))
    return xp.divide(xp.maximum(e, x >= 0), 1 + e).astype(x.dtype, copy=False)


_ACTIVATIONS = {  # type: (forward, gradient op type, gradient forward on (g, y))
    "Relu": (_relu, "ReluGrad", _relu_grad),
    "Sigmoid": (_sigmoid, "SigmoidGrad", lambda g, y: g * (y * (1 - y))),
    "Tanh": (np.tanh, "TanhGrad", lambda g, y: g * (1 - y * y)),
}
_INPLACE = {"Relu": _relu_inplace, "ReluGrad": _relu_grad_inplace}


def _relu_gradient(op, g):
    """ReluGrad(g, y), or, where g is max pooling's gradient of y itself (conv, ReLU, pool), the pooling gradient of
    the pooled gradient masked by the pooled values: a window sends its gradient to a tap holding its maximum p, so
    y > 0 there exactly where p > 0, and the mask is taken over a quarter of the values (2x2 pooling) instead of
    a pass over the full-size gradient. Only a window holding NaN differs: pooling's gradient sends it to the window's
    last tap, which y's mask keeps where that tap is positive and the pooled mask drops; its loss is NaN either way."""
    y, pool = op.outputs[0], g.op
    if pool.type == "MaxPoolGrad" and pool.inputs[0] is y:
        _, pooled, pooled_grad = pool.inputs
        masked = apply_op("ReluGrad", [pooled_grad, pooled], name="ReluGrad")
        return [apply_op("MaxPoolGrad", [y, pooled, masked], name="MaxPoolGrad", **pool.attrs)]
    return [apply_op("ReluGrad", [g, y], name="ReluGrad")]


_GRADIENTS = {"Relu": _relu_gradient}
for _type, (_forward, _grad_type, _grad_forward) in _ACTIVATIONS.items():
    register(_type, _forward, infer=infer_same, fresh=True, inplace=_INPLACE.get(_type),
             grad=_GRADIENTS.get(_type, lambda op, g, t=_grad_type: [apply_op(t, [g, op.outputs[0]], name=t)]))
    register(_grad_type, _grad_forward, infer=infer_same, fresh=True, inplace=_INPLACE.get(_grad_type),
             grad=lambda op, gg, t=_type: _activation_grad_grad(t, op, gg))


def _activation_grad_grad(op_type, op, gg):
    g, y = op.inputs
    if op_type == "Relu":
        return [apply_op("ReluGrad", [gg, y]), None]
    if op_type == "Sigmoid":
        return [apply_op("SigmoidGrad", [gg, y]), gg * g * (1.0 - 2.0 * y)]
    return [apply_op("TanhGrad", [gg, y]), gg * g * (-2.0 * y)]


relu = unary_builder("Relu", "max(x, 0) elementwise.")
sigmoid = unary_builder("Sigmoid", "1 / (1 + exp(-x)) elementwise, stable for large |x|.")
tanh = unary_builder("Tanh", "Hyperbolic tangent elementwise.")


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    e /= e.sum(axis=axis, keepdims=True)
    return e


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    shifted -= np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    return shifted


def _softmax_grad(op, g):
    y = op.outputs[0]
    return [(g - reduce_sum(g * y, axis=op.attrs["axis"], keepdims=True)) * y]


def _log_softmax_grad(op, g):
    return [g - exp(op.outputs[0]) * reduce_sum(g, axis=op.attrs["axis"], keepdims=True)]


register("Softmax", _softmax, infer=infer_same, grad=_softmax_grad, fresh=True)
register("LogSoftmax", _log_softmax, infer=infer_same, grad=_log_softmax_grad, fresh=True)


def _softmax_builder(op_type, public_name, doc):
    def build(logits, axis=None, name=None, dim=None):
        x = convert_to_tensor(logits)
        check_input_kind(op_type, x)
        axis = argument_lookup("axis", axis, "dim", dim)
        axis = -1 if axis is None else int(axis)
        if x.ndim is not None:
            if not -x.ndim <= axis < x.ndim:
                raise ValueError(f"{public_name}: axis {axis} is out of range for {x.name!r} of rank {x.ndim}")
            axis = -1 if axis % x.ndim == x.ndim - 1 else axis % x.ndim
        return apply_op(op_type, [x], name=name or op_type, axis=axis)
    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = doc
    return build


softmax = _softmax_builder("Softmax", "softmax", "exp(x) / sum(exp(x)) along `axis` (default: the last), shifted "
                           "by the max for stability.")
log_softmax = _softmax_builder("LogSoftmax", "log_softmax", "x - log(sum(exp(x))) along `axis` (default: the "
                               "last), stable for large logits.")


def _xent_forward(logits, labels):
    if labels.shape != logits.shape:
        labels = _labels_as_logits(logits, labels)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    cross = (labels * shifted).sum(axis=-1)
    np.exp(shifted, out=shifted)
    total = shifted.sum(axis=-1, keepdims=True)
    loss = np.log(total[..., 0]) * labels.sum(axis=-1) - cross
    shifted /= total
    shifted -= labels
    return loss, shifted


def _labels_as_logits(logits, labels):
    """The labels of the logits' shape, as TF takes them: its wrapper flattens both to [rows, classes] and its
    kernel broadcasts the two matrices, so labels of another rank ([1, N, C] for [N, C] logits) or a single row
    or class column serve, as long as the loss keeps one value per row of the logits."""
    problem = _labels_problem(logits.shape, labels.shape)
    if problem:
        raise InvalidArgumentError(problem)
    flat = labels.reshape(-1, labels.shape[-1] if labels.ndim else 1)
    return get_array_module(labels).broadcast_to(flat, (math.prod(logits.shape[:-1]), logits.shape[-1])) \
        .reshape(logits.shape)


def _labels_problem(shape, labels_shape):
    """What is wrong with labels of `labels_shape` for logits of `shape` (see _labels_as_logits), or None."""
    rows, labels_rows = (math.prod(shape[:-1]), shape[-1]), (math.prod(labels_shape[:-1]), (labels_shape or (1,))[-1])
    if any(n != m and m != 1 for n, m in zip(rows, labels_rows)):
        return (f"logits and labels must be broadcastable: logits_size={list(rows)} labels_size={list(labels_rows)} "
                f"(each flattened to [rows, classes] from {list(shape)} and {list(labels_shape)}): the loss has one "
                "value per row of the logits; give the labels as many rows of classes, or one")
    return None


def _xent_grad(op, g, _):
    logits, labels = op.inputs
    g = strided_slice(g, (Ellipsis, None))
    wrt_labels = g * -log_softmax(logits)
    ranks = [None if shape is None else len(shape) for shape in (static_shape(labels), static_shape(logits))]
    if None in ranks or ranks[0] != ranks[1]:  # labels of another rank (see _labels_as_logits) get their own shape
        wrt_labels = reshape(wrt_labels, array_shape(labels))
    return [op.outputs[1] * g, wrt_labels]


def _xent_infer(logits, labels):
    shape = static_shape(logits)
    return [(None if shape is None else shape[:-1], logits.dtype), (shape, logits.dtype)]


def _dense_xent_infer(logits, labels):
    shape, labels_shape = static_shape(logits), static_shape(labels)
    problem = shape and labels_shape is not None and None not in shape + labels_shape and \
        _labels_problem(shape, labels_shape)
    if problem:
        raise ValueError(problem)  # TF's shape function refuses them while the graph is built
    return _xent_infer(logits, labels)


register("SoftmaxCrossEntropyWithLogits", _xent_forward, infer=_dense_xent_infer, grad=_xent_grad, fresh=True)


def _named_only(fn_name, sentinel):
    if sentinel is not None:
        raise ValueError(f"Only call {fn_name} with named arguments (labels=..., logits=..., ...), as TF1 requires; "
                         f"got the positional argument {sentinel!r}")


def _class_axis_last(tensor, axis):
    """`tensor` with its class axis moved to the end (the kernels reduce over the last axis)."""
    rank = tensor.ndim
    if axis == -1 or (rank is not None and axis % rank == rank - 1):
        return tensor
    if rank is None:
        raise NotImplementedError(f"A class axis other than the last needs {tensor.name!r} to have a known rank")
    axis %= rank
    return transpose(tensor, [i for i in range(rank) if i != axis] + [axis])


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """-sum(labels * log_softmax(logits)) along the class `axis` (default: the last); the gradient reaches both
    logits (softmax - labels, fused) and labels."""
    axis = argument_lookup("axis", axis, "dim", dim)
    axis = -1 if axis is None else int(axis)
    logits = convert_to_tensor(logits)
    with logits.graph.as_default():
        labels = convert_to_tensor(labels)
    # TF's casts: half-precision logits are computed in float32 and the loss cast back; the labels, of whatever
    # dtype, are cast to the dtype the logits are computed in.
    half = logits.dtype.name in ("float16", "bfloat16")
    precise = cast(logits, dtypes.float32) if half else logits
    precise, labels = _class_axis_last(precise, axis), _class_axis_last(cast(labels, precise.dtype), axis)
    loss = apply_op("SoftmaxCrossEntropyWithLogits", [precise, labels],
                    name=name or "softmax_cross_entropy_with_logits")[0]
    return cast(loss, logits.dtype) if half else loss


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's v1 softmax cross-entropy: as the _v2 one, but no gradient flows into `labels`."""
    _named_only("softmax_cross_entropy_with_logits", _sentinel)
    axis = argument_lookup("axis", axis, "dim", None if dim == -1 else dim)
    logits = convert_to_tensor(logits)
    with logits.graph.as_default():
        labels = stop_gradient(labels)
    return softmax_cross_entropy_with_logits_v2(labels, logits, axis=axis,
                                                name=name or "softmax_cross_entropy_with_logits_sg")


# numpy's maximum along short rows pays a call per row; over the columns of the transposed copy it is one pass per
# column: 1.6x faster at 32 rows of 10 classes, 3.6x at 128 (the batch's logits), slower from 128 classes or under 16
# rows (measured on 2-D float32, up to 1000 x 10). A maximum is exact: the same values either way.
ROW_MAX_COLUMNS, ROW_MAX_ROWS = 64, 16


def _row_max(x):
    """x.max(axis=-1, keepdims=True)."""
    if (type(x) is np.ndarray and x.ndim >= 2 and x.shape[-1] <= ROW_MAX_COLUMNS
            and x.size >= ROW_MAX_ROWS * x.shape[-1] and x.flags.c_contiguous):
        if x.ndim == 2:
            return np.maximum.reduce(x.T.copy(), axis=0)[:, None]
        return np.maximum.reduce(x.reshape(-1, x.shape[-1]).T.copy(), axis=0).reshape(x.shape[:-1] + (1,))
    return x.max(axis=-1, keepdims=True)


@cuda_kernels.on_cupy(cuda_kernels.sparse_softmax_cross_entropy)
def _sparse_xent_forward(logits, labels):
    shifted = logits - _row_max(logits)
    classes, flat, labels = shifted.shape[-1], shifted.reshape(-1), labels.reshape(-1)
    if labels.dtype == np.uint64:  # numpy adds int64 and uint64 in float64
        labels = labels.astype(np.int64)
    # each row's label as one index into the flat array: numpy's 1-D indexing takes a third of the 2-D one's time
    at = get_array_module(logits).arange(0, labels.size * classes, classes) + labels
    picked = flat[at]
    np.exp(shifted, out=shifted)
    total = shifted.sum(axis=-1, keepdims=True)
    loss = np.log(total[..., 0]) - picked.reshape(total.shape[:-1])
    shifted /= total
    flat[at] -= 1
    return loss, shifted


SHOWN_LABELS = 20  # TF1 lists every label of the batch; a few are enough to recognise it
_UNSIGNED = {np.dtype(t): np.dtype(t.replace("int", "uint")) for t in ("int8", "int16", "int32", "int64")}


def _sparse_xent(logits, labels):
    """TF1's CPU kernel refuses a label outside [0, classes) and its GPU kernel gives NaN rows: so do ringflow's
    on host arrays (one max over the labels read as unsigned, a negative one reading as huge: ~1 us a step) and
    on CuPy arrays (cuda_kernels.sparse_softmax_cross_entropy, with no wait for the GPU)."""
    if type(labels) is not np.ndarray and cuda_kernels.is_cupy(labels):  # numpy's test first: is_cupy costs ~0.4 us
        return _sparse_xent_forward(logits, labels)  # one kernel gives NaN rows, as TF1's GPU kernel does
    unsigned = labels.view(_UNSIGNED[labels.dtype]) if labels.dtype in _UNSIGNED else labels
    if labels.size and unsigned.max() >= logits.shape[-1]:
        _bad_labels(logits, labels)
    return _sparse_xent_forward(logits, labels)


def _bad_labels(logits, labels):
    classes = logits.shape[-1]
    low, high = int(labels.min()), int(labels.max())
    shown = " ".join(str(v) for v in labels.reshape(-1)[:SHOWN_LABELS].tolist())
    raise InvalidArgumentError(
        f"Received a label value of {low if low < 0 else high} which is outside the valid range of "
        f"[0, {classes}).  Label values: {shown}{' ...' if labels.size > SHOWN_LABELS else ''}")


register("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent, infer=_xent_infer,
         grad=lambda op, g, _: [op.outputs[1] * strided_slice(g, (Ellipsis, None)), None], fresh=True)


def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):
    """Softmax cross-entropy with integer class `labels` (one per row of `logits`)."""
    _named_only("sparse_softmax_cross_entropy_with_logits", _sentinel)
    logits, labels = convert_to_tensor(logits), convert_to_tensor(labels)
    if labels.dtype.kind not in "iu":
        raise TypeError(f"sparse_softmax_cross_entropy_with_logits needs integer labels, got {labels.dtype.name}")
    if labels.ndim is not None and logits.ndim is not None and labels.ndim != logits.ndim - 1:
        raise ValueError(f"sparse_softmax_cross_entropy_with_logits needs labels of rank logits.rank - 1: "
                         f"{labels.name!r} has shape {labels.shape}, {logits.name!r} {logits.shape}; give one class "
                         "index per row (tg.squeeze a trailing axis of 1)")
    return apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels],
                    name=name or "sparse_softmax_cross_entropy")[0]


def _sigmoid_xent(x, z):
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


register("SigmoidCrossEntropyWithLogits", _sigmoid_xent,
         grad=lambda op, g: [g * (sigmoid(op.inputs[0]) - op.inputs[1]), g * -op.inputs[0]], fresh=True)


def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) elementwise: stable for large |logits|."""
    _named_only("sigmoid_cross_entropy_with_logits", _sentinel)
    logits, labels = binary_operands("SigmoidCrossEntropyWithLogits", logits, labels)
    return apply_op("SigmoidCrossEntropyWithLogits", [logits, labels], name=name or "logistic_loss")


register("L2Loss", lambda x: (get_array_module(x).vdot(x, x) / 2).astype(x.dtype),
         infer=lambda x: [((), x.dtype)], grad=lambda op, g: [op.inputs[0] * g], fresh=True)


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    t = convert_to_tensor(t)
    check_input_kind("L2Loss", t)
    return apply_op("L2Loss", [t], name=name or "L2Loss")


GEMV_MIN_VALUES = 4096  # below this, making the ones vector and calling BLAS costs more than numpy's reduction


def _gemv_sums(g, out=None):
    """The sum over every axis but the last as one GEMV (ones @ g), or None where numpy's reduction is the better
    choice: numpy's reduction over leading axes adds row by row, 8x slower on a conv layer's (N*H*W, C) gradient
    (1.5x on a dense layer's), where the GEMV is memory-bound and, summing in blocks, closer to the exact sum."""
    if (type(g) is np.ndarray and g.size >= GEMV_MIN_VALUES and g.dtype.char in "fd" and g.ndim >= 2
            and g.flags.c_contiguous):
        rows = g.size // g.shape[-1]
        return np.dot(np.ones(rows, g.dtype), g.reshape(rows, g.shape[-1]), out=out)
    return None


@cuda_kernels.on_cupy(cuda_kernels.column_sums)
def _bias_add_grad(g):
    if g.size >= GEMV_MIN_VALUES:
        summed = _gemv_sums(g)
        if summed is not None:
            return summed
    return g.sum(axis=tuple(range(g.ndim - 1))) if g.ndim > 2 else np.add.reduce(g, axis=0)


@cuda_kernels.on_cupy(cuda_kernels.column_sums_into)
def _bias_add_grad_into(out, g):
    summed = _gemv_sums(g, out=out)
    return g.sum(axis=tuple(range(g.ndim - 1)), out=out) if summed is None else summed


_add_inplace = inplace_binary(np.add)


# numpy's add of a bias broadcast along the last axis runs its inner loop once per row (32 or 64 values of a conv
# layer's activations); against the bias tiled into a contiguous block, once per block, as _relu_blocks does: the
# same adds, 1.9-2.4x faster over 2^20 values in rows of 32-128 (1.4x at 512 and 1024), 1.2-1.6x over 2^16 in rows
# of up to 256. Under 4 blocks, and for rows of more than 512 values, tiling costs what it saves.
BIAS_BLOCKS_FROM, BIAS_ROWS_UPTO = 4 * RELU_BLOCK, 512


def _bias_add(x, b):
    return _bias_blocks(x, b, np.empty_like(x)) if _blockwise(x, b) else np.add(x, b)


def _bias_add_inplace(x, b):
    return _bias_blocks(x, b, x) if _blockwise(x, b) else _add_inplace(x, b)


def _blockwise(x, b):
    return (type(x) is np.ndarray and x.size >= BIAS_BLOCKS_FROM and type(b) is np.ndarray and b.ndim == 1
            and x.dtype == b.dtype and x.shape[-1] == b.shape[0] <= BIAS_ROWS_UPTO and x.flags.c_contiguous)


def _bias_blocks(x, b, out):
    c = b.shape[0]
    tile = np.empty((RELU_BLOCK // c, c), x.dtype)
    tile[...] = b
    tile = tile.reshape(-1)
    flat, dest = x.reshape(-1), out.reshape(-1)
    n = flat.size - flat.size % tile.size
    np.add(flat[:n].reshape(-1, tile.size), tile, out=dest[:n].reshape(-1, tile.size))
    np.add(flat[n:].reshape(-1, c), b, out=dest[n:].reshape(-1, c))
    return out


register("BiasAdd", _bias_add, infer=lambda x, b: [(x.shape, x.dtype)], fresh=True, inplace=_bias_add_inplace,
         grad=lambda op, g: [g, apply_op("BiasAddGrad", [g], name="BiasAddGrad")])
register("BiasAddGrad", _bias_add_grad,
         infer=lambda g: [(None if g.ndim is None else static_shape(g)[-1:], g.dtype)],
         grad=lambda op, gg: [apply_op("BroadcastLike", [gg, op.inputs[0]])], fresh=True,
         into=_bias_add_grad_into)


def bias_add(value, bias, name=None):
    """value + bias, with the 1-D bias added along the last axis."""
    value, bias = binary_operands("BiasAdd", value, bias)
    if bias.ndim != 1:
        raise ValueError(f"bias_add needs a 1-D bias, got shape {bias.shape} ({bias.name!r})")
    value_shape, bias_shape = static_shape(value), static_shape(bias)
    last, size = value_shape[-1] if value_shape else None, bias_shape[0]
    if last is not None and size is not None and last != size:
        raise ValueError(f"bias_add adds along the last dimension: {value.name!r} has {last} there, the bias "
                         f"{bias.name!r} {size}; give a bias of {last} values")
    return apply_op("BiasAdd", [value, bias], name=name or "BiasAdd")

