"""tf.keras.metrics' classes against graph-mode tf.keras (keras_metrics.json, recorded by
fixtures/record_keras_metrics.py): each metric's result after an unweighted and a weighted batch, its config, and a
model fitted with Metric objects in compile, whose logs are each epoch's running states."""
import json
import pathlib

import numpy as np
import pytest

import trainer as tg
from trainer import keras
from trainer.keras import backend as K

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "keras_metrics.json").read_text())
M = keras.metrics
MAKE = {
    "Accuracy": lambda: M.Accuracy(), "BinaryAccuracy": lambda: M.BinaryAccuracy(threshold=0.4),
    "CategoricalAccuracy": lambda: M.CategoricalAccuracy(),
    "SparseCategoricalAccuracy": lambda: M.SparseCategoricalAccuracy(),
    "TopKCategoricalAccuracy": lambda: M.TopKCategoricalAccuracy(k=2),
    "SparseTopKCategoricalAccuracy": lambda: M.SparseTopKCategoricalAccuracy(k=2),
    "CosineSimilarity": lambda: M.CosineSimilarity(), "MeanAbsoluteError": lambda: M.MeanAbsoluteError(),
    "MeanAbsolutePercentageError": lambda: M.MeanAbsolutePercentageError(),
    "MeanSquaredError": lambda: M.MeanSquaredError(),
    "MeanSquaredLogarithmicError": lambda: M.MeanSquaredLogarithmicError(),
    "RootMeanSquaredError": lambda: M.RootMeanSquaredError(),
    "MeanRelativeError": lambda: M.MeanRelativeError(normalizer=[1.0, 2.0, 4.0]),
    "Hinge": lambda: M.Hinge(), "SquaredHinge": lambda: M.SquaredHinge(),
    "CategoricalHinge": lambda: M.CategoricalHinge(), "LogCoshError": lambda: M.LogCoshError(),
    "Poisson": lambda: M.Poisson(), "KLDivergence": lambda: M.KLDivergence(),
    "BinaryCrossentropy": lambda: M.BinaryCrossentropy(label_smoothing=0.1),
    "CategoricalCrossentropy": lambda: M.CategoricalCrossentropy(label_smoothing=0.2),
    "SparseCategoricalCrossentropy": lambda: M.SparseCategoricalCrossentropy(),
    "TruePositives": lambda: M.TruePositives(), "FalsePositives": lambda: M.FalsePositives(thresholds=[0.2, 0.7]),
    "TrueNegatives": lambda: M.TrueNegatives(thresholds=0.3), "FalseNegatives": lambda: M.FalseNegatives(),
    "Precision": lambda: M.Precision(), "Precision_top_k_class": lambda: M.Precision(top_k=2, class_id=1),
    "Recall": lambda: M.Recall(thresholds=[0.3, 0.6]), "Recall_top_k": lambda: M.Recall(top_k=1),
    "SensitivityAtSpecificity": lambda: M.SensitivityAtSpecificity(0.6, num_thresholds=50),
    "SpecificityAtSensitivity": lambda: M.SpecificityAtSensitivity(0.4),
    "AUC": lambda: M.AUC(), "AUC_PR": lambda: M.AUC(curve="PR", num_thresholds=20),
    "AUC_PR_majoring": lambda: M.AUC(curve="PR", summation_method="majoring"),
    "AUC_minoring_thresholds": lambda: M.AUC(summation_method="minoring", thresholds=[0.25, 0.5, 0.75]),
    "MeanIoU": lambda: M.MeanIoU(num_classes=3),
    "Mean": lambda: M.Mean(), "Sum": lambda: M.Sum(), "MeanTensor": lambda: M.MeanTensor(),
}


def test_every_case_recorded_is_checked():
    assert set(MAKE) == set(FIXTURE["cases"])


