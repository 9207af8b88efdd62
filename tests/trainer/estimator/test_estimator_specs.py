"""EstimatorSpec's checks per mode and RunConfig's defaults, cadence rule and replace(), as TF1 1.15 has them."""
import pytest

import trainer as tf
from trainer.estimator import EstimatorSpec, ModeKeys, RunConfig


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        yield g


def test_mode_keys():
    assert (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT) == ("train", "eval", "infer")


def test_each_mode_needs_its_parts(graph):
    loss, op = tf.constant(1.0), tf.no_op()
    with pytest.raises(ValueError, match="Missing loss."):
        EstimatorSpec(ModeKeys.TRAIN, train_op=op)
    with pytest.raises(ValueError, match="Missing train_op."):
        EstimatorSpec(ModeKeys.TRAIN, loss=loss)
    with pytest.raises(ValueError, match="Missing loss."):
        EstimatorSpec(ModeKeys.EVAL)
    with pytest.raises(ValueError, match="Missing predictions."):
        EstimatorSpec(ModeKeys.PREDICT)
    spec = EstimatorSpec(ModeKeys.EVAL, loss=loss)
    assert spec.train_op is None and spec.predictions == {} and spec.eval_metric_ops == {}
    assert isinstance(spec.scaffold, tf.train.Scaffold) and spec.training_hooks == ()
    assert EstimatorSpec(ModeKeys.PREDICT, predictions=loss).predictions is loss


def test_parts_are_checked(graph):
    loss, op = tf.constant(1.0), tf.no_op()
    with pytest.raises(ValueError, match="Loss must be scalar"):
        EstimatorSpec(ModeKeys.EVAL, loss=tf.constant([1.0, 2.0]))
    assert EstimatorSpec(ModeKeys.EVAL, loss=tf.constant([3.0])).loss.shape == ()  # one element: reshaped
    with pytest.raises(TypeError, match="loss must be Tensor"):
        EstimatorSpec(ModeKeys.EVAL, loss=1.0)
    with pytest.raises(TypeError, match="train_op must be Operation or Tensor"):
        EstimatorSpec(ModeKeys.TRAIN, loss=loss, train_op="step")
    with pytest.raises(TypeError, match="Values of eval_metric_ops must be \\(metric_value, update_op\\) tuples"):
        EstimatorSpec(ModeKeys.EVAL, loss=loss, eval_metric_ops={"m": loss})
    with pytest.raises(TypeError, match="predictions\\[p\\] must be Tensor"):
        EstimatorSpec(ModeKeys.PREDICT, predictions={"p": [1.0]})
    with pytest.raises(TypeError, match="All hooks must be SessionRunHook instances"):
        EstimatorSpec(ModeKeys.TRAIN, loss=loss, train_op=op, training_hooks=[object()])
    with pytest.raises(TypeError, match="scaffold must be tg.train.Scaffold"):
        EstimatorSpec(ModeKeys.EVAL, loss=loss, scaffold=object())
    with pytest.raises(TypeError, match="export_outputs must be dict"):
        EstimatorSpec(ModeKeys.PREDICT, predictions=loss, export_outputs=[loss])
    with tf.Graph().as_default():
        other = tf.constant(2.0)
    with pytest.raises(ValueError, match="must be from the default graph"):
        EstimatorSpec(ModeKeys.EVAL, loss=other)
    variable = tf.Variable(0)
    assert EstimatorSpec(ModeKeys.TRAIN, loss=loss, train_op=variable).train_op is variable.op


def test_replace_keeps_the_mode(graph):
    spec = EstimatorSpec(ModeKeys.EVAL, loss=tf.constant(1.0))
    assert spec._replace(loss=tf.constant(2.0)).mode == ModeKeys.EVAL
    with pytest.raises(ValueError, match="mode of EstimatorSpec cannot be changed"):
        spec._replace(mode=ModeKeys.TRAIN)


def test_run_config_defaults():
    config = RunConfig()
    assert (config.save_checkpoints_steps, config.save_checkpoints_secs) == (None, 600)
    assert (config.save_summary_steps, config.keep_checkpoint_max, config.log_step_count_steps) == (100, 5, 100)
    assert config.model_dir is None and config.tf_random_seed is None and config.session_config is None
    assert config.is_chief and config.num_worker_replicas == 1 and config.task_type == "worker"


def test_run_config_one_checkpoint_cadence():
    assert RunConfig(save_checkpoints_steps=5).save_checkpoints_secs is None
    assert RunConfig(save_checkpoints_secs=30).save_checkpoints_steps is None
    with pytest.raises(ValueError, match="cannot be both set"):
        RunConfig(save_checkpoints_steps=5, save_checkpoints_secs=30)
    both_off = RunConfig(save_checkpoints_steps=None, save_checkpoints_secs=None)
    assert (both_off.save_checkpoints_steps, both_off.save_checkpoints_secs) == (None, None)


def test_run_config_replace_returns_a_checked_copy(tmp_path):
    config = RunConfig()
    steps = config.replace(save_checkpoints_steps=7, model_dir=str(tmp_path))
    assert (steps.save_checkpoints_steps, steps.save_checkpoints_secs, steps.model_dir) == (7, None, str(tmp_path))
    assert (config.save_checkpoints_secs, config.model_dir) == (600, None)
    with pytest.raises(ValueError, match="Replacing master is not supported"):
        config.replace(master="grpc://x")
    with pytest.raises(ValueError, match="log_step_count_steps should be > 0"):
        config.replace(log_step_count_steps=0)
    with pytest.raises(ValueError, match="tf_random_seed must be integer"):
        RunConfig(tf_random_seed=1.5)
    with pytest.raises(ValueError, match="session_config must be instance of ConfigProto"):
        RunConfig(session_config={})
    assert RunConfig(session_config=tf.ConfigProto()).session_config is not None


def test_run_config_refuses_what_ringflow_cannot_run(monkeypatch):
    with pytest.raises(NotImplementedError, match="tf.distribute strategies"):
        RunConfig(train_distribute=object())
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker"}}')
    with pytest.raises(NotImplementedError, match="multi-worker Estimator training"):
        RunConfig()
    monkeypatch.setenv("TF_CONFIG", '{"model_dir": "/from/env"}')
    assert RunConfig().model_dir == "/from/env"


def test_train_and_eval_specs_are_checked():
    spec = tf.estimator.TrainSpec(lambda: None, max_steps=10)
    assert (spec.max_steps, spec.hooks) == (10, ())
    eval_spec = tf.estimator.EvalSpec(lambda: None)
    assert (eval_spec.steps, eval_spec.throttle_secs, eval_spec.start_delay_secs) == (100, 600, 120)
    with pytest.raises(TypeError, match="`input_fn` must be callable"):
        tf.estimator.TrainSpec("data")
    with pytest.raises(ValueError, match="Must specify max_steps > 0, given: 0"):
        tf.estimator.TrainSpec(lambda: None, max_steps=0)
    with pytest.raises(TypeError, match="All hooks must be `SessionRunHook` instances"):
        tf.estimator.EvalSpec(lambda: None, hooks=[1])
    with pytest.raises(ValueError, match="Must specify throttle_secs >= 0"):
        tf.estimator.EvalSpec(lambda: None, throttle_secs=-1)
    with pytest.raises(TypeError, match="`estimator` must have type `tf.estimator.Estimator`"):
        tf.estimator.train_and_evaluate(object(), spec, eval_spec)
