"""tf.Assert, the assert_* family and check_numerics: InvalidArgumentError naming the data."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


def test_assert_raises_invalid_argument_naming_data():
    x = tg.placeholder(tg.float32, [2])
    check = tg.Assert(tg.reduce_all(x > 0), ["x must be positive", x])
    with tg.control_dependencies([check]):
        y = tg.identity(x)
    with tg.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [1, 2])
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"assertion failed: \[x must be positive\] "
                                                                  r"\[1 -2\]"):
            sess.run(y, {x: [1.0, -2.0]})


@pytest.mark.parametrize("fn, good, bad", [
    (tg.assert_equal, ([1, 2], [1, 2]), ([1, 2], [1, 3])),
    (tg.assert_none_equal, ([1, 2], [3, 4]), ([1, 2], [1, 4])),
    (tg.assert_less, ([1, 2], [2, 3]), ([1, 2], [2, 2])),
    (tg.assert_less_equal, ([1, 2], [1, 3]), ([1, 4], [1, 3])),
    (tg.assert_greater, ([3, 4], [2, 3]), ([3, 3], [2, 3])),
    (tg.assert_greater_equal, ([3, 3], [2, 3]), ([1, 3], [2, 3])),
])
def test_binary_asserts(fn, good, bad):
    a, b = tg.placeholder(tg.int32, [2]), tg.placeholder(tg.int32, [2])
    op = fn(a, b, message="custom")
    with tg.Session() as sess:
        sess.run(op, {a: good[0], b: good[1]})
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"\[custom\].*did not hold"):
            sess.run(op, {a: bad[0], b: bad[1]})


def test_assert_equal_on_constants_fails_while_building():
    with pytest.raises(tg.errors.InvalidArgumentError, match="assert_equal"):
        tg.assert_equal(tg.constant(1), tg.constant(2))


@pytest.mark.parametrize("fn, good, bad", [(tg.assert_positive, [1.0], [0.0]), (tg.assert_negative, [-1.0], [0.0]),
                                           (tg.assert_non_negative, [0.0], [-1.0])])
def test_sign_asserts(fn, good, bad):
    x = tg.placeholder(tg.float32, [1], name="xx")
    op = fn(x)
    with tg.Session() as sess:
        sess.run(op, {x: good})
        with pytest.raises(tg.errors.InvalidArgumentError, match="xx:0"):
            sess.run(op, {x: bad})


def test_static_asserts():
    x = tg.placeholder(tg.float32, [2, 3], name="m")
    tg.assert_rank(x, 2)
    with pytest.raises(ValueError, match="'m:0' must have rank 3"):
        tg.assert_rank(x, 3)
    with pytest.raises(TypeError, match="must be of type int32"):
        tg.assert_type(x, tg.int32)
    with pytest.raises(TypeError, match="integer"):
        tg.assert_integer(x)
    dynamic = tg.placeholder(tg.float32, None)
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError):
        sess.run(tg.assert_rank(dynamic, 1), {dynamic: np.zeros((2, 2))})
    assert tg.debugging.assert_equal is tg.assert_equal


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the NaN/Inf is the point
def test_check_numerics_names_the_tensor():
    x = tg.placeholder(tg.float32, [2])
    y = tg.check_numerics(tg.log(x), "log of x")
    with tg.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [1.0, np.e]}), [0, 1], atol=1e-6)
        with pytest.raises(tg.errors.InvalidArgumentError, match="log of x : Tensor had NaN values"):
            sess.run(y, {x: [-1.0, 1.0]})


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the NaN/Inf is the point
def test_add_check_numerics_ops_names_the_culprit():
    x = tg.placeholder(tg.float32, [2], name="x")
    w = tg.Variable([1.0, 1.0], name="w")
    bad = tg.divide(w, x, name="ratio")
    check = tg.add_check_numerics_ops()
    with tg.Session() as sess:
        sess.run(w.initializer)
        sess.run([bad, check], {x: [1.0, 2.0]})
        with pytest.raises(tg.errors.InvalidArgumentError, match="ratio:0 : Tensor had Inf values"):
            sess.run([bad, check], {x: [0.0, 2.0]})
