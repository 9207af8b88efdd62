"""tf.contrib.learn.Estimator on tf.estimator, against TF 1.15's documented contract (TF 2.15, the recorder, has
no tf.contrib): model_fn(features, targets, mode, params) returning a tuple or ModelFnOps, fit/evaluate/predict on
numpy arrays or an input_fn, evaluate's metrics by MetricSpec or by (name, prediction key), and MetricSpec's rules
for passing labels, predictions and weights by a metric function's parameter names."""
import numpy as np
import pytest

import trainer as tg
from tests.trainer.contrib.tf_paths import tf1_module

learn = tg.contrib.learn
X = np.linspace(-1, 1, 32, dtype=np.float32)
Y = 2 * X + 1  # a line full-batch gradient descent fits to float32 precision


def line_model(features, targets, mode, params):
    w = tg.get_variable("w", [1, 1], initializer=tg.zeros_initializer())
    b = tg.get_variable("b", [1], initializer=tg.zeros_initializer())
    y = tg.reshape(tg.matmul(features, w) + b, [-1])
    if mode == learn.ModeKeys.INFER:
        return learn.ModelFnOps(mode, predictions={"y": y, "twice": 2 * y})
    loss = tg.losses.mean_squared_error(targets, y)
    step = tg.train.GradientDescentOptimizer(params["lr"]).minimize(loss, tg.train.get_global_step())
    return {"y": y, "twice": 2 * y}, loss, step


@pytest.fixture(autouse=True)
def fresh_graph():
    tg.reset_default_graph()


@pytest.fixture
def fitted(tmp_path):
    estimator = learn.Estimator(line_model, model_dir=str(tmp_path), params={"lr": 0.5})
    return estimator.fit(x=X, y=Y, steps=150)  # batch_size None: every step sees all 32 rows


def test_fit_evaluate_predict_on_numpy_arrays(fitted):
    np.testing.assert_allclose(fitted.get_variable_value("w"), [[2.0]], atol=1e-4)
    np.testing.assert_allclose(fitted.get_variable_value("b"), [1.0], atol=1e-4)
    results = fitted.evaluate(x=X, y=Y, batch_size=8)
    assert results["global_step"] == 150 and results["loss"] < 1e-7
    both = fitted.predict(x=np.array([0.0, 1.0], np.float32), as_iterable=False)
    np.testing.assert_allclose(both["y"], [1.0, 3.0], atol=1e-4)
    np.testing.assert_allclose(both["twice"], [2.0, 6.0], atol=1e-4)
    rows = list(fitted.predict(x=np.array([[0.5]], np.float32), outputs=["y"]))
    assert list(rows[0]) == ["y"] and rows[0]["y"] == pytest.approx(2.0, abs=1e-4)
    batches = list(fitted.predict(x=X, batch_size=10, iterate_batches=True))
    assert [len(batch["y"]) for batch in batches] == [10, 10, 10, 2]


def test_fit_continues_from_the_checkpoint_and_takes_hooks_as_monitors(fitted):
    class Counting(tg.train.SessionRunHook):
        runs = 0

        def after_run(self, run_context, run_values):
            Counting.runs += 1

    fitted.fit(x=X, y=Y, batch_size=4, max_steps=160, monitors=[Counting()])
    assert Counting.runs == 10 and fitted.evaluate(x=X, y=Y)["global_step"] == 160


def test_evaluate_adds_metric_specs_and_metric_functions(fitted):
    metrics = {"mae": learn.MetricSpec(tg.metrics.mean_absolute_error, prediction_key="twice"),
               ("first_y", "y"): lambda predictions, labels: tg.metrics.mean(predictions[:1])}
    results = fitted.evaluate(x=X, y=Y, metrics=metrics)
    assert results["mae"] == pytest.approx(np.abs(2 * Y - Y).mean(), rel=1e-4)  # twice the line against the line
    assert results["first_y"] == pytest.approx(-1.0, abs=1e-4)
    assert "mae" not in fitted.evaluate(x=X, y=Y)  # metrics belong to the one call
    with pytest.raises(ValueError, match="without prediction_key.*'twice', 'y'"):
        fitted.evaluate(x=X, y=Y, metrics={"mae": learn.MetricSpec(tg.metrics.mean_absolute_error)})


def test_model_fn_gets_config_model_dir_and_engineered_features(tmp_path):
    seen = {}

    def model_fn(features, labels, mode, config, model_dir):
        seen.update(mode=mode, config=config, model_dir=model_dir, features=features)
        return features, None, None

    estimator = learn.Estimator(model_fn, model_dir=str(tmp_path), config=learn.RunConfig(tf_random_seed=3),
                                feature_engineering_fn=lambda features, labels: (features * 10, labels))
    assert list(estimator.predict(x=np.array([[1.0]], np.float32))) == [np.array([10.0], np.float32)]
    assert seen["mode"] == "infer" and seen["model_dir"] == str(tmp_path) and seen["config"].tf_random_seed == 3


