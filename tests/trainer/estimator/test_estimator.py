"""tg.estimator.Estimator against closed forms and numpy: least squares, streaming metrics, predictions, resuming,
checkpoint cadence, the files TF1 leaves in model_dir, and train_and_evaluate's evaluation schedule."""
import logging

import numpy as np
import pytest

import trainer as tf
from trainer.estimator import ModeKeys

from tests.test_tf1_programs import checkpoint_state, read_events, summaries

ROWS, COEF, BIAS = 200, np.array([1.5, -2.0, 0.5]), 0.3


def data(rows=ROWS, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 3))
    return x, x @ COEF + BIAS + 0.1 * rng.normal(size=rows)


def linear_model_fn(features, labels, mode, params):
    """y = x·w + b in float64, trained by gradient descent on the mean squared error."""
    w = tf.get_variable("w", [3, 1], dtype=tf.float64, initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [], dtype=tf.float64, initializer=tf.zeros_initializer())
    predictions = tf.reshape(tf.matmul(features["x"], w) + b, [-1])
    if mode == ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": predictions, "twice": 2.0 * predictions})
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = tf.train.GradientDescentOptimizer(params.get("lr", 0.3)).minimize(
        loss, global_step=tf.train.get_global_step())
    metrics = {"mse": tf.metrics.mean_squared_error(labels, predictions),
               "mae": tf.metrics.mean_absolute_error(labels, predictions)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


def estimator(model_dir, calls=None, **config):
    config.setdefault("log_step_count_steps", 1000)
    model_fn = linear_model_fn
    if calls is not None:
        def model_fn(features, labels, mode, params):
            calls.append(mode)
            return linear_model_fn(features, labels, mode, params)
    return tf.estimator.Estimator(model_fn, model_dir=str(model_dir), params={"lr": 0.3},
                                  config=tf.estimator.RunConfig(**config))


def full_batches(x, y):
    return tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=len(x), num_epochs=None, shuffle=False)


def once(x, y=None, batch_size=64):
    return tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=batch_size, num_epochs=1, shuffle=False)


def trained(model_dir, steps=300):
    x, y = data()
    return estimator(model_dir).train(full_batches(x, y), steps=steps)


def test_training_reaches_the_least_squares_solution(tmp_path):
    x, y = data()
    est = trained(tmp_path)
    solution = np.linalg.lstsq(np.c_[x, np.ones(len(x))], y, rcond=None)[0]
    np.testing.assert_allclose(est.get_variable_value("w").ravel(), solution[:3], atol=1e-8)
    np.testing.assert_allclose(est.get_variable_value("b"), solution[3], atol=1e-8)
    assert sorted(est.get_variable_names()) == ["b", "global_step", "w"]
    assert est.get_variable_value("global_step") == 300
    assert est.latest_checkpoint().endswith("model.ckpt-300")


def test_evaluate_matches_numpy_over_uneven_batches(tmp_path):
    est = trained(tmp_path)
    x, y = data(rows=150, seed=1)  # batches of 64, 64, 22
    w, b = est.get_variable_value("w").ravel(), est.get_variable_value("b")
    err = x @ w + b - y
    result = est.evaluate(once(x, y))
    assert set(result) == {"mse", "mae", "loss", "global_step"}
    assert result["mse"] == pytest.approx(np.mean(err ** 2), rel=1e-5)
    assert result["mae"] == pytest.approx(np.mean(np.abs(err)), rel=1e-5)
    batch_losses = [np.mean(err[i:i + 64] ** 2) for i in (0, 64, 128)]
    assert result["loss"] == pytest.approx(np.mean(batch_losses), rel=1e-5)  # TF1: the mean of batch losses
    assert result["global_step"] == 300
    scalars = summaries(read_events(tmp_path / "eval"), "simple_value")
    assert scalars["mse"] == [(300, pytest.approx(result["mse"], rel=1e-5))]
    assert est.evaluate(once(x, y), steps=1)["mse"] == pytest.approx(np.mean(err[:64] ** 2), rel=1e-5)
    est.evaluate(once(x, y), name="holdout")
    assert "loss" in summaries(read_events(tmp_path / "eval_holdout"), "simple_value")


def test_evaluate_refuses_a_metric_named_loss(tmp_path):
    def model_fn(features, labels, mode):
        spec = linear_model_fn(features, labels, mode, {})
        return spec._replace(eval_metric_ops={"loss": tf.metrics.mean(spec.loss)})
    x, y = data()
    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Metric with name 'loss' is not allowed"):
        est.evaluate(once(x, y))


