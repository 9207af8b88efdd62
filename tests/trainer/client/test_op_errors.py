"""Session.run raises the tf.errors class TF1 raises when an op fails (trainer/client/plan.py): an OpError with .op,
.node_def and .message naming the op, the kernel's exception as its __cause__. Errors found while building the
graph, and a feed of the wrong shape, stay ValueError/TypeError, as in TF1."""
import numpy as np
import pytest

import trainer as tg
from trainer.framework.registry import apply_op, register
from tests.trainer.conformance import cases, cases_errors, xfails

E = tg.errors


def reshape():
    x = tg.placeholder(tg.float32, [None])
    return tg.reshape(x, [2, 2], name="r"), {x: np.zeros(6, np.float32)}


def matmul():
    a, b = tg.placeholder(tg.float32), tg.placeholder(tg.float32)
    return tg.matmul(a, b, name="mm"), {a: np.zeros((2, 3), np.float32), b: np.zeros((4, 2), np.float32)}


def gather():
    i = tg.placeholder(tg.int32)
    return tg.gather(tg.constant([1.0, 2.0, 3.0]), i, name="g"), {i: np.array([5], np.int32)}


def uninitialized():
    return tg.Variable(1.0, name="w") * 2.0, None


def integer_division(build):
    def case():
        a = tg.placeholder(tg.int32)
        return build(a, tg.constant([2, 0], name="zero")), {a: np.array([7, 1], np.int32)}
    return case


def exhausted():
    it = tg.data.Dataset.from_tensor_slices([1]).make_one_shot_iterator()
    return it.get_next(name="next"), None


def in_a_branch():
    x = tg.placeholder_with_default(np.zeros(6), [None])
    return tg.cond(tg.constant(True), lambda: tg.reshape(x, [4], name="inner"), lambda: tg.zeros([4], tg.float64)), None


# TF 1.15's class for each (its kernels: reshape_op.h, matmul_op.cc, gather_functor.h, resource/ref variables'
# reads, cwise_ops_common.h's "Integer division by zero", iterator_ops.cc), the op it names, the message's gist.
CASES = [
    ("reshape of 6 values into [2, 2]", reshape, E.InvalidArgumentError, "r", r"size 6 into shape \(2,2\)"),
    ("matmul of [2, 3] by [4, 2]", matmul, E.InvalidArgumentError, "mm", r"\(2,3\) and \(4,2\) not aligned"),
    ("gather of index 5 from 3 rows", gather, E.InvalidArgumentError, "g", r"index 5 is not in \[0, 3\)"),
    ("an uninitialized variable", uninitialized, E.FailedPreconditionError, "w", "uninitialized value 'w'"),
    ("x // 0 for integers", integer_division(lambda a, b: a // b), E.InvalidArgumentError, "floordiv",
     "Integer division by zero"),
    ("floormod by 0 for integers", integer_division(lambda a, b: tg.floormod(a, b, name="fm")),
     E.InvalidArgumentError, "fm", "Integer division by zero"),
    ("truncatediv by 0", integer_division(lambda a, b: tg.truncatediv(a, b, name="td")), E.InvalidArgumentError,
     "td", "Integer division by zero"),
    ("truncatemod by 0", integer_division(lambda a, b: tg.truncatemod(a, b, name="tm")), E.InvalidArgumentError,
     "tm", "Integer division by zero"),
    ("an iterator past its end", exhausted, E.OutOfRangeError, "next", "End of sequence"),
    ("an op inside tg.cond's branch", in_a_branch, E.InvalidArgumentError, "cond/inner", "size 6 into shape"),
]


@pytest.mark.parametrize("build, error, op_name, gist", [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_a_failing_op_raises_tf1s_class_naming_the_op(build, error, op_name, gist):
    tg.reset_default_graph()
    fetch, feed = build()
    with tg.Session() as sess:
        if error is E.OutOfRangeError:
            sess.run(fetch)  # the one element
        with pytest.raises(error, match=gist) as caught:
            sess.run(fetch, feed)
    assert isinstance(caught.value, E.OpError)
    assert caught.value.op.name == op_name and caught.value.node_def.name == op_name
    assert f"'{op_name}'" in caught.value.message and caught.value.message == str(caught.value)


# What a kernel's Python exception becomes: the mapping TF1's py_func applies, with IndexError and
# ZeroDivisionError as InvalidArgument; anything else keeps its type (callers catch timeouts and RuntimeErrors).
RAISED = {"ValueError": (ValueError, E.InvalidArgumentError), "TypeError": (TypeError, E.InvalidArgumentError),
          "IndexError": (IndexError, E.InvalidArgumentError),
          "ZeroDivisionError": (ZeroDivisionError, E.InvalidArgumentError),
          "StopIteration": (StopIteration, E.OutOfRangeError), "MemoryError": (MemoryError, E.ResourceExhaustedError),
          "NotImplementedError": (NotImplementedError, E.UnimplementedError),
          "RuntimeError": (RuntimeError, RuntimeError)}


def _raise(x, error):
    raise RAISED[error][0]("the kernel's words")


register("TestRaiseByName", _raise)


@pytest.mark.parametrize("raised", sorted(RAISED))
def test_a_kernels_exception_becomes_the_class_tf1_gives_it_chained_as_the_cause(raised):
    tg.reset_default_graph()
    y = apply_op("TestRaiseByName", [tg.constant(1.0)], name="boom", error=raised)
    with tg.Session() as sess, pytest.raises(RAISED[raised][1]) as caught:
        sess.run(y)
    assert str(caught.value) == "TestRaiseByName op 'boom' failed: the kernel's words"
    if isinstance(caught.value, E.OpError):
        assert type(caught.value.__cause__) is RAISED[raised][0] and caught.value.op is y.op
    else:
        assert type(caught.value) is RuntimeError


def test_building_and_feeding_errors_stay_value_errors_as_in_tf1():
    tg.reset_default_graph()
    with pytest.raises(ValueError) as caught:
        tg.reshape(tg.constant([1.0, 2.0, 3.0]), [2, 2])
    assert not isinstance(caught.value, E.OpError)
    x = tg.placeholder(tg.float32, [2], name="x")
    with tg.Session() as sess, pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\)") as caught:
        sess.run(x * 2.0, {x: np.zeros(3)})
    assert not isinstance(caught.value, E.OpError)


@pytest.mark.parametrize("name", sorted(name for name in cases_errors.cases() if name not in xfails.listed()))
def test_every_kernel_failure_of_the_errors_family_is_an_op_error_naming_its_op(name):
    """The conformance table checks the class TF raises; here each error also carries the failing op and its
    NodeDef, as TF's do (tf.check_numerics included), never a bare exception of the kernel."""
    case = cases_errors.cases()[name]
    graph = tg.Graph()
    with graph.as_default():
        builder = cases.Builder(tg)
        fetches = [x for x in cases.flatten(cases.construct(tg, case, builder)) if hasattr(x, "dtype")]
        with tg.Session() as sess, pytest.raises(E.OpError) as caught:
            sess.run(fetches, builder.feed)
    error = caught.value
    assert error.op is not None and graph.get_operation_by_name(error.op.name) is error.op
    assert error.node_def == error.op.node_def and error.op.name in error.message
