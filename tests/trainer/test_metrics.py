"""tf.metrics against numpy over several update batches, with and without weights; TF1's variable names and
collections; resetting through tg.local_variables_initializer()."""
import numpy as np
import pytest

import trainer as tg

RNG = np.random.default_rng(7)
BATCHES = [RNG.integers(0, 2, size=(n,)) for n in (5, 8, 3)]
PREDICTIONS = [RNG.integers(0, 2, size=b.shape) for b in BATCHES]
WEIGHTS = [RNG.random(b.shape) for b in BATCHES]
REAL_LABELS = [RNG.standard_normal(b.shape) for b in BATCHES]
REAL_PREDICTIONS = [RNG.standard_normal(b.shape) for b in BATCHES]


def _wmean(values, weights):
    return np.sum(values * weights) / np.sum(weights)


def _counts(labels, predictions, weights):
    l, p = labels.astype(bool), predictions.astype(bool)  # noqa: E741
    return {"tp": np.sum(weights * (l & p)), "fp": np.sum(weights * (~l & p)), "fn": np.sum(weights * (l & ~p)),
            "tn": np.sum(weights * (~l & ~p))}


def _ratio(a, b):
    return a / (a + b) if a + b > 0 else 0.0


# name -> (build(labels, predictions, weights), numpy oracle on the concatenated batches, real-valued inputs?)
METRICS = {
    "accuracy": (lambda l, p, w: tg.metrics.accuracy(l, p, weights=w), lambda l, p, w: _wmean(l == p, w), False),
    "mean": (lambda l, p, w: tg.metrics.mean(p, weights=w), lambda l, p, w: _wmean(p, w), True),
    "mean_squared_error": (lambda l, p, w: tg.metrics.mean_squared_error(l, p, weights=w),
                           lambda l, p, w: _wmean((l - p) ** 2, w), True),
    "mean_absolute_error": (lambda l, p, w: tg.metrics.mean_absolute_error(l, p, weights=w),
                            lambda l, p, w: _wmean(np.abs(l - p), w), True),
    "root_mean_squared_error": (lambda l, p, w: tg.metrics.root_mean_squared_error(l, p, weights=w),
                                lambda l, p, w: np.sqrt(_wmean((l - p) ** 2, w)), True),
    "mean_relative_error": (lambda l, p, w: tg.metrics.mean_relative_error(l, p, tg.abs(l), weights=w),
                            lambda l, p, w: _wmean(np.abs(l - p) / np.abs(l), w), True),
    "percentage_below": (lambda l, p, w: tg.metrics.percentage_below(p, 0.25, weights=w),
                         lambda l, p, w: _wmean(p < 0.25, w), True),
    "precision": (lambda l, p, w: tg.metrics.precision(l, p, weights=w),
                  lambda l, p, w: _ratio(_counts(l, p, w)["tp"], _counts(l, p, w)["fp"]), False),
    "recall": (lambda l, p, w: tg.metrics.recall(l, p, weights=w),
               lambda l, p, w: _ratio(_counts(l, p, w)["tp"], _counts(l, p, w)["fn"]), False),
    "true_positives": (lambda l, p, w: tg.metrics.true_positives(l, p, weights=w),
                       lambda l, p, w: _counts(l, p, w)["tp"], False),
    "false_positives": (lambda l, p, w: tg.metrics.false_positives(l, p, weights=w),
                        lambda l, p, w: _counts(l, p, w)["fp"], False),
    "false_negatives": (lambda l, p, w: tg.metrics.false_negatives(l, p, weights=w),
                        lambda l, p, w: _counts(l, p, w)["fn"], False),
    "true_negatives": (lambda l, p, w: tg.metrics.true_negatives(l, p, weights=w),
                       lambda l, p, w: _counts(l, p, w)["tn"], False),
}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("name", sorted(METRICS))
def test_metric_accumulates_over_batches_and_resets(name, weighted):
    build, oracle, real = METRICS[name]
    labels, predictions = (REAL_LABELS, REAL_PREDICTIONS) if real else (BATCHES, PREDICTIONS)
    dtype = tg.float64 if real else tg.int64
    with tg.Graph().as_default():
        l, p = tg.placeholder(dtype, [None]), tg.placeholder(dtype, [None])
        w = tg.placeholder(tg.float64, [None]) if weighted else None
        value, update_op = build(l, p, w)
        assert value.dtype == tg.float32 and update_op.dtype == tg.float32
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            assert sess.run(value) == 0.0, f"{name}: not 0 before any update"
            for rounds in range(2):  # the second round after a reset must repeat the first
                for k in range(len(labels)):
                    feed = {l: labels[k], p: predictions[k]}
                    if weighted:
                        feed[w] = WEIGHTS[k]
                    seen = [np.concatenate(a[:k + 1]) for a in (labels, predictions)]
                    weights = np.concatenate(WEIGHTS[:k + 1]) if weighted else np.ones_like(seen[0], float)
                    expected = oracle(*seen, weights)
                    np.testing.assert_allclose(sess.run(update_op, feed), expected, rtol=2e-6, atol=1e-6,
                                               err_msg=f"{name} update_op after batch {k} (round {rounds})")
                    np.testing.assert_allclose(sess.run(value), expected, rtol=2e-6, atol=1e-6,
                                               err_msg=f"{name} value after batch {k} (round {rounds})")
                sess.run(tg.local_variables_initializer())
                assert sess.run(value) == 0.0, f"{name}: not reset by local_variables_initializer"