def test_predict_yields_one_dict_per_example(tmp_path):
    est = trained(tmp_path)
    x, _ = data(rows=150, seed=2)
    expected = x @ est.get_variable_value("w").ravel() + est.get_variable_value("b")
    predictions = list(est.predict(once(x)))
    assert len(predictions) == 150 and set(predictions[0]) == {"y", "twice"}
    np.testing.assert_allclose([p["y"] for p in predictions], expected, rtol=1e-10)
    np.testing.assert_allclose([p["twice"] for p in predictions], 2 * expected, rtol=1e-10)
    only_y = list(est.predict(once(x), predict_keys=["y"]))
    assert set(only_y[0]) == {"y"}
    batches = list(est.predict(once(x), yield_single_examples=False))
    assert [len(b["y"]) for b in batches] == [64, 64, 22]
    with pytest.raises(ValueError, match="Expected to run at least one output"):
        next(est.predict(once(x), predict_keys=["nope"]))


def test_training_resumes_from_the_latest_checkpoint_and_max_steps_is_absolute(tmp_path):
    x, y = data()
    calls = []
    est = estimator(tmp_path, calls)
    est.train(full_batches(x, y), steps=30)
    est.train(full_batches(x, y), steps=20)  # relative: 20 more
    assert est.get_variable_value("global_step") == 50
    w50 = est.get_variable_value("w")
    del calls[:]
    assert est.train(full_batches(x, y), max_steps=40) is est  # already past: nothing runs
    assert calls == [] and est.latest_checkpoint().endswith("model.ckpt-50")
    np.testing.assert_array_equal(est.get_variable_value("w"), w50)
    est.train(full_batches(x, y), max_steps=60)
    assert est.get_variable_value("global_step") == 60 and calls == [ModeKeys.TRAIN]


def test_training_ends_with_its_input(tmp_path):
    x, y = data()  # 2 epochs of 200 rows in batches of 64: 6 full batches and one of 16
    est = estimator(tmp_path)
    est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=64, num_epochs=2, shuffle=True))
    assert est.get_variable_value("global_step") == 7


def test_checkpoint_cadence_and_retention_follow_run_config(tmp_path):
    x, y = data()
    est = estimator(tmp_path, save_checkpoints_steps=10, keep_checkpoint_max=3, save_summary_steps=5)
    est.train(full_batches(x, y), steps=35)
    latest, kept = checkpoint_state(tmp_path)
    assert [p.rsplit("-", 1)[1] for p in kept] == ["20", "30", "35"] and latest == kept[-1]
    steps = [step for step, _ in summaries(read_events(tmp_path), "simple_value")["loss"]]
    assert steps[:4] == [1, 6, 11, 16]  # save_summary_steps=5, counted from the first step


def test_no_checkpoints_with_both_cadences_off_and_listeners_then_refused(tmp_path):
    x, y = data()
    est = estimator(tmp_path, save_checkpoints_steps=None, save_checkpoints_secs=None)
    est.train(full_batches(x, y), steps=3)
    assert est.latest_checkpoint() is None
    with pytest.raises(ValueError, match="There should be a CheckpointSaverHook"):
        est.train(full_batches(x, y), steps=3, saving_listeners=[tf.estimator.CheckpointSaverListener()])


def test_loss_and_step_are_logged_every_log_step_count_steps(tmp_path, caplog):
    x, y = data()
    est = estimator(tmp_path, log_step_count_steps=4)
    caplog.set_level(logging.INFO, logger="ringflow")
    est.train(full_batches(x, y), steps=10)
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("loss = ")]
    assert [m.split("step = ")[1].split(" ")[0] for m in logged] == ["1", "5", "9"]


def test_hooks_and_saving_listeners_run(tmp_path):
    class Listener(tf.estimator.CheckpointSaverListener):
        saved = []

        def after_save(self, session, global_step_value):
            self.saved.append(global_step_value)

    class Counter(tf.train.SessionRunHook):
        runs = ends = 0

        def after_run(self, run_context, run_values):
            self.runs += 1

        def end(self, session):
            self.ends += 1

    x, y = data()
    counter = Counter()
    est = estimator(tmp_path, save_checkpoints_steps=4)
    est.train(full_batches(x, y), steps=10, hooks=[counter], saving_listeners=[Listener()])
    assert Listener.saved == [0, 4, 8, 10] and (counter.runs, counter.ends) == (10, 1)
    with pytest.raises(TypeError, match="Hooks must be a SessionRunHook"):
        est.train(full_batches(x, y), steps=1, hooks=[object()])


