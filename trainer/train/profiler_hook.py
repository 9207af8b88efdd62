"""tf.train.ProfilerHook: every N steps or seconds, trace one step (RunOptions FULL_TRACE) and write its Chrome
trace to <output_dir>/timeline-<step>.json (tensorflow.python.client.timeline), as TF1 does."""
import os

from ..client.config import RunOptions
from ..platform.gfile import GFile
from ..python.client.timeline import Timeline
from .logger import logger
from .session_run_hook import SessionRunArgs, SessionRunHook
from ..summary.writer import FileWriterCache
from .summary_and_checkpoint_hooks import global_step_tensor
from .timer import SecondOrStepTimer


class ProfilerHook(SessionRunHook):
    """Writes timeline-<global step>.json every `save_steps` steps or `save_secs` seconds (exactly one of them),
    and records the step's run metadata in the output_dir's summary writer."""

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True, show_memory=False):
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._output_dir = output_dir
        self._show_dataflow, self._show_memory = show_dataflow, show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        self._next_step = None
        self._global_step = global_step_tensor("ProfilerHook")
        self._writer = FileWriterCache.get(self._output_dir)

    def before_run(self, run_context):
        self._trace = self._next_step is not None and self._timer.should_trigger_for_step(self._next_step)
        options = RunOptions(trace_level=RunOptions.FULL_TRACE) if self._trace else None
        return SessionRunArgs({"global_step": self._global_step}, options=options)

    def after_run(self, run_context, run_values):
        stale_step = int(run_values.results["global_step"])
        if self._next_step is None:  # the first run only starts the timer
            self._timer.update_last_triggered_step(stale_step)
        step = stale_step + 1
        if self._trace and run_values.run_metadata is not None:
            step = int(run_context.session.run(self._global_step))
            self._timer.update_last_triggered_step(step)
            path = self._output_file.format(step)
            logger().info("Saving timeline for %d into '%s'.", step, path)
            with GFile(path, "w") as f:
                f.write(Timeline(run_values.run_metadata.step_stats).generate_chrome_trace_format(
                    show_dataflow=self._show_dataflow, show_memory=self._show_memory))
            self._writer.add_run_metadata(run_values.run_metadata, f"step_{step}")
        self._next_step = step + 1
