"""tg.losses: TF1's weighting, reductions and collections, against closed forms, numeric gradients and PyTorch."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.op_oracle import check_op, torch
from trainer.framework.graph_keys import GraphKeys

F = torch and torch.nn.functional
RNG = np.random.default_rng(4)
LABELS, PREDS = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
PROBS, BITS = RNG.uniform(0.05, 0.95, (4, 3)), RNG.integers(0, 2, (4, 3)).astype(np.float64)
WEIGHTS = np.array([[1.0, 0.0, 2.0], [0.5, 0.5, 0.0], [3.0, 1.0, 1.0], [0.0, 0.0, 1.0]])


def _huber(y, p, delta=1.0):
    e = np.abs(p - y)
    return np.where(e <= delta, 0.5 * e ** 2, delta * (e - 0.5 * delta))


CASES = {  # name: (build(labels, predictions, weights), labels, predictions, per-element numpy losses)
    "mean_squared_error": (lambda y, p, w: tg.losses.mean_squared_error(y, p, w), LABELS, PREDS,
                           lambda y, p: (p - y) ** 2),
    "absolute_difference": (lambda y, p, w: tg.losses.absolute_difference(y, p, w), LABELS, PREDS,
                            lambda y, p: np.abs(p - y)),
    "huber_loss": (lambda y, p, w: tg.losses.huber_loss(y, p, w, delta=0.7), LABELS, PREDS * 2,
                   lambda y, p: _huber(y, p, 0.7)),
    "log_loss": (lambda y, p, w: tg.losses.log_loss(y, p, w, epsilon=1e-3), BITS, PROBS,
                 lambda y, p: -y * np.log(p + 1e-3) - (1 - y) * np.log(1 - p + 1e-3)),
    "hinge_loss": (lambda y, p, w: tg.losses.hinge_loss(y, p, w), BITS, PREDS,
                   lambda y, p: np.maximum(0, 1 - (2 * y - 1) * p)),
    "sigmoid_cross_entropy": (lambda y, p, w: tg.losses.sigmoid_cross_entropy(y, p, w, label_smoothing=0.2),
                              BITS, PREDS * 3,
                              lambda y, p: np.logaddexp(0, p) - p * (0.8 * y + 0.1)),
}


def _nonzero_mean(losses, weights):
    weights = np.broadcast_to(weights, losses.shape)
    return np.sum(losses * weights) / max(np.count_nonzero(weights), 1)


@pytest.mark.parametrize("weights", [1.0, 2.5, WEIGHTS, WEIGHTS[:, :1]], ids=["one", "scalar", "full", "column"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_losses_against_closed_forms_and_numeric_gradients(name, weights):
    build, labels, preds, reference = CASES[name]
    expect = _nonzero_mean(reference(labels, preds), weights)
    check_op(lambda p: build(tg.constant(labels, dtype=p.dtype), p, weights), [preds],
             numpy_fn=lambda p: expect)


def test_losses_against_torch():
    if torch is None:
        pytest.skip("torch is not installed")
    t = lambda a: torch.tensor(a)  # noqa: E731
    check_op(lambda p: tg.losses.huber_loss(tg.constant(LABELS), p, delta=0.5), [PREDS * 2], dtypes=(np.float64,),
             torch_fn=lambda p: F.huber_loss(p, t(LABELS), delta=0.5))
    check_op(lambda p: tg.losses.mean_squared_error(tg.constant(LABELS), p), [PREDS], dtypes=(np.float64,),
             torch_fn=lambda p: F.mse_loss(p, t(LABELS)))
    check_op(lambda p: tg.losses.absolute_difference(tg.constant(LABELS), p), [PREDS], dtypes=(np.float64,),
             torch_fn=lambda p: F.l1_loss(p, t(LABELS)))
    onehot = np.eye(3)[[0, 2, 1, 2]]
    row_weights = np.array([1.0, 0.0, 2.0, 0.5])
    check_op(lambda x: tg.losses.softmax_cross_entropy(tg.constant(onehot), x, row_weights, label_smoothing=0.3),
             [PREDS], dtypes=(np.float64,),
             torch_fn=lambda x: (F.cross_entropy(x, t(onehot), reduction="none", label_smoothing=0.3)
                                 * t(row_weights)).sum() / 3)
    classes = np.array([0, 2, 1, 2])
    check_op(lambda x: tg.losses.sparse_softmax_cross_entropy(tg.constant(classes[:, None]), x, row_weights[:, None]),
             [PREDS], dtypes=(np.float64,),
             torch_fn=lambda x: (F.cross_entropy(x, t(classes), reduction="none") * t(row_weights)).sum() / 3)
    check_op(lambda x: tg.losses.sigmoid_cross_entropy(tg.constant(BITS), x), [PREDS], dtypes=(np.float64,),
             torch_fn=lambda x: F.binary_cross_entropy_with_logits(x, t(BITS)))


def test_reductions():
    losses = np.abs(PREDS)
    R = tg.losses.Reduction
    expect = {R.NONE: losses * WEIGHTS, R.SUM: np.sum(losses * WEIGHTS),
              R.MEAN: np.sum(losses * WEIGHTS) / WEIGHTS.sum(),
              R.SUM_OVER_BATCH_SIZE: np.sum(losses * WEIGHTS) / losses.size,
              R.SUM_BY_NONZERO_WEIGHTS: np.sum(losses * WEIGHTS) / np.count_nonzero(WEIGHTS)}
    assert R.SUM_OVER_NONZERO_WEIGHTS == R.SUM_BY_NONZERO_WEIGHTS and set(R.all()) == set(expect)
    with tg.Graph().as_default():
        results = {key: tg.losses.compute_weighted_loss(tg.constant(losses), WEIGHTS, reduction=key) for key in expect}
        zero = tg.losses.compute_weighted_loss(tg.constant(losses), 0.0)
        ints = tg.losses.compute_weighted_loss(tg.constant([1, 2, 3]))
        with tg.Session() as sess:
            values = sess.run(results)
            assert sess.run(zero) == 0.0 and ints.dtype == tg.float32 and sess.run(ints) == 2.0
    for key, value in expect.items():
        np.testing.assert_allclose(values[key], value, rtol=1e-12, err_msg=key)


def test_collections_and_total_loss():
    with tg.Graph().as_default():
        a = tg.losses.mean_squared_error(tg.constant([1.0, 2.0]), tg.constant([2.0, 4.0]))
        b = tg.losses.absolute_difference([0.0], tg.constant([3.0]), scope="head")
        tg.losses.log_loss([1.0], tg.constant([0.5]), loss_collection=None)
        assert a.name == "mean_squared_error/value:0" and b.name == "head/value:0"
        assert tg.losses.get_losses() == [a, b] and tg.losses.get_losses(scope="head") == [b]
        assert tg.get_default_graph().get_collection(GraphKeys.LOSSES) == [a, b]
        extra = tg.constant(10.0)
        tg.losses.add_loss(extra)
        tg.get_default_graph().add_to_collection(GraphKeys.REGULARIZATION_LOSSES, tg.constant(0.25))
        with tg.Session() as sess:
            assert sess.run(tg.losses.get_total_loss()) == 2.5 + 3.0 + 10.0 + 0.25
            assert sess.run(tg.losses.get_total_loss(add_regularization_losses=False)) == 15.5
            assert sess.run(tg.losses.get_regularization_loss()) == 0.25
        assert tg.losses.get_total_loss(name="all").name == "all:0"
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="No losses to sum"):
            tg.losses.get_total_loss()
        with tg.Session() as sess:
            assert sess.run(tg.losses.get_regularization_loss()) == 0.0


def test_errors_name_the_culprit():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="Invalid Reduction Key 'mean'"):
            tg.losses.mean_squared_error([1.0], [1.0], reduction="mean")
        with pytest.raises(ValueError, match=r"weights of shape \(3,\) can not be broadcast to the losses of shape "
                                             r"\(4, 3\)"):
            tg.losses.absolute_difference(LABELS, PREDS, weights=np.ones(3))
        with pytest.raises(ValueError, match=r"predictions of shape \(4, 3\).*labels of shape \(3, 4\)"):
            tg.losses.mean_squared_error(LABELS.T, PREDS)
        with pytest.raises(ValueError, match="labels must not be None"):
            tg.losses.huber_loss(None, PREDS)
        with pytest.raises(ValueError, match="needs `axis`"):
            tg.losses.cosine_distance(LABELS, PREDS)


def test_cosine_distance():
    unit = lambda a: a / np.linalg.norm(a, axis=1, keepdims=True)  # noqa: E731
    y, p = unit(LABELS), unit(PREDS)
    with tg.Graph().as_default():
        loss = tg.losses.cosine_distance(y, p, axis=1, weights=np.array([[1.0], [0.0], [1.0], [1.0]]))
        with tg.Session() as sess:
            value = sess.run(loss)
    per_row = 1 - np.sum(y * p, axis=1)
    np.testing.assert_allclose(value, (per_row[0] + per_row[2] + per_row[3]) / 3, rtol=1e-6)
