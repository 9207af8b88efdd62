"""Run-time checks: tf.Assert and the assert_* family, check_numerics and add_check_numerics_ops.

A failed check raises tg.errors.InvalidArgumentError when the op runs, as TF1 does; the op only runs
when something fetched depends on it (tg.control_dependencies) or it is fetched itself.
"""
import numpy as np

from ..framework import dtypes
from ..platform.errors import InvalidArgumentError
from ..framework.graph import get_default_graph
from ..framework.graph_wrappers import name_scope
from .core_ops import convert_to_tensor, group, no_op
from .logging_ops import summarize_v1
from .math_ops import binary_operands, equal, greater, greater_equal, less, less_equal, not_equal
from .reduction_ops import reduce_all
from ..framework.registry import apply_op, op_def, register
from .tensor_util import constant_value


def _assert_kernel(op, session):
    summarize = op.attrs["summarize"]

    def run(condition, *data):
        if not np.all(condition):
            shown = " ".join(f"[{summarize_v1(session.to_host(d), summarize)}]" for d in data)
            raise InvalidArgumentError(f"assertion failed: {shown}")
    return run


register("Assert", kernel=_assert_kernel, infer=lambda *inputs, **attrs: [])


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TF1's name
    """An Operation that raises InvalidArgumentError("assertion failed: [d1] [d2]...") when `condition`
    (a bool tensor; every element must hold) is false; data are shown with at most `summarize` (3) elements."""
    condition = convert_to_tensor(condition)
    if condition.dtype != dtypes.bool:
        raise TypeError(f"Assert needs a bool condition, got {condition.name!r} of dtype {condition.dtype.name}")
    data = [convert_to_tensor(d) for d in data]
    return condition.graph.create_op("Assert", [condition, *data], [], name=name or "Assert",
                                     attrs={"summarize": 3 if summarize is None else int(summarize)})


def _binary_assert(op_name, symbol, compare):
    def check(x, y, data=None, summarize=None, message=None, name=None):
        with name_scope(name or op_name):
            x, y = binary_operands(op_name, x, y)
            if data is None:
                data = [f"Condition x {symbol} y did not hold element-wise:", f"x ({x.name}) = ", x,
                        f"y ({y.name}) = ", y]
            if message is not None:
                data = [message] + list(data)
            x_value, y_value = constant_value(x), constant_value(y)
            if x_value is not None and y_value is not None and not np.all(compare(x_value, y_value)):
                # TF1 fails while building when both values are already known.
                raise InvalidArgumentError(f"{op_name} failed: {message + ' ' if message else ''}Condition x "
                                           f"{symbol} y did not hold: x = {x_value!r}, y = {y_value!r}")
            return Assert(reduce_all(compare_op(x, y)), data, summarize)
    compare_op = {"==": equal, "!=": not_equal, "<": less, "<=": less_equal, ">": greater,
                  ">=": greater_equal}[symbol]
    check.__name__ = check.__qualname__ = op_name
    check.__doc__ = f"An Assert op checking x {symbol} y element-wise (with broadcasting)."
    return check


assert_equal = _binary_assert("assert_equal", "==", np.equal)
assert_none_equal = _binary_assert("assert_none_equal", "!=", np.not_equal)
assert_less = _binary_assert("assert_less", "<", np.less)
assert_less_equal = _binary_assert("assert_less_equal", "<=", np.less_equal)
assert_greater = _binary_assert("assert_greater", ">", np.greater)
assert_greater_equal = _binary_assert("assert_greater_equal", ">=", np.greater_equal)


def _sign_assert(op_name, symbol, binary):
    def check(x, data=None, summarize=None, message=None, name=None):
        with name_scope(name or op_name):
            x = convert_to_tensor(x)
            if data is None:
                data = [message or "", f"Condition x {symbol} 0 did not hold element-wise:", f"x ({x.name}) = ", x]
            elif message is not None:
                data = [message] + list(data)
            zero = convert_to_tensor(np.zeros((), dtype=x.dtype))
            return binary(x, zero, data=data, summarize=summarize)
    check.__name__ = check.__qualname__ = op_name
    check.__doc__ = f"An Assert op checking x {symbol} 0 element-wise."
    return check


assert_positive = _sign_assert("assert_positive", ">", lambda x, z, **kw: assert_less(z, x, **kw))
assert_negative = _sign_assert("assert_negative", "<", lambda x, z, **kw: assert_less(x, z, **kw))
assert_non_negative = _sign_assert("assert_non_negative", ">=", lambda x, z, **kw: assert_less_equal(z, x, **kw))
assert_non_positive = _sign_assert("assert_non_positive", "<=", lambda x, z, **kw: assert_less_equal(x, z, **kw))