def test_model_fn_gets_only_the_arguments_it_declares(tmp_path):
    seen = {}

    def model_fn(features, labels, config):
        seen.update(config=config, labels=labels)
        w = tf.Variable(0.0)
        loss = tf.reduce_mean(tf.square(features * w - labels))
        return tf.estimator.EstimatorSpec(ModeKeys.TRAIN, loss=loss, train_op=tf.train.GradientDescentOptimizer(
            0.1).minimize(loss, global_step=tf.train.get_global_step()))

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(lambda: (tf.constant([1.0, 2.0]), tf.constant([2.0, 4.0])), steps=2)
    assert seen["config"].model_dir == str(tmp_path) and seen["labels"].shape == (2,)
    with pytest.raises(ValueError, match="not expected args: \\['extra'\\]"):
        tf.estimator.Estimator(lambda features, extra: None)
    with pytest.raises(ValueError, match="does not include params argument"):
        tf.estimator.Estimator(lambda features: None, params={"a": 1})
    with pytest.raises(ValueError, match="must include features argument"):
        tf.estimator.Estimator(lambda labels: None)
    no_labels = tf.estimator.Estimator(lambda features, mode: None, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="model_fn does not take labels, but input_fn returns labels"):
        no_labels.train(lambda: (tf.constant([1.0]), tf.constant([1.0])), steps=1)


def test_input_fn_may_return_a_dataset(tmp_path):
    class OneShot:  # what a tf.data Dataset offers an Estimator (TF1's interface)
        def __init__(self, batch):
            self.batch = batch

        def make_one_shot_iterator(self):
            return self

        def get_next(self):
            return self.batch

    x, y = data()
    est = estimator(tmp_path)
    est.train(lambda: OneShot(once(x, y, batch_size=50)()))  # ends with the input: 4 batches
    assert est.get_variable_value("global_step") == 4


def test_model_dir_none_is_a_temporary_directory_and_conflicts_are_refused(tmp_path):
    est = tf.estimator.Estimator(linear_model_fn, params={})
    assert est.model_dir and est.model_dir != str(tmp_path)
    with pytest.raises(ValueError, match="are set both in constructor and `RunConfig`"):
        tf.estimator.Estimator(linear_model_fn, model_dir=str(tmp_path / "a"), params={},
                               config=tf.estimator.RunConfig(model_dir=str(tmp_path / "b")))
    assert tf.estimator.Estimator(linear_model_fn, params={}, config=tf.estimator.RunConfig(
        model_dir=str(tmp_path))).model_dir == str(tmp_path)


def test_train_and_evaluate_evaluates_each_new_checkpoint(tmp_path):
    x, y = data()
    est = estimator(tmp_path, save_checkpoints_steps=20)
    train_spec = tf.estimator.TrainSpec(full_batches(x, y), max_steps=60)
    eval_spec = tf.estimator.EvalSpec(once(x, y), steps=None, throttle_secs=0)
    metrics, exports = tf.estimator.train_and_evaluate(est, train_spec, eval_spec)
    assert metrics["global_step"] == 60 and exports == []
    evaluated = [step for step, _ in summaries(read_events(tmp_path / "eval"), "simple_value")["loss"]]
    assert evaluated == [20, 40, 60]
    assert tf.estimator.train_and_evaluate(est, train_spec, eval_spec) == (None, None)  # max_steps reached


def test_unavailable_parts_raise_naming_what_is_missing(tmp_path):
    with pytest.raises(NotImplementedError, match="warm_start_from"):
        tf.estimator.Estimator(linear_model_fn, params={}, warm_start_from=str(tmp_path))
    with pytest.raises(NotImplementedError, match="BoostedTreesClassifier.*boosted trees are missing"):
        tf.estimator.BoostedTreesClassifier(feature_columns=[], n_batches_per_layer=1)
    with pytest.raises(ValueError, match="An input_receiver_fn must be defined"):
        trained(tmp_path, steps=1).export_saved_model(str(tmp_path), None)
    with pytest.raises(NotImplementedError, match="pandas_input_fn"):
        tf.estimator.inputs.pandas_input_fn(None, shuffle=False)
    with pytest.raises(NotImplementedError, match="exporters"):
        tf.estimator.EvalSpec(lambda: None, exporters=[object()])
    assert not hasattr(tf.estimator, "WarmStartSettings")
    with pytest.raises(ValueError, match="Can not provide both steps and max_steps"):
        trained(tmp_path, steps=1).train(lambda: None, steps=1, max_steps=2)
    with pytest.raises(ValueError, match="Must specify steps > 0"):
        trained(tmp_path, steps=1).train(lambda: None, steps=0)


def test_input_fn_gets_the_arguments_it_declares_and_evaluate_without_checkpoint_initializes(tmp_path):
    x, y = data()
    seen = []

    def input_fn(mode, params, config):
        seen.append((mode, params, config.model_dir))
        return once(x, y, batch_size=ROWS)()

    est = estimator(tmp_path)
    result = est.evaluate(input_fn)  # no checkpoint yet: w = 0, b = 0 from their initializers
    assert seen == [(ModeKeys.EVAL, {"lr": 0.3}, str(tmp_path))]
    assert result["mse"] == pytest.approx(np.mean(y ** 2), rel=1e-6) and result["global_step"] == 0
    assert est.latest_checkpoint() is None
