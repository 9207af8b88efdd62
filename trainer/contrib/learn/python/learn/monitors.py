"""tf.contrib.learn.monitors: contrib's monitors as the tf.train session run hooks they amount to.

BaseMonitor is a SessionRunHook that contrib's Estimator.fit hands itself (set_estimator) before training.
ValidationMonitor evaluates that estimator on validation data every `every_n_steps` training steps, on the latest
checkpoint (skipped while there is none, or it is the one last evaluated, or check_interval_secs have not passed
since the last look), logs the results, and with early_stopping_rounds stops training once the
early_stopping_metric has not improved for that many steps, as TF 1.15's does.
"""
import copy
import time

from .....platform import tf_logging as logging
from .....train.checkpoint_management import latest_checkpoint
from .....train.session_run_hook import SessionRunHook
from .....train.training_util import get_global_step


class BaseMonitor(SessionRunHook):
    """A hook that knows the estimator it trains (given by fit through set_estimator)."""

    _estimator = None

    def set_estimator(self, estimator):
        """Called by contrib's Estimator.fit with itself before it trains."""
        if estimator is None:
            raise ValueError("set_estimator needs an estimator, got None")
        self._estimator = estimator


class ValidationMonitor(BaseMonitor):
    """Evaluates on (x, y) or input_fn every_n_steps; optionally stops training early."""

    def __init__(self, x=None, y=None, input_fn=None, batch_size=None, eval_steps=None, every_n_steps=100,
                 metrics=None, hooks=None, early_stopping_rounds=None, early_stopping_metric="loss",
                 early_stopping_metric_minimize=True, name=None, check_interval_secs=5):
        if x is None and input_fn is None:
            raise ValueError("Either x or input_fn should be provided.")
        if every_n_steps is None or every_n_steps < 1:
            raise ValueError(f"Invalid every_n_steps={every_n_steps!r}: it must be a positive number of steps")
        self.x, self.y, self.input_fn, self.batch_size, self.eval_steps = x, y, input_fn, batch_size, eval_steps
        self.metrics, self.hooks, self.name = metrics, hooks, name
        self.early_stopping_rounds, self.early_stopping_metric = early_stopping_rounds, early_stopping_metric
        self.early_stopping_metric_minimize = early_stopping_metric_minimize
        self._every_n_steps, self._check_interval_secs = every_n_steps, check_interval_secs
        self._last_active_step, self._last_check_time, self._latest_path = 0, None, None
        self._best_value = self._best_value_step = self._best_metrics = None
        self._early_stopped = False

    early_stopped = property(lambda self: self._early_stopped, doc="Whether this monitor stopped training.")
    best_step = property(lambda self: self._best_value_step, doc="The step of the best early_stopping_metric.")
    best_value = property(lambda self: self._best_value, doc="The best early_stopping_metric so far.")
    best_metrics = property(lambda self: self._best_metrics, doc="All metrics of the best evaluation.")

    def begin(self):
        if self._estimator is None:
            raise ValueError("Missing call to set_estimator: pass the monitor to contrib.learn's Estimator.fit")
        self._global_step, self._step = get_global_step(), None

    def before_run(self, run_context):
        # contrib's monitors count the steps run from the global step before the first (its run may move it)
        self._step = (int(run_context.session.run(self._global_step)) if self._step is None else self._step) + 1

    def after_run(self, run_context, run_values):
        step = self._step
        if step >= self._last_active_step + self._every_n_steps:
            self._last_active_step = step
            if self._validate(step):
                run_context.request_stop()

    def _new_checkpoint(self, step):
        now = time.time()
        if (self._check_interval_secs is not None and self._last_check_time is not None
                and now - self._last_check_time <= self._check_interval_secs):
            return None
        self._last_check_time = now
        path = latest_checkpoint(self._estimator.model_dir)
        if path is None or path == self._latest_path:
            logging.debug("Skipping evaluation at step %d: no new checkpoint", step)
            return None
        self._latest_path = path
        return path

    def _validate(self, step):
        """Evaluate on a new checkpoint; True when early stopping says to stop."""
        if self._new_checkpoint(step) is None:
            return False
        outputs = self._estimator.evaluate(x=self.x, y=self.y, input_fn=self.input_fn, batch_size=self.batch_size,
                                           steps=self.eval_steps, metrics=self.metrics, hooks=self.hooks,
                                           name=self.name)
        logging.info("Validation (step %d): %s", step, ", ".join(f"{k} = {v}" for k, v in outputs.items()))
        if self.early_stopping_rounds is None:
            return False
        if self.early_stopping_metric not in outputs:
            raise ValueError(f"Metric {self.early_stopping_metric} missing from outputs {set(outputs)}: give "
                             "early_stopping_metric one of them")
        value = outputs[self.early_stopping_metric]
        if self._best_value is None or (value < self._best_value if self.early_stopping_metric_minimize
                                        else value > self._best_value):
            self._best_value, self._best_value_step = value, step
            self._best_metrics = copy.deepcopy(outputs)
        if step - self._best_value_step >= self.early_stopping_rounds:
            logging.info("Stopping. Best step: %d with %s = %s.", self._best_value_step, self.early_stopping_metric,
                         self._best_value)
            self._early_stopped = True
            return True
        return False
