"""tf.contrib.metrics (and slim.metrics): the import paths, the metrics' local variables and collections, the
aggregators and the names ringflow lacks; their values are the conformance family's (cases_contribloss.py)."""

import pytest

import trainer as tg
from tests.trainer.contrib.tf_paths import tf1_module


def test_contrib_metrics_are_importable_by_tf1s_module_paths():
    metric_ops = tf1_module("tensorflow.contrib.metrics.python.ops.metric_ops")
    assert metric_ops.streaming_accuracy is tg.contrib.metrics.streaming_accuracy
    assert tg.contrib.slim.metrics is tg.contrib.metrics


def test_streaming_metrics_keep_running_totals_in_local_variables_and_collections():
    with tg.Graph().as_default():
        predictions, labels = tg.placeholder(tg.int64, [None]), tg.placeholder(tg.int64, [None])
        value, update = tg.contrib.metrics.streaming_accuracy(predictions, labels, metrics_collections=["m"],
                                                              updates_collections=["u"])
        assert [v.name for v in tg.local_variables()] == ["accuracy/total:0", "accuracy/count:0"]
        assert tg.get_collection("m") == [value] and tg.get_collection("u") == [update]
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            sess.run(update, {predictions: [1, 0], labels: [1, 1]})
            sess.run(update, {predictions: [2, 2], labels: [2, 2]})
            assert sess.run(value) == pytest.approx(0.75)


def test_aggregate_metric_map_splits_values_and_updates():
    with tg.Graph().as_default():
        predictions, labels = tg.constant([1, 0, 1]), tg.constant([1, 1, 1])
        names_to_values, names_to_updates = tg.contrib.slim.metrics.aggregate_metric_map({
            "accuracy": tg.contrib.metrics.streaming_accuracy(predictions, labels),
            "recall": tg.contrib.metrics.streaming_recall(predictions, labels)})
        values, updates = tg.contrib.metrics.aggregate_metrics(
            tg.contrib.metrics.streaming_mean(tg.constant([1.0, 3.0])))
        assert sorted(names_to_values) == sorted(names_to_updates) == ["accuracy", "recall"]
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            sess.run([names_to_updates, updates])
            assert sess.run(names_to_values) == {"accuracy": pytest.approx(2 / 3), "recall": pytest.approx(2 / 3)}
            assert sess.run(values) == [2.0]


def test_aggregate_metric_map_refuses_a_tensor_that_is_no_pair():
    with tg.Graph().as_default():
        batch_accuracy = tg.contrib.metrics.accuracy(tg.constant([1]), tg.constant([1]))
        with pytest.raises(ValueError, match="'accuracy' is .* not a \\(value, update_op\\) pair"):
            tg.contrib.metrics.aggregate_metric_map({"accuracy": batch_accuracy})
        with pytest.raises(ValueError, match="at least one"):
            tg.contrib.metrics.aggregate_metrics()


def test_accuracy_wants_class_ids_of_one_dtype():
    with tg.Graph().as_default():
        with pytest.raises(ValueError, match="dtypes must match"):
            tg.contrib.metrics.accuracy(tg.constant([1], tg.int64), tg.constant([1], tg.int32))
        with pytest.raises(ValueError, match="integers, bools or strings"):
            tg.contrib.metrics.accuracy(tg.constant([1.0]), tg.constant([1.0]))


def test_streaming_metrics_ringflow_lacks_raise_not_implemented():
    with pytest.raises(NotImplementedError, match="streaming_pearson_correlation is not implemented .*Pearson"):
        tg.contrib.metrics.streaming_pearson_correlation(None, None)
    with pytest.raises(AttributeError, match="no attribute 'no_such_metric'"):
        tg.contrib.metrics.no_such_metric


def test_a_metric_spec_passes_predictions_labels_and_weights_by_contribs_parameter_names():
    with tg.Graph().as_default():
        spec = tg.contrib.learn.MetricSpec(metric_fn=tg.contrib.metrics.streaming_accuracy, prediction_key="classes",
                                           weight_key="w")
        assert str(spec).startswith("MetricSpec(metric_fn=streaming_accuracy,")
        value, update = spec.create_metric_ops({"w": tg.constant([1.0, 3.0])}, tg.constant([1, 1]),
                                               {"classes": tg.constant([1, 0])})
        with tg.Session() as sess:
            sess.run(tg.local_variables_initializer())
            sess.run(update)
            assert sess.run(value) == pytest.approx(0.25)
        with pytest.raises(TypeError):
            tg.contrib.metrics.streaming_recall(tg.constant([1]), tg.constant([1]), None, None, None, None, "extra")
