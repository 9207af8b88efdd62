"""tf.estimator.train_and_evaluate, local mode: train, evaluating each new checkpoint as it is saved.

As TF1 runs it without a cluster: one train() to train_spec.max_steps whose checkpoint listener evaluates every
checkpoint after the first (at most once per eval_spec.throttle_secs) and once more at the end of training.
Returns (the last evaluation's metrics, the exporters' results).
"""
import collections

from ..platform import tf_logging as logging
from ..train.session_run_hook import SessionRunHook
from ..train.summary_and_checkpoint_hooks import CheckpointSaverListener
from ..train.timer import SecondOrStepTimer
from .estimator import Estimator


def _validate_input_fn(input_fn):
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn!r}")


def _validate_hooks(hooks):
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be `SessionRunHook` instances, given: {hook!r}")
    return hooks


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks"])):
    """What train_and_evaluate trains on: input_fn, up to global step max_steps (None: until the input ends)."""

    def __new__(cls, input_fn, max_steps=None, hooks=None):
        _validate_input_fn(input_fn)
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        return super().__new__(cls, input_fn=input_fn, max_steps=max_steps, hooks=_validate_hooks(hooks))


class EvalSpec(collections.namedtuple("EvalSpec", ["input_fn", "steps", "name", "hooks", "exporters",
                                                   "start_delay_secs", "throttle_secs"])):
    """What train_and_evaluate evaluates on: `steps` batches of input_fn (None: to its end), at most every
    throttle_secs. Exporters need SavedModel export, which ringflow lacks: passing one raises."""

    def __new__(cls, input_fn, steps=100, name=None, hooks=None, exporters=None, start_delay_secs=120,
                throttle_secs=600):
        _validate_input_fn(input_fn)
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name!r}")
        if exporters:
            raise NotImplementedError(f"EvalSpec(exporters={exporters!r}): exporters write SavedModels, which "
                                      "ringflow does not have; the checkpoints in model_dir hold the variables")
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        return super().__new__(cls, input_fn=input_fn, steps=steps, name=name, hooks=_validate_hooks(hooks),
                               exporters=(), start_delay_secs=start_delay_secs, throttle_secs=throttle_secs)


class _EvaluateNewCheckpoints(CheckpointSaverListener):
    """Evaluates the checkpoint just saved, skipping the first (untrained) one and those within throttle_secs."""

    def __init__(self, estimator, eval_spec):
        self._estimator, self._eval_spec = estimator, eval_spec
        self._previous_checkpoint = None
        self.eval_result, self.export_results = None, None

    def begin(self):
        self._timer = SecondOrStepTimer(every_secs=self._eval_spec.throttle_secs)
        self._is_first_run = True

    def after_save(self, session, global_step_value):
        if self._is_first_run:
            self._is_first_run = False
            return
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            logging.info("Skip the current checkpoint eval due to throttle secs (%s secs).",
                         self._eval_spec.throttle_secs)

    def end(self, session, global_step_value):
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)

    def _evaluate(self, global_step_value):
        self._timer.update_last_triggered_step(global_step_value)
        checkpoint = self._estimator.latest_checkpoint()
        if not checkpoint or checkpoint == self._previous_checkpoint:
            raise RuntimeError(f"There was no new checkpoint after the training (latest: {checkpoint!r}): the "
                               f"evaluation at global step {global_step_value} has nothing new to read")
        spec = self._eval_spec
        self.eval_result = self._estimator.evaluate(spec.input_fn, steps=spec.steps, hooks=spec.hooks,
                                                    checkpoint_path=checkpoint, name=spec.name)
        self.export_results = []  # one result per exporter, and EvalSpec takes none
        self._previous_checkpoint = checkpoint


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Train `estimator` on train_spec, evaluating on eval_spec after each checkpoint; (metrics, export results)."""
    if not isinstance(estimator, Estimator):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`. Got: {type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError(f"`train_spec` must have type `tf.estimator.TrainSpec`. Got: {type(train_spec)}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError(f"`eval_spec` must have type `tf.estimator.EvalSpec`. Got: {type(eval_spec)}")
    config = estimator.config
    logging.info("Running training and evaluation locally (non-distributed).")
    logging.info("Start train and evaluate loop. The evaluate will happen after every checkpoint. Checkpoint "
                 "frequency is determined based on RunConfig arguments: save_checkpoints_steps %s or "
                 "save_checkpoints_secs %s.", config.save_checkpoints_steps, config.save_checkpoints_secs)
    listener = _EvaluateNewCheckpoints(estimator, eval_spec)
    estimator.train(train_spec.input_fn, hooks=list(train_spec.hooks), max_steps=train_spec.max_steps,
                    saving_listeners=[listener])
    return listener.eval_result, listener.export_results