@pytest.mark.parametrize("name", sorted(MAKE))
def test_metric_updates_and_results_match_tf_keras(name):
    case = FIXTURE["cases"][name]
    metric = MAKE[name]()
    first, second = ([tg.constant(np.asarray(a, np.float32)) for a in batch] for batch in case["inputs"])
    update1 = metric.update_state(*first)
    update2 = metric.update_state(*second, sample_weight=tg.constant(np.asarray(FIXTURE["weights"], np.float32)))
    result = metric.result()
    session = K.get_session()
    for update, want in zip((update1, update2), case["results"]):
        session.run(update)
        np.testing.assert_allclose(session.run(result), want, rtol=2e-5, atol=1e-6)
    metric.reset_states()
    assert np.all(session.run(result) == 0) or name in ("MeanTensor",)
    config = {k: v for k, v in metric.get_config().items() if k != "dtype"}
    tf_1_15_only = {"thresholds"} if name.startswith("AUC") else set()  # TF 2.15 writes them only when given
    for key, value in config.items():
        if key not in tf_1_15_only or key in case["config"]:
            assert json.loads(json.dumps(value)) == pytest.approx(case["config"][key]), key
    again = type(metric).from_config(metric.get_config())
    assert again.get_config() == dict(metric.get_config(), name=again.name)


def test_calling_a_metric_updates_it_and_gives_the_result():
    auc = M.AUC(num_thresholds=5)
    labels, scores = np.array([0, 1, 1, 0.]), np.array([0.1, 0.8, 0.4, 0.6])
    value = auc(tg.constant(labels), tg.constant(scores))
    session = K.get_session()
    first, second = session.run(value), session.run(value)  # each run adds the batch again: same counts, scaled
    assert first == pytest.approx(second) and 0 < first < 1
    assert [v.name for v in auc.variables] == ["true_positives:0", "false_positives:0", "true_negatives:0",
                                               "false_negatives:0"]
    assert not tg.global_variables() and len(tg.local_variables()) == 4


def test_fit_logs_metric_objects_as_tf_keras():
    fit = FIXTURE["fit"]
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
    model.set_weights([np.asarray(w, np.float32) for w in fit["weights"]])
    model.compile(keras.optimizers.SGD(0.5), "binary_crossentropy",
                  metrics=[M.AUC(num_thresholds=50), M.Precision(), M.Recall(), M.TruePositives(),
                           M.BinaryAccuracy(), M.MeanIoU(num_classes=2)], weighted_metrics=[M.AUC(name="wauc")])
    x, y = np.asarray(fit["x"], np.float32), np.asarray(fit["y"], np.float32)
    history = model.fit(x, y, sample_weight=np.asarray(fit["sample_weight"], np.float32), batch_size=16, epochs=3,
                        shuffle=False, verbose=0, validation_data=(x[:12], y[:12]))
    assert sorted(history.history) == sorted(fit["history"])
    for key, want in fit["history"].items():
        np.testing.assert_allclose(history.history[key], want, rtol=1e-4, atol=1e-5, err_msg=key)


@pytest.mark.parametrize("name", ["Huber", "CosineSimilarity", "Hinge", "SquaredHinge"])
def test_loss_classes_match_tf_keras(name):
    case = FIXTURE["losses"][name]
    loss = {"Huber": lambda: keras.losses.Huber(delta=0.5), "CosineSimilarity": lambda: keras.losses.CosineSimilarity(),
            "Hinge": lambda: keras.losses.Hinge(), "SquaredHinge": lambda: keras.losses.SquaredHinge()}[name]()
    y_true, y_pred, weights = (tg.constant(np.asarray(a, np.float32))
                               for a in (case["y_true"], case["y_pred"], FIXTURE["weights"]))
    value = loss(y_true, y_pred, sample_weight=weights)
    assert K.get_session().run(value) == pytest.approx(case["value"], rel=1e-5)
    config = loss.get_config()
    assert {k: config[k] for k in case["config"] if k != "reduction"} == \
        {k: v for k, v in case["config"].items() if k != "reduction"}
    assert type(keras.losses.deserialize(keras.losses.serialize(loss))) is type(loss)

