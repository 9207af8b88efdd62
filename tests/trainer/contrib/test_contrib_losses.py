"""tf.contrib.losses: what the conformance family (cases_contribloss.py) cannot record from TF 2.15 (which has no
contrib): the import paths, contrib's own pairwise divisor, which losses are collected, and the errors."""

import numpy as np
import pytest

import trainer as tg
from tests.trainer.contrib.tf_paths import tf1_module
from trainer.unsupported import NotInRingflow


def _run(fetches):
    with tg.Session() as sess:
        return sess.run(fetches)


def test_contrib_losses_are_importable_by_tf1s_module_paths():
    loss_ops = tf1_module("tensorflow.contrib.losses.python.losses.loss_ops")
    package = tf1_module("tensorflow.contrib.losses.python.losses")
    assert loss_ops.softmax_cross_entropy is package.softmax_cross_entropy
    assert package.softmax_cross_entropy is tg.contrib.losses.softmax_cross_entropy
    assert tg.contrib.slim.losses is tg.contrib.losses


def test_predictions_come_first_and_the_loss_is_collected():
    with tg.Graph().as_default():
        predictions, labels = tg.constant([[1.0, 2.0], [3.0, 5.0]]), tg.ones([2, 2])
        loss = tg.contrib.losses.mean_squared_error(predictions, labels, weights=[1.0, 0.0])
        assert tg.contrib.losses.get_losses() == [loss]
        total = tg.contrib.losses.get_total_loss()
        assert _run([loss, total]) == [pytest.approx(0.5), pytest.approx(0.5)]  # (0 + 1) / 2: one sample weighed


def test_hinge_loss_is_unreduced_and_not_collected():
    with tg.Graph().as_default():
        losses = tg.contrib.losses.hinge_loss(tg.constant([[0.5, -2.0]]), tg.constant([[1.0, 0.0]]))
        assert tg.contrib.losses.get_losses() == []
        np.testing.assert_allclose(_run(losses), [[0.5, 0.0]])


def test_mean_pairwise_squared_error_divides_by_n_and_sums_the_samples():
    predictions = np.array([[1.0, 2.0, 4.0], [0.0, 3.0, 3.0]], "float32")
    labels = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 0.0]], "float32")
    weights = np.array([2.0, 0.5], "float32")
    diffs = predictions - labels
    n = diffs.shape[1]
    pairs = [2 * (d ** 2).sum() / n - 2 * d.sum() ** 2 / n ** 2 for d in diffs]
    with tg.Graph().as_default():
        loss = tg.contrib.losses.mean_pairwise_squared_error(predictions, labels, weights)
        assert tg.contrib.losses.get_losses() == [loss]
        assert _run(loss) == pytest.approx(float(np.dot(pairs, weights)), rel=1e-6)
        assert _run(tg.contrib.losses.mean_pairwise_squared_error(predictions, labels, 0.0)) == 0.0


def test_float64_losses_come_back_as_float64():
    with tg.Graph().as_default():
        loss = tg.contrib.losses.compute_weighted_loss(tg.constant([[1.0, 3.0]], tg.float64))
        assert loss.dtype == tg.float64 and _run(loss) == pytest.approx(2.0)


def test_bad_arguments_name_the_culprit():
    with tg.Graph().as_default():
        x = tg.constant([[1.0, 2.0]])
        with pytest.raises(ValueError, match="labels must not be None.*predictions first"):
            tg.contrib.losses.mean_squared_error(x)
        with pytest.raises(ValueError, match="specify `axis`"):
            tg.contrib.losses.cosine_distance(x, x)
        with pytest.raises(ValueError, match=r"not compatible"):
            tg.contrib.losses.absolute_difference(x, tg.constant([[1.0, 2.0, 3.0]]))
        with pytest.raises(ValueError, match="scalar or one weight per sample"):
            tg.contrib.losses.mean_pairwise_squared_error(x, x, tg.ones([1, 2]))
        with pytest.raises(NotInRingflow, match="metric-learning"):
            tg.contrib.losses.metric_learning


def test_per_sample_weights_of_unknown_batch_size_cover_each_samples_losses():
    with tg.Graph().as_default():
        losses, weights = tg.placeholder(tg.float32, [None, None, 2]), tg.placeholder(tg.float32, [None])
        loss = tg.contrib.losses.compute_weighted_loss(losses, weights)
        feed = {losses: np.arange(8, dtype="float32").reshape(2, 2, 2), weights: [1.0, 2.0]}
        with tg.Session() as sess:
            assert sess.run(loss, feed) == pytest.approx((1 * (0 + 1 + 2 + 3) + 2 * (4 + 5 + 6 + 7)) / 8)
            assert sess.run(loss, {**feed, weights: [0.0, 2.0]}) == pytest.approx(2 * (4 + 5 + 6 + 7) / 4)
        with pytest.raises(ValueError, match="must not be None"):
            tg.contrib.losses.compute_weighted_loss(losses, None)
