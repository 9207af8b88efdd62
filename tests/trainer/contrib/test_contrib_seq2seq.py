"""tf.contrib.seq2seq.sequence_loss against a numpy reference of TF1's documented reductions, and its gradient
against finite differences in float64."""
import numpy as np
import pytest

import trainer as tg
from trainer.unsupported import NotInRingflow

RNG = np.random.RandomState(0)
LOGITS = RNG.randn(3, 4, 5)
TARGETS = RNG.randint(0, 5, size=(3, 4))
WEIGHTS = np.array([[1.0, 1.0, 0.5, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])  # a row of zeros


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


def crossent():
    """Weighted -log softmax(logits)[target], [batch, time]."""
    shifted = LOGITS - LOGITS.max(axis=2, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=2, keepdims=True))
    return -np.take_along_axis(log_p, TARGETS[..., None], axis=2)[..., 0] * WEIGHTS


def divide(total, by):
    return np.where(by == 0, 0.0, total / np.where(by == 0, 1.0, by))


def expected(avg_time, avg_batch, sum_time, sum_batch):
    c = crossent()
    if avg_time and avg_batch:
        return c.sum() / WEIGHTS.sum()
    if sum_time and sum_batch:
        return c.sum() / np.count_nonzero(WEIGHTS)
    if avg_time or avg_batch:
        axis = 0 if avg_batch else 1
        return divide(c.sum(axis=axis), WEIGHTS.sum(axis=axis))
    if sum_time or sum_batch:
        axis = 0 if sum_batch else 1
        return divide(c.sum(axis=axis), np.count_nonzero(WEIGHTS, axis=axis))
    return c


@pytest.mark.parametrize("avg_time, avg_batch, sum_time, sum_batch", [
    (True, True, False, False), (False, True, False, False), (True, False, False, False),
    (False, False, True, True), (False, False, True, False), (False, False, False, True),
    (False, False, False, False), (False, True, True, False)])
def test_reductions_match_the_reference(avg_time, avg_batch, sum_time, sum_batch):
    loss = tg.contrib.seq2seq.sequence_loss(tg.constant(LOGITS), tg.constant(TARGETS), tg.constant(WEIGHTS),
                                            average_across_timesteps=avg_time, average_across_batch=avg_batch,
                                            sum_over_timesteps=sum_time, sum_over_batch=sum_batch)
    with tg.Session() as sess:
        got = sess.run(loss)
    want = expected(avg_time, avg_batch, sum_time, sum_batch)
    assert np.shape(got) == np.shape(want) and np.allclose(got, want, rtol=1e-12)


def test_a_custom_loss_function_gets_flat_labels_and_logits():
    seen = {}

    def loss_function(labels, logits):
        seen["shapes"] = (labels.shape.as_list(), logits.shape.as_list())
        return tg.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)

    loss = tg.contrib.seq2seq.sequence_loss(tg.constant(LOGITS), tg.constant(TARGETS), tg.constant(WEIGHTS),
                                            softmax_loss_function=loss_function)
    with tg.Session() as sess:
        assert sess.run(loss) == pytest.approx(expected(True, True, False, False), rel=1e-12)
    assert seen["shapes"][0] == [12] and seen["shapes"][1][1:] == [5]  # batch * time flattened


def test_gradient_matches_finite_differences():
    logits = tg.placeholder(tg.float64, [3, 4, 5])
    loss = tg.contrib.seq2seq.sequence_loss(logits, tg.constant(TARGETS), tg.constant(WEIGHTS),
                                            average_across_timesteps=False)
    (grad,) = tg.gradients(tg.reduce_sum(loss), [logits])
    with tg.Session() as sess:
        analytic = sess.run(grad, {logits: LOGITS})
        numeric, eps = np.zeros_like(LOGITS), 1e-6
        for index in np.ndindex(*LOGITS.shape):
            up, down = LOGITS.copy(), LOGITS.copy()
            up[index] += eps
            down[index] -= eps
            numeric[index] = (sess.run(tg.reduce_sum(loss), {logits: up}) -
                              sess.run(tg.reduce_sum(loss), {logits: down})) / (2 * eps)
    assert np.allclose(analytic, numeric, atol=1e-7)


def test_bad_arguments_and_missing_names():
    with pytest.raises(ValueError, match="cannot both be set"):
        tg.contrib.seq2seq.sequence_loss(LOGITS, TARGETS, WEIGHTS, sum_over_timesteps=True)
    with pytest.raises(ValueError, match="logits .* rank 3, got shape"):
        tg.contrib.seq2seq.sequence_loss(LOGITS[0], TARGETS, WEIGHTS)
    with pytest.raises(NotInRingflow, match="tf.contrib.seq2seq.BasicDecoder is not available"):
        tg.contrib.seq2seq.BasicDecoder