def test_variable_names_and_collections_follow_tf1():
    with tg.Graph().as_default():
        labels, predictions = tg.placeholder(tg.int64, [None]), tg.placeholder(tg.int64, [None])
        acc, acc_update = tg.metrics.accuracy(labels, predictions, metrics_collections=["m"],
                                              updates_collections=[tg.GraphKeys.UPDATE_OPS])
        tg.metrics.accuracy(labels, predictions)
        tg.metrics.precision(labels, predictions, name="prec")
        tg.metrics.recall(labels, predictions)
        tg.metrics.mean_squared_error(tg.cast(labels, tg.float32), tg.cast(predictions, tg.float32))
        names = [v.op.name for v in tg.local_variables()]
        assert names == ["accuracy/total", "accuracy/count", "accuracy_1/total", "accuracy_1/count",
                         "prec/true_positives/count", "prec/false_positives/count",
                         "recall/true_positives/count", "recall/false_negatives/count",
                         "mean_squared_error/total", "mean_squared_error/count"]
        assert tg.get_collection(tg.GraphKeys.METRIC_VARIABLES) == tg.local_variables()
        assert tg.global_variables() == [] and tg.trainable_variables() == []
        assert acc.name == "accuracy/value:0" and acc_update.name == "accuracy/update_op:0"
        assert tg.get_collection("m") == [acc] and tg.get_collection(tg.GraphKeys.UPDATE_OPS) == [acc_update]


def test_squeezable_labels_and_broadcast_scalar_weights():
    with tg.Graph().as_default():
        labels = tg.placeholder(tg.int64, [None, 1])  # a trailing 1, as sparse labels often come
        predictions = tg.placeholder(tg.int64, [None])
        acc, update = tg.metrics.accuracy(labels, predictions, weights=2.0)
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            assert sess.run(update, {labels: [[1], [0], [2], [2]], predictions: [1, 1, 2, 0]}) == 0.5
            assert sess.run(acc) == 0.5
            total, count = sess.run(tg.local_variables())
            assert (total, count) == (4.0, 8.0)


def test_bad_weights_and_shapes_are_named():
    with tg.Graph().as_default():
        values = tg.placeholder(tg.float32, [4, 3], name="values")
        with pytest.raises(ValueError, match=r"weights can not be broadcast.*\(2, 2, 2\).*'values:0'"):
            tg.metrics.mean(values, weights=tg.placeholder(tg.float32, [2, 2, 2], name="w"))
        with pytest.raises(ValueError, match=r"accuracy: predictions 'p:0' of shape \(5,\).*'l:0' of shape \(4,\)"):
            tg.metrics.accuracy(tg.placeholder(tg.int32, [4], name="l"), tg.placeholder(tg.int32, [5], name="p"))


def test_unknown_metrics_say_so():
    with pytest.raises(NotImplementedError, match=r"tf.metrics.nonsense is not available in ringflow.*has "
                                                  r"accuracy"):
        tg.metrics.nonsense
    assert not hasattr(tg.metrics, "recall_at_5")  # hasattr still answers, as for any missing attribute
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        tg.metrics.nonsense
    assert tg.compat.v1.metrics.accuracy is tg.metrics.accuracy


def test_mean_relative_error_counts_zero_where_the_normalizer_is_zero():
    with tg.Graph().as_default():
        labels = tg.constant([0.0, 2.0, -4.0])
        _, update = tg.metrics.mean_relative_error(labels, tg.constant([1.0, 1.0, -1.0]), normalizer=labels)
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            np.testing.assert_allclose(sess.run(update), (0.0 + 0.5 - 0.75) / 3, rtol=1e-6)  # TF1 divides by the signed normalizer


def _curve_points(labels, scores, weights):
    """(tp, fp, tn, fn) at a threshold below every score, between each pair of distinct scores, above every one."""
    values = np.unique(scores)
    cuts = np.concatenate([[values[0] - 1], (values[:-1] + values[1:]) / 2, [values[-1] + 1]])
    above = scores[None, :] > cuts[:, None]
    pos = labels.astype(bool)[None, :]
    return [np.sum(weights * c, axis=1) for c in (above & pos, above & ~pos, ~above & ~pos, ~above & pos)]


