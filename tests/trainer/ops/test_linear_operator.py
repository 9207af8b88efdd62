"""Every LinearOperator agrees with its dense matrix: products, solves, determinants, diagonals and sums computed
from the structure equal numpy's on to_dense(), batches included."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.RandomState(0)
SQUARE = RNG.randn(2, 3, 3) + 3 * np.eye(3)
BUILDERS = {
    "full": lambda: tg.linalg.LinearOperatorFullMatrix(SQUARE),
    "diag": lambda: tg.linalg.LinearOperatorDiag(np.abs(SQUARE[:, 0]) + 0.5),
    "lower": lambda: tg.linalg.LinearOperatorLowerTriangular(SQUARE),
    "scaled": lambda: tg.linalg.LinearOperatorScaledIdentity(3, np.array([2.0, -0.5])),
    "identity": lambda: tg.linalg.LinearOperatorIdentity(3, batch_shape=[2], dtype=tg.float64),
}


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_structured_methods_agree_with_the_dense_matrix(kind):
    tg.reset_default_graph()
    op = BUILDERS[kind]()
    rhs = RNG.randn(2, 3, 2)
    fetched = [op.to_dense(), op.matmul(rhs), op.matmul(rhs, adjoint=True), op.solve(rhs), op.determinant(),
               op.log_abs_determinant(), op.diag_part(), op.trace(), op.add_to_tensor(SQUARE)]
    with tg.Session() as sess:
        dense, product, adjoint, solved, det, logdet, diag, trace, added = sess.run(fetched)
    assert op.shape.as_list() == [2, 3, 3] and dense.shape == (2, 3, 3)
    np.testing.assert_allclose(product, dense @ rhs, atol=1e-12)
    np.testing.assert_allclose(adjoint, np.swapaxes(dense, -1, -2) @ rhs, atol=1e-12)
    np.testing.assert_allclose(solved, np.linalg.solve(dense, rhs), atol=1e-10)
    np.testing.assert_allclose(det, np.linalg.det(dense), rtol=1e-10)
    np.testing.assert_allclose(logdet, np.log(np.abs(np.linalg.det(dense))), rtol=1e-10)
    np.testing.assert_allclose(diag, np.diagonal(dense, axis1=-2, axis2=-1), atol=1e-12)
    np.testing.assert_allclose(trace, np.trace(dense, axis1=-2, axis2=-1), atol=1e-12)
    np.testing.assert_allclose(added, SQUARE + dense, atol=1e-12)


def test_operators_refuse_what_their_structure_cannot_be():
    with pytest.raises(ValueError, match="always square"):
        tg.linalg.LinearOperatorIdentity(3, is_square=False)
    with pytest.raises(NotImplementedError, match="not be square"):
        tg.linalg.LinearOperatorFullMatrix(np.ones((2, 3)), is_square=False).solve(np.ones((2, 1)))
