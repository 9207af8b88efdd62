"""tg.test.compute_gradient(_error): TF1's Jacobian layout (x's elements down, y's across), closed forms, and a
gradient that is wrong on purpose caught by a large error; gradient_checker_v2's compute_gradient(f, xs) too."""
import numpy as np
import pytest

import trainer as tg
from trainer.framework.registry import OPS, apply_op, register
from trainer.python.ops import gradient_checker_v2

# x * x whose registered gradient forgets the factor 2: the checker must see it
if "SquareWithWrongGradientForTests" not in OPS:
    register("SquareWithWrongGradientForTests", lambda x: x * x, grad=lambda op, g: [g * op.inputs[0]])


def test_square_has_the_diagonal_jacobian_2x_both_ways():
    x_init = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]])
    with tg.Graph().as_default(), tg.Session():
        x = tg.constant(x_init)
        symbolic, numerical = tg.test.compute_gradient(x, [2, 3], x ** 2, [2, 3], x_init_value=x_init)
        error = tg.test.compute_gradient_error(x, [2, 3], tg.square(x), [2, 3], x_init_value=x_init)
    np.testing.assert_array_equal(symbolic, np.diag(2 * x_init.ravel()))
    np.testing.assert_allclose(numerical, np.diag(2 * x_init.ravel()), atol=1e-9)
    assert error < 1e-9


def test_jacobian_rows_are_x_elements_and_columns_y_elements():
    # y = x @ w for x (2, 3), w (3, 4): dy[i, k] / dx[i', j] = w[j, k] when i == i'
    w = np.arange(12.0).reshape(3, 4) / 10
    with tg.Graph().as_default(), tg.Session():
        x = tg.placeholder(tg.float64, [2, 3])
        symbolic, numerical = tg.test.compute_gradient(x, (2, 3), tg.matmul(x, tg.constant(w)), (2, 4))
    assert symbolic.shape == numerical.shape == (6, 8)
    expected = np.kron(np.eye(2), w)
    np.testing.assert_allclose(symbolic, expected, atol=1e-12)
    np.testing.assert_allclose(numerical, expected, atol=1e-9)


def test_a_wrong_gradient_gives_a_large_error():
    x_init = np.array([0.5, -1.0, 2.0])
    with tg.Graph().as_default(), tg.Session():
        x = tg.constant(x_init)
        y = apply_op("SquareWithWrongGradientForTests", [x])
        error = tg.test.compute_gradient_error(x, [3], y, [3], x_init_value=x_init)
    assert error == pytest.approx(2.0)  # |2x - x| at x = 2


def test_float32_within_the_central_difference_error_and_random_initial_values():
    with tg.Graph().as_default(), tg.Session():
        x = tg.placeholder(tg.float32, [4])
        y = tg.reduce_sum(tg.sin(x) * x)
        symbolic, numerical = tg.test.compute_gradient(x, [4], y, [])
    assert symbolic.dtype == numerical.dtype == np.float32 and symbolic.shape == (4, 1)
    assert np.abs(symbolic - numerical).max() < 1e-2


def test_several_xs_extra_feeds_and_init_targets():
    with tg.Graph().as_default(), tg.Session():
        a = tg.constant([7.0, 7.0], tg.float64)  # fed with its x_init_value while its Jacobian is taken
        b = tg.Variable(np.array([1.0, 3.0]))
        scale = tg.placeholder(tg.float64, [])
        y = a * b * scale
        found = tg.test.compute_gradient([a, b], [[2], [2]], y, [2], x_init_value=[np.array([2.0, 5.0]), None],
                                         init_targets=[b.initializer], extra_feed_dict={scale: 10.0})
        error = tg.test.compute_gradient_error([a, b], [[2], [2]], y, [2], extra_feed_dict={scale: 10.0})
    (da, da_numerical), (db, db_numerical) = found
    np.testing.assert_allclose(da, np.diag([10.0, 30.0]))
    np.testing.assert_allclose(db, np.diag([70.0, 70.0]))  # b's Jacobian with a at its own value
    np.testing.assert_allclose(da_numerical, da, atol=1e-8)
    np.testing.assert_allclose(db_numerical, db, atol=1e-8)
    assert error < 1e-8


def test_misuse_says_what_to_do():
    with tg.Graph().as_default():
        x = tg.constant([1.0, 2.0], tg.float64)
        with pytest.raises(ValueError, match="default session, and there is none.*cached_session"):
            tg.test.compute_gradient_error(x, [2], x * 2.0, [2])
        with tg.Session():
            with pytest.raises(ValueError, match="does not depend on"):
                tg.test.compute_gradient_error(x, [2], tg.constant([1.0, 1.0], tg.float64), [2])
            with pytest.raises(ValueError, match=r"x_shape = \[2\], init_data shape = \[3\]"):
                tg.test.compute_gradient_error(x, [2], x * 2.0, [2], x_init_value=np.zeros(3))
            n = tg.constant([1, 2])
            with pytest.raises(NotImplementedError, match="int32"):
                tg.test.compute_gradient_error(n, [2], n * 2, [2])


def test_the_second_checker_builds_f_on_placeholders_and_lays_jacobians_out_by_y():
    a, b = np.array([1.0, 2.0, 3.0]), np.array([[0.5], [1.5]])  # broadcast: y = a * b**2 has shape (2, 3)
    with tg.Graph().as_default(), tg.Session():
        symbolic, numerical = gradient_checker_v2.compute_gradient(lambda x, y: x * y ** 2, [a, tg.constant(b)])
        assert [j.shape for j in symbolic] == [j.shape for j in numerical] == [(6, 3), (6, 2)]
        rows = np.arange(6)
        expected_a = np.zeros((6, 3))
        expected_a[rows, rows % 3] = np.repeat(b[:, 0] ** 2, 3)  # y[i, j] moves with a[j] by b[i]**2
        expected_b = np.zeros((6, 2))
        expected_b[rows, rows // 3] = 2 * np.tile(a, 2) * np.repeat(b[:, 0], 3)  # and with b[i] by 2 a[j] b[i]
        np.testing.assert_allclose(symbolic[0], expected_a)
        np.testing.assert_allclose(symbolic[1], expected_b)
        assert gradient_checker_v2.max_error(symbolic, numerical) < 1e-5
        with pytest.raises(ValueError, match="takes a list of the function's arguments"):
            gradient_checker_v2.compute_gradient(tg.square, a)
    with tg.Graph().as_default(), pytest.raises(ValueError, match="no default session|there is none"):
        gradient_checker_v2.compute_gradient(tg.square, [a])
