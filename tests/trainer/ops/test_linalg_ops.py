"""einsum, tensordot, norm and the tf.linalg namespace against numpy and numerical gradients."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch

RNG = np.random.default_rng(7)


def _run(fetch, feed=None):
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        return sess.run(fetch, feed)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tg.Graph().as_default() as graph:
        yield graph


@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("ij->j", [(3, 4)]),
    ("i,j->ij", [(3,), (2,)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("ij,jk", [(2, 3), (3, 2)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 2)]),
])
def test_einsum(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    check_op(lambda *ts: tg.einsum(equation, *ts), arrays,
             torch_fn=lambda *ts: torch.einsum(equation, *ts),
             numpy_fn=lambda *a: np.einsum(equation, *a))


@pytest.mark.parametrize("axes, shapes", [(1, [(2, 3), (3, 4)]), (2, [(2, 3, 4), (3, 4, 2)]),
                                          ([[0], [1]], [(3, 2), (4, 3)]), (0, [(2,), (3,)])])
def test_tensordot(axes, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    check_op(lambda a, b: tg.tensordot(a, b, axes), arrays, numpy_fn=lambda a, b: np.tensordot(a, b, axes))


@pytest.mark.parametrize("ord_, axis", [("euclidean", None), (2, 1), (1, 0), (np.inf, 1), (3, None),
                                        ("fro", [0, 1])])
def test_norm(ord_, axis):
    x = RNG.standard_normal((3, 4))
    expected = (lambda a: np.linalg.norm(a.reshape(-1), ord=2 if ord_ in ("euclidean", "fro") else ord_)) \
        if axis is None or isinstance(axis, list) else (lambda a: np.linalg.norm(a, ord=ord_, axis=axis))
    check_op(lambda t: tg.norm(t, ord=ord_, axis=axis), [x], numpy_fn=expected)


def test_linalg_namespace():
    x = RNG.standard_normal((2, 3, 3))
    check_op(tg.linalg.trace, [x], numpy_fn=lambda a: np.trace(a, axis1=-2, axis2=-1))
    check_op(tg.linalg.diag_part, [x], numpy_fn=lambda a: np.diagonal(a, axis1=-2, axis2=-1))
    check_op(tg.linalg.transpose, [x], numpy_fn=lambda a: np.swapaxes(a, -1, -2))
    np.testing.assert_array_equal(_run(tg.linalg.eye(2, 3)), np.eye(2, 3))
    p = tg.placeholder(tg.float64, [2, 2])
    with pytest.raises(NotImplementedError, match="repeated subscripts of 'ii'"):
        tg.gradients(tg.einsum("ii->", p), [p])
