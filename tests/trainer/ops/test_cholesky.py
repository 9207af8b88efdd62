"""tf.cholesky and tf.self_adjoint_eig (tf.linalg.cholesky, eigh, eigvalsh) and their gradients. Values were
recorded with TensorFlow 2.15.1's tf.compat.v1 in graph mode; a matrix that is not positive definite raises as
TF 1.15's kernel does (TF 2's gives nan)."""
import numpy as np
import pytest

import trainer as tg

A = [[4., 2., 0.6], [2., 5., 1.], [0.6, 1., 3.]]


def test_factor_and_gradient_match_tf():
    a = tg.constant(A, tg.float64)
    low = tg.cholesky(a)
    g, = tg.gradients(tg.reduce_sum(low * tg.constant([[1., 0., 0.], [2., -1., 0.], [0.5, 3., 1.5]], tg.float64)),
                      [a])
    with tg.Session() as sess:
        got_low, got_g = sess.run([low, g])
    np.testing.assert_allclose(got_low, [[2., 0., 0.], [1., 2., 0.], [0.3, 0.35, 1.6695807857064]], rtol=1e-12)
    np.testing.assert_allclose(got_g, [[0.0001922443795961933, 0.5830382842628692, -0.27807591007353816],
                                       [0.5830382842628692, -0.36749280406396634, 0.6713874517940932],
                                       [-0.27807591007353816, 0.6713874517940932, 0.44921456117660985]], rtol=1e-10)
    assert tg.linalg.cholesky is tg.cholesky


def test_a_batch_is_factored_matrix_by_matrix():
    with tg.Session() as sess:
        got = sess.run(tg.cholesky(tg.constant([[[1., 0.], [0., 9.]], [[2., 1.], [1., 2.]]])))
    np.testing.assert_allclose(got, [[[1., 0.], [0., 3.]], [[1.4142135, 0.], [0.70710677, 1.2247449]]], rtol=1e-6)


def test_a_matrix_that_is_not_positive_definite_raises_when_run():
    with tg.Session() as sess, pytest.raises(tg.errors.InvalidArgumentError, match="Cholesky decomposition was not"):
        sess.run(tg.cholesky(tg.constant([[1., 2.], [2., 1.]])))
    with pytest.raises(ValueError, match="cholesky needs square matrices"):
        tg.cholesky(tg.zeros([2, 3]))


def test_self_adjoint_eig_and_its_gradient_match_tf():
    """Eigenvectors are compared up to sign (TF's and numpy's solvers may choose either), so the loss reads v * v."""
    a = tg.constant(A, tg.float64)
    e, v = tg.self_adjoint_eig(a)
    w = tg.constant([[1., 0., 2.], [2., -1., 0.], [0.5, 3., 1.5]], tg.float64)
    loss = tg.reduce_sum(e * tg.constant([1., 2., 3.], tg.float64)) + tg.reduce_sum(w * v * v)
    g, = tg.gradients(loss, [a])
    only_values, = tg.gradients(tg.reduce_sum(tg.self_adjoint_eigvals(a) * tg.constant([1., -2., 0.5], tg.float64)),
                                [a])
    with tg.Session() as sess:
        got_e, got_v, got_g, got_values = sess.run([e, tg.abs(v), g, only_values])
    np.testing.assert_allclose(got_e, [2.3724689848089824, 2.722508207322903, 6.905022807868119], rtol=1e-12)
    np.testing.assert_allclose(got_v, [[0.6395061503940446, 0.50136672460149, 0.582806392441404],
                                       [0.6456215540598845, 0.061328341394022476, 0.7611909375939507],
                                       [0.4173783565800814, 0.863058655019595, 0.284473312376185]], rtol=1e-10)
    np.testing.assert_allclose(got_g, [[-0.1550022255581125, 0., 0.], [4.713253977125578, 1.5195113491354746, 0.],
                                       [2.541753872423043, -3.3030269273586854, 4.635490876422639]],
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got_values, [[0.07606257685183956, 0., 0.],
                                            [-0.2591390063984422, 0.6990106818879958, 0.],
                                            [2.430460481105029, -0.5341182423967308, -1.2750732587398357]],
                               rtol=1e-9, atol=1e-12)
    assert tg.linalg.eigh is tg.self_adjoint_eig and tg.linalg.eigvalsh is tg.self_adjoint_eigvals
