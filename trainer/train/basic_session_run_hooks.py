"""TF1's standard SessionRunHooks (tf.train.*Hook): stop at a step, log tensors, catch NaN, feed, final ops.

The hooks that write files live in summary_and_checkpoint_hooks.py and are exported from here too, so
every TF1 hook is importable from this module as from TF1's basic_session_run_hooks.
"""
import time

import numpy as np

from .logger import logger
from .session_run_hook import SessionRunArgs, SessionRunHook
from .summary_and_checkpoint_hooks import global_step_tensor
from .timer import NeverTriggerTimer, SecondOrStepTimer
from ..framework.graph import get_default_graph
from ..platform.errors import OutOfRangeError


def _as_graph_element(obj):
    """The Tensor `obj` names in the default graph ("loss" means "loss:0" when that op has one output)."""
    graph = get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", None) is not graph:
            raise ValueError(f"Passed {obj!r} should have graph attribute that is equal to current graph {graph!r}.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    if len(element.op.outputs) > 1:
        raise ValueError(f"Name {obj} is ambiguous, as this `Operation` has multiple outputs (at least 2): "
                         f"name the output, e.g. '{obj}:0'")
    return element


class LoggingTensorHook(SessionRunHook):
    """Logs "tag = value, ... (0.123 sec)" every N local steps or seconds, and/or at the end."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        only_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided; "
                             f"got every_n_iter={every_n_iter!r}, every_n_secs={every_n_secs!r}, at_end={at_end!r}")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}: it must be a positive number of steps")
        if isinstance(tensors, dict):
            self._tag_order = sorted(tensors)
        else:  # TF1 tags each item by itself: a name, or a Tensor printed as Tensor("w:0", ...)
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        self._tensors = tensors
        self._timer = (NeverTriggerTimer() if only_at_end
                       else SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))
        self._log_at_end = at_end
        self._formatter = formatter

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, tensor_values):
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
        try:
            if self._formatter:
                logger().info(self._formatter(tensor_values))
            else:
                stats = ", ".join("%s = %s" % (tag, tensor_values[tag]) for tag in self._tag_order)
                if elapsed_secs is not None:
                    logger().info("%s (%.3f sec)", stats, elapsed_secs)
                else:
                    logger().info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches `last_step` (or `num_steps` past the step at start)."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError(f"Only one of num_steps or last_step can be specified; got num_steps={num_steps!r} "
                             f"and last_step={last_step!r}")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self):
        self._global_step_tensor = global_step_tensor("StopAtStepHook")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = int(session.run(self._global_step_tensor)) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if run_values.results + 1 >= self._last_step:
            if run_context.session.run(self._global_step_tensor) >= self._last_step:
                run_context.request_stop()


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Stops training when the loss is NaN: raises NanLossDuringTrainingError, or logs and requests a stop."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor, self._fail_on_nan_loss = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logger().error(message)
                raise NanLossDuringTrainingError
            logger().warning(message)
            run_context.request_stop()


class GlobalStepWaiterHook(SessionRunHook):
    """Delays this worker's first step until the global step reaches `wait_until_step`.

    Within one process only another thread can move the global step; with MPI ranks each process has
    its own, so this is for programs that update the step from a thread.
    """

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = global_step_tensor("GlobalStepWaiterHook")

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logger().info("Waiting for global step %d before starting training.", self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                logger().info("Waiting for global step %d before starting training. Current step is %d.",
                              self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(0.5)  # TF1's polling period


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` once when the session ends; their values are in `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops, self._final_ops_feed_dict = final_ops, final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is None:
            return
        try:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)
        except (OutOfRangeError, StopIteration):
            logger().warning("An OutOfRangeError or StopIteration was raised by the ops of a FinalOpsHook: they "
                             "depend on an input source, which is exhausted at the end. Make the final ops read "
                             "only variables (e.g. a metric's value op, not its update op).")
            raise


class FeedFnHook(SessionRunHook):
    """Feeds `feed_fn()` (a dict Tensor -> value) into every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())
