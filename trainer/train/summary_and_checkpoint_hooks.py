"""The hooks that write files: CheckpointSaverHook (+ CheckpointSaverListener), SummarySaverHook, StepCounterHook.

They fetch only the global step on the steps they skip. That step is read at the end of the run, after the
train op incremented it; where a hook must be exact about its trigger step it reads the step once more in
the run that crosses the trigger, as TF1's hooks do.
"""
import os

from .logger import logger
from .session_run_hook import SessionRunArgs, SessionRunHook
from .timer import SecondOrStepTimer
from .training_util import get_global_step
from ..summary.writer import FileWriterCache
from ..summary.protos import SessionLog
from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from ..summary.protos import Summary


def global_step_tensor(hook_name):
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook_name}: call "
                           "tg.train.get_or_create_global_step() before building the train op")
    return step


def _summary_writer_for(output_dir):
    return FileWriterCache.get(output_dir)


class CheckpointSaverListener:
    """Called around every save of a CheckpointSaverHook; after_save returning True stops training."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves "checkpoint_dir/model.ckpt-STEP" at the start, every save_secs or save_steps, and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None, checkpoint_basename="model.ckpt",
                 scaffold=None, listeners=None):
        logger().info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver, self._scaffold = saver, scaffold
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []

    def begin(self):
        self._summary_writer = _summary_writer_for(self._checkpoint_dir)
        self._global_step_tensor = global_step_tensor("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        # The graph itself is not written (no GraphDef export here); the checkpoint holds the state at start.
        global_step = int(session.run(self._global_step_tensor))
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if self._timer.should_trigger_for_step(run_values.results + 1):
            global_step = int(run_context.session.run(self._global_step_tensor))
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = int(session.run(self._global_step_tensor))
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step):
        """Save, tell the listeners; True when one of them asks to stop."""
        logger().info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logger().info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step)
        self._summary_writer.add_session_log(
            SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
        logger().info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logger().info("A CheckpointSaverListener requested that training be stopped. listener: %s", listener)
                should_stop = True
        return should_stop

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if len(savers) != 1:
            raise RuntimeError(f"{'No' if not savers else 'More than one'} item(s) in collection "
                               f"{GraphKeys.SAVERS!r}: pass saver= or scaffold= to CheckpointSaverHook")
        self._saver = savers[0]
        return self._saver


class StepCounterHook(SessionRunHook):
    """Logs and records "global_step/sec" every N steps or seconds."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None, summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided; got "
                             f"every_n_steps={every_n_steps!r}, every_n_secs={every_n_secs!r}")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer, self._output_dir = summary_writer, output_dir
        self._last_global_step = None
        self._warnings_left = 5  # TF1 warns about a global step that does not move at most 5 times

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer_for(self._output_dir)
        self._global_step_tensor = global_step_tensor("StepCounterHook")
        self._summary_tag = self._global_step_tensor.op.name + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
        steps_per_sec = elapsed_steps / elapsed_time
        if self._summary_writer is not None:
            summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=steps_per_sec)])
            self._summary_writer.add_summary(summary, global_step)
        logger().info("%s: %g", self._summary_tag, steps_per_sec)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + 1):
            global_step = int(run_context.session.run(self._global_step_tensor))
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
                if elapsed_time is not None:
                    self._log_and_record(elapsed_steps, elapsed_time, global_step)
        if stale_global_step == self._last_global_step and self._warnings_left > 0:
            self._warnings_left -= 1
            logger().warning(
                "It seems that global step (tg.train.get_global_step) has not been increased. Current value "
                "(could be stable): %s vs previous value: %s. You could increase the global step by passing "
                "tg.train.get_global_step() to Optimizer.apply_gradients or Optimizer.minimize.",
                stale_global_step, self._last_global_step)
        self._last_global_step = stale_global_step


class SummarySaverHook(SessionRunHook):
    """Writes the summary op's output every save_steps or save_secs to a FileWriter (output_dir's by default)."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None, scaffold=None,
                 summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op, self._scaffold = summary_op, scaffold
        self._summary_writer, self._output_dir = summary_writer, output_dir
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer_for(self._output_dir)
        self._next_step = None
        self._global_step_tensor = global_step_tensor("SummarySaverHook")

    def before_run(self, run_context):
        self._request_summary = self._next_step is None or self._timer.should_trigger_for_step(self._next_step)
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary and self._get_summary_op() is not None:
            requests["summary"] = self._get_summary_op()
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        global_step = run_values.results["global_step"]  # read after this run's increment: see the module doc
        if self._next_step is None or self._request_summary:
            global_step = int(run_context.session.run(self._global_step_tensor))
        if self._next_step is None:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", ()):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self):
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return None
        return op if isinstance(op, list) else [op]
