"""Tridiagonal systems: tridiagonal_solve agrees with the dense solve and its gradient with the numerical one;
tridiagonal_matmul undoes it; eigh_tridiagonal gives the dense matrix's eigenvalues."""
import numpy as np
import pytest

import trainer as tg

DIAGONALS = np.random.RandomState(0).randn(2, 3, 5) + np.array([0.0, 4.0, 0.0])[:, None]
RHS = np.random.RandomState(1).randn(2, 5, 2)


def dense(d):
    m = d.shape[-1]
    return np.diag(d[1]) + np.diag(d[0][:-1], 1) + np.diag(d[2][1:], -1) if d.ndim == 2 else np.stack(
        [dense(x) for x in d]) if m else None


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def test_solve_agrees_with_the_dense_solve_and_matmul_undoes_it():
    tg.reset_default_graph()
    x = tg.linalg.tridiagonal_solve(DIAGONALS, RHS)
    got, back = run([x, tg.linalg.tridiagonal_matmul(DIAGONALS, x)])
    np.testing.assert_allclose(got, np.linalg.solve(dense(DIAGONALS), RHS), atol=1e-12)
    np.testing.assert_allclose(back, RHS, atol=1e-12)


def test_solve_gradients_match_the_numerical_ones():
    tg.reset_default_graph()
    d, b = tg.placeholder(tg.float64, (3, 5)), tg.placeholder(tg.float64, (5, 2))
    x = tg.linalg.tridiagonal_solve(d, b)
    with tg.Session():
        assert tg.test.compute_gradient_error([d, b], [(3, 5), (5, 2)], x, (5, 2), x_init_value=[DIAGONALS[0], RHS[0]],
                                              extra_feed_dict={d: DIAGONALS[0], b: RHS[0]},
                                              delta=1e-6) < 1e-6


def test_a_singular_system_fails_the_run():
    tg.reset_default_graph()
    with pytest.raises(tg.errors.InvalidArgumentError, match="not invertible"):
        run(tg.linalg.tridiagonal_solve([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]], np.ones((3, 1))))


def test_eigh_tridiagonal_gives_the_dense_eigenvalues():
    tg.reset_default_graph()
    alpha, beta = np.array([1.0, 2.0, -1.0, 0.5]), np.array([0.5, 1.5, -0.25])
    full = np.diag(alpha) + np.diag(beta, 1) + np.diag(beta, -1)
    values, (some, vectors) = run([tg.linalg.eigh_tridiagonal(alpha, beta),
                                   tg.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=False, select="i",
                                                              select_range=[1, 2])])
    np.testing.assert_allclose(values, np.linalg.eigvalsh(full), atol=1e-12)
    np.testing.assert_allclose(some, values[1:3], atol=1e-12)
    np.testing.assert_allclose(full @ vectors, vectors * some, atol=1e-12)