def test_what_fit_and_the_constructor_refuse(tmp_path):
    with pytest.raises(ValueError, match="does not have a params argument"):
        learn.Estimator(lambda features, labels, mode: None, params={"lr": 1})
    estimator = learn.Estimator(line_model, model_dir=str(tmp_path), params={"lr": 0.5})
    with pytest.raises(ValueError, match="give steps="):
        estimator.fit(x=X, y=Y)
    with pytest.raises(ValueError, match="both input_fn and x"):
        estimator.fit(x=X, y=Y, input_fn=lambda: None, steps=1)
    with pytest.raises(ValueError, match="both input_fn and batch_size"):
        estimator.fit(input_fn=lambda: None, batch_size=2, steps=1)
    with pytest.raises(NotImplementedError, match="session run hooks"):
        estimator.fit(x=X, y=Y, steps=1, monitors=[object()])
    bad = learn.Estimator(lambda features, labels, mode: (features, labels), model_dir=str(tmp_path / "b"))
    with pytest.raises(ValueError, match="Unrecognized value returned by model_fn"):
        bad.fit(x=X, y=Y, steps=1)


def test_model_fn_ops_checks_each_mode():
    loss = tg.constant(1.0)
    with pytest.raises(ValueError, match="Missing train_op"):
        learn.ModelFnOps(learn.ModeKeys.TRAIN, loss=loss)
    with pytest.raises(ValueError, match="Missing loss"):
        learn.ModelFnOps(learn.ModeKeys.EVAL)
    with pytest.raises(ValueError, match="Missing predictions"):
        learn.ModelFnOps(learn.ModeKeys.INFER)
    ops = learn.ModelFnOps(learn.ModeKeys.EVAL, loss=loss)
    assert ops.predictions == {} and ops.estimator_spec().loss is not None


def called_with(*names):
    """A metric function with these parameter names that reports what it was given, by name."""
    exec(f"def metric({', '.join(names)}):\n    return dict(zip({names!r}, [{', '.join(names)}]))", scope := {})
    return scope["metric"]


@pytest.mark.parametrize("names, expected", [
    (("labels", "predictions"), {"labels": "L", "predictions": "P"}),
    (("predictions", "labels", "weights"), {"predictions": "P", "labels": "L", "weights": "W"}),
    (("target", "logits"), {"target": "L", "logits": "P"}),
    (("values",), {"values": "P"}),  # no labels parameter: predictions by position, no labels
    (("labels", "y_pred"), {"labels": "L", "y_pred": "P"}),  # labels first by name: both by position
    (("values", "labels"), {"values": "P", "labels": "L"}),  # contrib's streaming metric(predictions, labels)
])
def test_metric_spec_passes_by_parameter_name(names, expected):
    takes_labels = any(name in learn.python.learn.metric_spec.LABELS for name in names)
    spec = learn.MetricSpec(called_with(*names), prediction_key="p", label_key="l" if takes_labels else None,
                            weight_key="w" if "weights" in names else None)
    assert spec.create_metric_ops({"w": "W"}, {"l": "L"}, {"p": "P"}) == expected


def test_metric_spec_says_which_key_is_missing():
    with pytest.raises(ValueError, match="takes none of"):
        learn.MetricSpec(called_with("predictions"), label_key="l")
    with pytest.raises(ValueError, match="Ambiguous"):
        learn.MetricSpec(called_with("labels", "target", "predictions"))
    spec = learn.MetricSpec(called_with("labels", "predictions"), prediction_key="p")
    with pytest.raises(KeyError, match="'p' missing"):
        spec.create_metric_ops({}, "L", {"q": "Q"})
    with pytest.raises(ValueError, match="requires predictions to be a dict"):
        spec.create_metric_ops({}, "L", "P")


def loss_in_every_mode(features, targets, mode):
    """A model_fn that builds its loss whatever the mode, as TF1 programs wrapped in SKCompat do."""
    w = tg.get_variable("w", [1, 1], initializer=tg.zeros_initializer())
    y = tg.reshape(tg.matmul(features, w), [-1])
    loss = tg.contrib.losses.mean_squared_error(y, targets)  # targets [batch]: fit's y [n, 1] loses its 1
    return y, loss, tg.train.GradientDescentOptimizer(0.5).minimize(loss, tg.train.get_global_step())


def test_sk_compat_fits_scores_and_predicts_arrays_with_labels_as_placeholders_in_infer(tmp_path):
    model = learn.SKCompat(learn.Estimator(loss_in_every_mode, model_dir=str(tmp_path)))
    assert model.fit(X[:, None], (3 * X)[:, None], batch_size=8, steps=200) is model
    scores = model.score(X[:, None], 3 * X, batch_size=8)
    assert scores["global_step"] == 200 and scores["loss"] < 1e-6
    predicted = model.predict(np.array([[1.0], [2.0]], np.float32), batch_size=1)
    assert isinstance(predicted, np.ndarray)
    np.testing.assert_allclose(predicted, [3.0, 6.0], rtol=1e-4)
    with pytest.raises(ValueError, match="should be None or dict"):
        model.score(X, Y, metrics=[tg.metrics.mean])
    assert tf1_module("tensorflow.contrib.learn.python.learn.estimators.estimator").SKCompat is learn.SKCompat