def assert_rank(x, rank, message=None, name=None):
    """ValueError now when x's static rank is known and differs; else an op that checks it when run."""
    x = convert_to_tensor(x)
    rank = int(constant_value(rank))
    if x.ndim is not None:
        if x.ndim != rank:
            raise ValueError(f"{message + ' ' if message else ''}Tensor {x.name!r} must have rank {rank}, "
                             f"but has rank {x.ndim} (shape {x.shape})")
        return no_op(name=name or "assert_rank")
    with name_scope(name or "assert_rank"):
        actual = apply_op("Rank", [x])
        return assert_equal(actual, np.int32(rank), data=[message or "", f"Tensor {x.name} must have rank", rank,
                                                           "Received shape: ", apply_op("Shape", [x])])


def assert_type(tensor, tf_type, message=None, name=None):
    """TypeError now when `tensor`'s dtype is not `tf_type`; returns a no-op."""
    tensor, expected = convert_to_tensor(tensor), dtypes.as_dtype(tf_type)
    if tensor.dtype != expected:
        raise TypeError(f"{message + ' ' if message else ''}{tensor.name!r} must be of type {expected.name}, "
                        f"not {tensor.dtype.name}")
    return no_op(name=name or "assert_type")


def assert_integer(x, message=None, name=None):
    """TypeError now when x's dtype is not an integer type; returns a no-op."""
    x = convert_to_tensor(x)
    if x.dtype.kind not in "iu":
        raise TypeError(f"{message + ' ' if message else ''}Expected {x.name!r} to be of an integer dtype, "
                        f"found {x.dtype.name}")
    return no_op(name=name or "assert_integer")


def _monotone(x, name, compare, default_name):
    x = convert_to_tensor(x)
    if x.dtype.kind not in "iuf":
        raise TypeError(f"{default_name} needs a numeric input, got {x.name!r} of dtype {x.dtype.name}")
    with name_scope(name or default_name):
        flat = apply_op("Reshape", [x], shape=(-1,))
        return reduce_all(compare(flat[:-1], flat[1:]))


def is_non_decreasing(x, name=None):
    """True when each element of x (flattened) is <= the next; True for fewer than two elements."""
    return _monotone(x, name, less_equal, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """True when each element of x (flattened) is < the next; True for fewer than two elements."""
    return _monotone(x, name, less, "is_strictly_increasing")


def _check_numerics_kernel(op, session):
    message = op.attrs["message"]

    def run(x):
        nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
        if nan or inf:
            what = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
            raise InvalidArgumentError(f"{message} : Tensor had {what} values")
        return x
    return run


def _check_numerics_grad(op, g):
    return [apply_op("CheckNumerics", [g], message="Not a number (NaN) or infinity (Inf) values detected in "
                                                    f"gradient. {op.attrs['message']}")]


register("CheckNumerics", kernel=_check_numerics_kernel, infer=lambda x, message: [(x.shape, x.dtype)], view=True,
         grad=_check_numerics_grad)


def check_numerics(tensor, message, name=None):
    """`tensor`, unchanged; raises InvalidArgumentError("<message> : Tensor had NaN values") (or Inf) when run."""
    x = convert_to_tensor(tensor)
    if x.dtype.kind not in "fc":
        raise TypeError(f"check_numerics needs a floating tensor, got {x.name!r} of dtype {x.dtype.name}")
    return apply_op("CheckNumerics", [x], name=name or "CheckNumerics", message=str(message))


def add_check_numerics_ops():
    """One op that checks every floating tensor of the default graph for NaN and Inf; the error names the tensor.

    Fetch it with the train op (sess.run([train_op, check])); like TF1's, it runs every floating tensor's
    producer, so every placeholder they read must be fed.
    """
    graph = get_default_graph()
    checks = []
    for op in graph.get_operations():
        if op.type == "CheckNumerics" or op_def(op.type).ref_inputs:  # checking an update would run it
            continue
        for t in op.outputs:
            if t.dtype.kind == "f":
                with graph.control_dependencies(checks[-1:]):  # in order, as TF1 chains them
                    checks.append(apply_op("CheckNumerics", [t], name="CheckNumerics",
                                           message=f"{op.name}:{t.value_index}").op)
    return group(*checks, name="add_check_numerics_ops")


__all__ = ["Assert", "add_check_numerics_ops", "assert_equal", "assert_greater", "assert_greater_equal",
           "assert_integer", "assert_less", "assert_less_equal", "assert_negative", "assert_non_negative",
           "assert_non_positive", "assert_none_equal", "assert_positive", "assert_rank", "assert_type",
           "check_numerics", "is_non_decreasing", "is_strictly_increasing"]
