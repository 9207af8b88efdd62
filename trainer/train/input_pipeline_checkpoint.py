"""tf.data.experimental.CheckpointInputPipelineHook: the iterators' positions in checkpoints of their own.

TF1 files the hook under tf.data.experimental, but it saves through tf.train's Saver and runs as a tf.train hook,
a floor above tf.data; it registers itself there when trainer.train is imported (data.experimental.register_above).
"""
import os

from ..data.experimental import register_above
from ..data.iterator import GLOBAL_ITERATORS
from ..data.iterator_state import IteratorSaveable, policy_of
from ..framework.graph import get_default_graph
from .checkpoint_management import latest_checkpoint
from .logger import logger
from .saver import Saver
from .session_run_hook import SessionRunArgs, SessionRunHook
from .timer import SecondOrStepTimer
from .training_util import get_global_step


class CheckpointInputPipelineHook(SessionRunHook):
    """Saves the position of every iterator of the graph ("iterators" collection) to
    "<model_dir>/input.ckpt-STEP", listed in "checkpoint_input", on the Estimator's checkpoint cadence; when such
    a checkpoint exists it restores it before the first step, so the input resumes where it stopped. With several
    workers the name is "input_<task_type>_<task_id>.ckpt". The model's own checkpoints are untouched."""

    def __init__(self, estimator, external_state_policy=None):
        self._policy = policy_of(external_state_policy)
        config = estimator.config
        prefix = "input"
        if config.num_worker_replicas > 1:
            prefix += f"_{config.task_type}_{config.task_id}"
        # TF's names: another basename and state file than the model's "model.ckpt" and "checkpoint", so the two
        # kinds of checkpoint share the model directory without one restoring the other
        self._checkpoint_dir = estimator.model_dir
        self._save_path = os.path.join(estimator.model_dir, prefix + ".ckpt")
        self._latest_filename = "checkpoint_" + prefix
        self._timer = SecondOrStepTimer(every_secs=config.save_checkpoints_secs,
                                        every_steps=config.save_checkpoints_steps)
        self._saver = self._global_step = None
        self._first_run = True

    def begin(self):
        iterators = get_default_graph().get_collection(GLOBAL_ITERATORS)
        saveables = [IteratorSaveable(i, i.name, self._policy) for i in iterators]
        self._saver = Saver(saveables, sharded=True, allow_empty=True)
        self._global_step = get_global_step()
        if self._global_step is None:
            raise RuntimeError("Global step should be created to use CheckpointInputPipelineHook: call "
                               "tg.train.get_or_create_global_step() before building the train op")

    def after_create_session(self, session, coord):
        self._first_run = True

    def before_run(self, run_context):
        # Not in after_create_session: the hook that initializes the iterators may run after this one there, and
        # would undo a restore (or leave nothing to save); every after_create_session has run by the first step.
        if self._first_run:
            self._first_run = False
            self._restore_or_save(run_context.session)
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
        if self._timer.should_trigger_for_step(run_values.results + 1):
            step = int(run_context.session.run(self._global_step))
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                self._save(run_context.session, step)

    def end(self, session):
        step = int(session.run(self._global_step))
        if step != self._timer.last_triggered_step():
            self._save(session, step)

    def _restore_or_save(self, session):
        path = latest_checkpoint(self._checkpoint_dir, latest_filename=self._latest_filename)
        if path:
            logger().info("Restoring the input pipeline from %s.", path)
            self._saver.restore(session, path)
            return
        step = int(session.run(self._global_step))
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def _save(self, session, step):
        logger().info("Saving the input pipeline for step %d into %s.", step, self._save_path)
        self._saver.save(session, self._save_path, global_step=step, latest_filename=self._latest_filename,
                         write_meta_graph=False)


register_above("CheckpointInputPipelineHook", CheckpointInputPipelineHook)