@pytest.mark.parametrize("curve", ["ROC", "PR"])
def test_auc_is_the_trapezoidal_area_under_the_curve_over_batches(curve):
    scores = [RNG.integers(0, 11, size=b.shape) / 10 for b in BATCHES]  # ties, and no score on a threshold
    labels = [np.where(RNG.random(b.shape) < 0.3 + 0.5 * s, 1, 0) for b, s in zip(BATCHES, scores)]
    tp, fp, tn, fn = _curve_points(np.concatenate(labels), np.concatenate(scores), np.concatenate(WEIGHTS))
    recall = tp / (tp + fn)
    precision = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1e-30), 1.0)  # TF1's epsilon makes 0/0 one
    x, y = (fp / (fp + tn), recall) if curve == "ROC" else (recall, precision)
    expected = np.sum((x[:-1] - x[1:]) * (y[:-1] + y[1:]) / 2)
    label_in, score_in, weight_in = (tg.placeholder(tg.float64, [None]) for _ in range(3))
    value, update = tg.metrics.auc(label_in, score_in, weight_in, curve=curve)
    assert {v.name for v in tg.local_variables()} >= {"auc/true_positives:0", "auc/false_negatives:0"}
    with tg.Session() as sess:
        sess.run(tg.local_variables_initializer())
        for l, s, w in zip(labels, scores, WEIGHTS):  # noqa: E741
            sess.run(update, {label_in: l, score_in: s, weight_in: w})
        assert sess.run(value) == pytest.approx(expected, abs=1e-5)


def test_per_class_and_per_threshold_metrics_stream_over_batches():
    classes = [RNG.integers(0, 3, size=(n,)) for n in (5, 8)]
    guesses = [RNG.integers(0, 3, size=(n,)) for n in (5, 8)]
    probs = [RNG.random(n) for n in (5, 8)]
    labels = tg.placeholder(tg.int64, [None])
    predicted = tg.placeholder(tg.int64, [None])
    scores = tg.placeholder(tg.float32, [None])
    iou, update_iou = tg.metrics.mean_iou(labels, predicted, 3)
    per_class, update_per_class = tg.metrics.mean_per_class_accuracy(labels, predicted, 3)
    tp, update_tp = tg.metrics.true_positives_at_thresholds(labels, scores, [0.2, 0.7])
    precision, update_precision = tg.metrics.precision_at_thresholds(labels, scores, [0.2, 0.7])
    with tg.Session() as sess:
        sess.run(tg.local_variables_initializer())
        for c, g, p in zip(classes, guesses, probs):
            sess.run([update_iou, update_per_class, update_tp, update_precision],
                     {labels: c, predicted: g, scores: p})
        got = sess.run([iou, per_class, tp, precision])
    c, g, p = (np.concatenate(x) for x in (classes, guesses, probs))
    matrix = np.zeros((3, 3))
    np.add.at(matrix, (c, g), 1)
    union = matrix.sum(0) + matrix.sum(1) - np.diag(matrix)
    np.testing.assert_allclose(got[0], np.mean(np.diag(matrix)[union > 0] / union[union > 0]), rtol=1e-6)
    np.testing.assert_allclose(got[1], np.mean(np.diag(matrix) / matrix.sum(1)), rtol=1e-6)
    positive = c.astype(bool)
    hits = np.array([np.sum(positive & (p > t)) for t in (0.2, 0.7)])
    np.testing.assert_allclose(got[2], hits)
    np.testing.assert_allclose(got[3], hits / (np.array([np.sum(p > t) for t in (0.2, 0.7)]) + 1e-7), rtol=1e-6)


def test_top_k_metrics_stream_over_batches_as_tf():
    labels = np.array([[0, 2], [1, 1], [3, 4]], np.int64)  # row 1 repeats its label: it counts once
    scores = np.array([[0.1, 0.5, 0.3, 0.0, 0.2], [0.9, 0.1, 0.0, 0.3, 0.2], [0.0, 0.1, 0.2, 0.6, 0.5]], np.float32)
    with tg.Graph().as_default():
        y, p = tg.placeholder(tg.int64, [None, 2]), tg.placeholder(tg.float32, [None, 5])
        metrics = [tg.metrics.recall_at_k(y, p, 2), tg.metrics.precision_at_k(y, p, 2),
                   tg.metrics.recall_at_k(y, p, 2, class_id=1), tg.metrics.average_precision_at_k(y, p, 3),
                   tg.metrics.precision_at_top_k(y, tg.constant([[1, 2], [0, 3], [3, 4]]),
                                                 weights=tg.constant([1.0, 2.0, 0.5]))]
        assert [m[0].name for m in metrics[:1]] + [metrics[3][1].name] == ["recall_at_2:0",
                                                                          "average_precision_at_3:0"]
        assert sorted(v.op.name for v in tg.local_variables())[:2] == ["average_precision_at_3/max",
                                                                      "average_precision_at_3/total"]
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            before = sess.run([m[0] for m in metrics])
            once = sess.run([m[1] for m in metrics], {y: labels, p: scores})
            twice = sess.run([m[1] for m in metrics], {y: labels[:1], p: scores[:1]})
    # TF 2.15's tf.compat.v1 answers for the first batch; the second adds row 0 again
    assert np.isnan(before[0]) and np.isnan(before[1]) and before[3] == 0.0
    np.testing.assert_allclose(once, [0.6, 0.5, 0.0, 0.4166666666666667, 0.2857142857142857], rtol=1e-12)
    np.testing.assert_allclose(twice[:2], [4 / 7, 4 / 8], rtol=1e-12)
    np.testing.assert_allclose(twice[3], (0.25 + 0 + 1 + 0.25) / 4, rtol=1e-12)
