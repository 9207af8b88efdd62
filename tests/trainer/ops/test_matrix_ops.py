"""matrix_inverse and matrix_determinant against numpy and numerical gradients."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

RNG = np.random.default_rng(7)


def run(fetches, feed=None):
    with tg.Session() as sess:
        return sess.run(fetches, feed)


def _well_conditioned(*batch, n=3):
    return RNG.standard_normal((*batch, n, n)) + 3 * np.eye(n)


@pytest.mark.parametrize("batch", [(), (2,), (2, 2)])
def test_matrix_inverse_and_its_gradient(batch):
    a = _well_conditioned(*batch)
    check_op(tg.matrix_inverse, [a], numpy_fn=np.linalg.inv, torch_fn=torch and torch.linalg.inv)
    check_op(lambda t: tg.linalg.inv(t, adjoint=True), [a],
             numpy_fn=lambda m: np.linalg.inv(np.swapaxes(m, -1, -2)))


@pytest.mark.parametrize("batch", [(), (3,)])
def test_matrix_determinant_and_its_gradient(batch):
    a = _well_conditioned(*batch)
    check_op(tg.matrix_determinant, [a], numpy_fn=np.linalg.det, torch_fn=torch and torch.linalg.det)
    assert tg.linalg.det is tg.matrix_determinant


def test_singular_matrix_raises_invalid_argument_when_run():
    with tg.Graph().as_default():
        p = tg.placeholder(tg.float64, [None, 3, 3])
        inv = tg.matrix_inverse(p)
        det = tg.matrix_determinant(p)
        singular = np.array([[1., 0., -1.], [-1., 1., 0.], [0., -1., 1.]])  # TF1's own test matrix
        feed = {p: np.stack([np.eye(3), singular])}
        with pytest.raises(tg.errors.InvalidArgumentError, match=r"Input is not invertible\. \(matrix 1 of"):
            run(inv, feed)
        np.testing.assert_allclose(run(det, feed), [1.0, 0.0], atol=1e-12)  # det itself is fine: 0
        with pytest.raises(ValueError, match=r"square matrices, got 'Const:0' of shape \(2, 3\)"):
            tg.matrix_inverse(np.zeros((2, 3)))
