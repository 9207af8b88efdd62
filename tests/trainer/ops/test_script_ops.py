"""tf.py_func / tf.numpy_function: a Python function of numpy arrays run as an op, its outputs checked against Tout."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import fresh_graph  # noqa: F401 (fresh_graph: autouse)


def test_the_function_runs_on_the_inputs_values_each_run():
    x = tg.placeholder(tg.float32, [None])
    calls = []

    def double_and_count(v):
        calls.append(v.copy())
        return v * 2, np.int64(len(v)), np.array([b"a", b"bc"])

    doubled, count, words = tg.py_func(double_and_count, [x], [tg.float32, tg.int64, tg.string])
    single = tg.numpy_function(lambda v: v + 1, [doubled], tg.float32)
    assert doubled.shape.ndims is None and count.dtype == tg.int64 and single.dtype == tg.float32
    with tg.Session() as sess:
        got = sess.run([doubled, count, words, single], {x: [1.0, 2.0, 3.0]})
        sess.run(single, {x: [5.0]})
    np.testing.assert_array_equal(got[0], [2.0, 4.0, 6.0])
    assert got[1] == 3 and got[2].tolist() == [b"a", b"bc"]
    np.testing.assert_array_equal(got[3], [3.0, 5.0, 7.0])
    assert [c.tolist() for c in calls] == [[1.0, 2.0, 3.0], [5.0]]


def test_an_empty_tout_returns_the_op_that_runs_the_function():
    ran = []
    op = tg.py_func(lambda: ran.append(True), [], [])
    with tg.Session() as sess:
        sess.run(op)
    assert isinstance(op, tg.Operation) and ran == [True]


def test_an_output_of_another_dtype_or_count_fails_when_run_naming_the_op():
    wrong_dtype = tg.py_func(lambda: np.float64(1.0), [], tg.float32, name="f")
    wrong_count = tg.py_func(lambda: (1, 2), [], [tg.int64], name="g")
    with tg.Session() as sess:
        with pytest.raises(tg.errors.InvalidArgumentError, match="0-th value .*'f' is float64, but expects float32"):
            sess.run(wrong_dtype)
        with pytest.raises(tg.errors.InvalidArgumentError, match="'g' returned 2 values, but Tout names 1"):
            sess.run(wrong_count)


def test_py_func_has_no_gradient_as_in_tf1():
    x = tg.constant([1.0])
    y = tg.py_func(lambda v: v * 3, [x], tg.float32)
    with pytest.raises(NotImplementedError, match="PyFunc"):
        tg.gradients(y, x)
