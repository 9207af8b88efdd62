"""A numpy value on the left of an operator: numpy defers to the Tensor (TF's __array_priority__ = 100), so
`np.float64(2) * t` builds the same op as `2.0 * t` instead of numpy asking the Tensor for its value."""
import operator

import numpy as np
import pytest

import trainer as tg

ARITHMETIC = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow, operator.mod,
              operator.floordiv, operator.lt, operator.le, operator.gt, operator.ge]
LOGICAL = [operator.and_, operator.or_, operator.xor]
RIGHT = np.array([1.5, 2.0, 4.0], np.float32)


def _same_as_python(op, left, python_left, right, run_right=None):
    """op(numpy left, tensor) runs to what op(the Python value, tensor) runs to, dtype included."""
    with tg.Graph().as_default():
        tensor = right()
        got, want = op(left, tensor), op(python_left, tensor)
        assert isinstance(got, tg.Tensor), f"{op.__name__} gave {type(got).__name__}, not a Tensor"
        with tg.Session() as sess:
            sess.run(tg.global_variables_initializer())
            got_value, want_value = sess.run([got, want])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got_value, want_value)


@pytest.mark.parametrize("right", [lambda: tg.constant(RIGHT), lambda: tg.Variable(RIGHT)],
                         ids=["constant", "variable"])
@pytest.mark.parametrize("left", [np.float64(3.0), np.float32(3.0), np.int64(3),
                                  np.array([3.0, 0.5, 7.0]), np.array([[3.0], [5.0]], np.float32)],
                         ids=["float64", "float32", "int64", "array", "broadcast"])
@pytest.mark.parametrize("op", ARITHMETIC, ids=lambda op: op.__name__)
def test_numpy_on_the_left_gives_what_the_python_value_gives(op, left, right):
    _same_as_python(op, left, left.tolist(), right)


@pytest.mark.parametrize("left", [np.bool_(True), np.array([True, False, False])], ids=["bool", "array"])
@pytest.mark.parametrize("op", LOGICAL, ids=lambda op: op.__name__)
def test_numpy_booleans_on_the_left_of_logical_operators(op, left):
    _same_as_python(op, left, left.tolist(), lambda: tg.constant([True, True, False]))


@pytest.mark.parametrize("right", [lambda: tg.constant(np.eye(2)), lambda: tg.Variable(np.eye(2))],
                         ids=["constant", "variable"])
def test_numpy_matrix_on_the_left_of_matmul(right):
    left = np.array([[1.0, 2.0], [3.0, 4.0]])
    _same_as_python(operator.matmul, left, left.tolist(), right)


def test_numpy_still_refuses_to_read_a_tensor_as_an_array():
    # deferring to the Tensor's operators must not make a Tensor silently convertible
    with pytest.raises(TypeError, match="no value until a Session runs it"):
        np.asarray(tg.constant(1.0))
