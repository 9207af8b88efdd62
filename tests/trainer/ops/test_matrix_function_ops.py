"""Functions of a matrix: sqrtm squares back to its input and its gradient matches the numerical one; logm of a
complex matrix exponentiates back to it."""
import numpy as np

import trainer as tg

M = np.random.RandomState(0).randn(2, 3, 3)
SPD = M @ np.swapaxes(M, -1, -2) + 3 * np.eye(3)


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def test_sqrtm_squares_back_and_its_gradient_is_the_numerical_one():
    tg.reset_default_graph()
    root = run(tg.linalg.sqrtm(SPD))
    np.testing.assert_allclose(root @ root, SPD, atol=1e-12)
    value = SPD[0] + 0.3 * np.triu(np.ones((3, 3)))  # not symmetric: the gradient's transposes show
    a = tg.placeholder(tg.float64, (3, 3))
    y = tg.linalg.sqrtm(a)
    with tg.Session():
        assert tg.test.compute_gradient_error(a, (3, 3), y, (3, 3), x_init_value=value, delta=1e-6) < 1e-6


def test_logm_inverts_expm_on_complex_matrices():
    tg.reset_default_graph()
    a = (SPD + 0.5j * np.eye(3)).astype(np.complex128)
    back = run(tg.linalg.expm(tg.linalg.logm(a)))
    np.testing.assert_allclose(back, a, atol=1e-10)
