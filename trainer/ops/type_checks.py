"""The checks TF1 makes while building, on ranks and dtypes (assert_rank_at_least, assert_rank_in, assert_scalar,
assert_same_float_dtype, assert_proper_iterable, is_numeric_tensor), and the value checks assert_near and
verify_tensor_all_finite."""
import numpy as np

from ..framework import dtypes
from ..framework.graph_wrappers import name_scope
from ..framework.tensor import Tensor
from .check_ops import Assert, assert_less_equal, check_numerics
from .core_ops import convert_to_tensor, no_op
from .math_ops import abs as abs_, binary_operands, equal, less_equal
from .reduction_ops import reduce_all, reduce_any
from .shape_ops import rank as rank_of
from .stack_ops import stack
from .tensor_util import constant_value

NUMERIC_KINDS = "fciu"


def _prefix(message):
    return f"{message} " if message else ""


def assert_rank_at_least(x, rank, message=None, name=None):
    """ValueError now when x's static rank is below `rank`; else (unknown rank) an op checking it when run."""
    x = convert_to_tensor(x)
    rank = int(constant_value(rank))
    if x.ndim is not None:
        if x.ndim < rank:
            raise ValueError(f"{_prefix(message)}Tensor {x.name!r} must have rank at least {rank}, but has rank "
                             f"{x.ndim} (shape {x.shape})")
        return no_op(name=name or "assert_rank_at_least")
    with name_scope(name or "assert_rank_at_least"):
        return assert_less_equal(np.int32(rank), rank_of(x), message=message)


def assert_rank_in(x, ranks, message=None, name=None):
    """ValueError now when x's static rank is none of `ranks`; else (unknown rank) an op checking it when run."""
    x = convert_to_tensor(x)
    ranks = [int(constant_value(r)) for r in ranks]
    if x.ndim is not None:
        if x.ndim not in ranks:
            raise ValueError(f"{_prefix(message)}Tensor {x.name!r} must have rank in {ranks}, but has rank "
                             f"{x.ndim} (shape {x.shape})")
        return no_op(name=name or "assert_rank_in")
    with name_scope(name or "assert_rank_in"):
        matches = stack([equal(rank_of(x), np.int32(r)) for r in ranks])
        return Assert(reduce_any(matches), [_prefix(message) + f"Tensor {x.name} must have rank in", str(ranks)])


def assert_scalar(tensor, name=None, message=None):
    """`tensor` itself when its static rank is 0; ValueError when it is known to be otherwise."""
    with name_scope(name or "assert_scalar"):
        tensor = convert_to_tensor(tensor)
        if tensor.ndim is None:
            raise ValueError(f"{_prefix(message)}Expected scalar shape for {tensor.name!r}, saw unknown shape")
        if tensor.ndim != 0:
            raise ValueError(f"{_prefix(message)}Expected scalar shape for {tensor.name!r}, saw shape: "
                             f"{tensor.shape}")
        return tensor


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of `tensors` (and of `dtype` when given; float32 when there is none); ValueError
    when they disagree or are not floating."""
    found = dtypes.as_dtype(dtype) if dtype is not None else None
    for t in tensors or []:
        d = dtypes.as_dtype(t.dtype)
        if found is not None and d != found:
            raise ValueError(f"{t.name!r}'s dtype {d.name} does not match the expected {found.name}")
        found = d
    if found is None:
        return dtypes.float32
    if not found.is_floating:
        raise ValueError(f"Expected floating point type, got {found.name}")
    return found


def assert_proper_iterable(values):
    """TypeError when `values` is a Tensor, an ndarray, a string or not iterable (TF1's check for lists)."""
    unwanted = (Tensor, np.ndarray, str, bytes)
    if isinstance(values, unwanted):
        raise TypeError(f"Expected argument 'values' to be a 'proper' iterable. Found: {type(values)!r}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f"Expected argument 'values' to be iterable. Found: {type(values)!r}")


def is_numeric_tensor(tensor):
    """Whether `tensor` is a Tensor of a numeric (float, complex or integer) dtype."""
    return isinstance(tensor, Tensor) and tensor.dtype.kind in NUMERIC_KINDS


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """An Assert op checking |x - y| <= atol + rtol * |y| element-wise (tolerances default to 10 eps of the
    dtype)."""
    with name_scope(name or "assert_near"):
        x, y = binary_operands("assert_near", x, y)
        eps = np.finfo(np.dtype(x.dtype.real_dtype if x.dtype.kind == "c" else x.dtype)).eps
        rtol = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=x.dtype)
        atol = convert_to_tensor(10 * eps if atol is None else atol, dtype=x.dtype)
        if data is None:
            data = [_prefix(message) + "x and y not equal to tolerance rtol = ", rtol, ", atol = ", atol,
                    f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
        return Assert(reduce_all(less_equal(abs_(x - y), atol + rtol * abs_(y))), data, summarize)


def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`t` itself, checked when run: InvalidArgumentError naming `msg` if it holds a NaN or an Inf."""
    t = x if t is None else t
    msg = message if msg is None else msg
    return check_numerics(t, msg or "", name=name)
