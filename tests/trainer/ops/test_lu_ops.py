"""tf.linalg.lu and what is built on it: rows permuted by p are L @ U with partial pivoting (|L| <= 1), and
lu_solve, lu_matrix_inverse and lu_reconstruct give back the system's solution, the inverse and the matrix."""
import numpy as np

import trainer as tg

A = np.random.RandomState(0).randn(2, 4, 4)
B = np.random.RandomState(1).randn(2, 4, 3)


def run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def test_rows_permuted_by_p_are_l_times_u_with_partial_pivoting():
    tg.reset_default_graph()
    lower_upper, perm = run(tg.linalg.lu(A))
    lower = np.tril(lower_upper, -1) + np.eye(4)
    upper = np.triu(lower_upper)
    np.testing.assert_allclose(np.take_along_axis(A, perm[..., None], axis=-2), lower @ upper, atol=1e-12)
    assert np.all(np.abs(np.tril(lower_upper, -1)) <= 1.0)  # the largest pivot of each column was chosen
    assert perm.dtype == np.int32 and sorted(perm[0]) == [0, 1, 2, 3]


def test_solve_inverse_and_reconstruct_undo_the_factorization():
    tg.reset_default_graph()
    lower_upper, perm = tg.linalg.lu(tg.constant(A))
    x, inverse, again = run([tg.linalg.lu_solve(lower_upper, perm, B), tg.linalg.lu_matrix_inverse(lower_upper, perm),
                             tg.linalg.lu_reconstruct(lower_upper, perm)])
    np.testing.assert_allclose(x, np.linalg.solve(A, B), atol=1e-12)
    np.testing.assert_allclose(inverse, np.linalg.inv(A), atol=1e-12)
    np.testing.assert_allclose(again, A, atol=1e-12)


def test_lu_solve_is_differentiable_in_the_factors_and_the_rhs():
    tg.reset_default_graph()
    lu0, perm0 = run(tg.linalg.lu(A[0]))
    factors, rhs = tg.placeholder(tg.float64, (4, 4)), tg.placeholder(tg.float64, (4, 3))
    x = tg.linalg.lu_solve(factors, tg.constant(perm0), rhs)
    with tg.Session():
        error = tg.test.compute_gradient_error([factors, rhs], [(4, 4), (4, 3)], x, (4, 3), x_init_value=[lu0, B[0]],
                                               extra_feed_dict={factors: lu0, rhs: B[0]},
                                               delta=1e-6)
    assert error < 1e-6
