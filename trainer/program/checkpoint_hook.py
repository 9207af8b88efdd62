"""Checkpoints of `ringflow train`: "DIR/model.ckpt-<step>.npz" and TF1's `checkpoint` state file."""
import os

from ..train import SessionRunHook, get_checkpoint_state, get_global_step
from .collectives import gather_json


class CheckpointHook(SessionRunHook):
    """Saves through `saver` (a tg.train.Saver) every `every_steps` steps and at the end.

    Every rank runs it, since gathering each rank's random-op streams is a collective at the same steps; the
    chief alone writes. Each checkpoint's meta is `meta` (model, dataset, optimizer) plus the data position
    and every rank's random streams, so a resumed run continues bitwise. A run that ran no step saves nothing.
    """

    def __init__(self, communicator, checkpoint_dir, saver, pipeline, meta=None, every_steps=None,
                 basename="model.ckpt"):
        self.communicator, self.saver, self.pipeline = communicator, saver, pipeline
        self.checkpoint_dir, self.every_steps = checkpoint_dir, every_steps
        self.meta = dict(meta or {})
        self.save_path = os.path.join(checkpoint_dir, basename)
        self.chief = communicator.rank == 0

    def begin(self):
        self._global_step = get_global_step()
        if self.chief:
            os.makedirs(self.checkpoint_dir, exist_ok=True)
            state = get_checkpoint_state(self.checkpoint_dir)
            if state is not None:  # the previous runs' checkpoints count towards max_to_keep too
                self.saver.recover_last_checkpoints(state.all_model_checkpoint_paths)

    def after_create_session(self, session, coord):
        self._step = self._last_saved = int(session.run(self._global_step))

    def after_run(self, run_context, run_values):
        self._step += 1  # every run of the loop is one training step
        if self.every_steps and self._step % self.every_steps == 0:
            self._save(run_context.session)

    def end(self, session):
        if self._step != self._last_saved:
            self._save(session)

    def _save(self, session):
        random = gather_json(self.communicator, session.random_state())
        if self.chief:
            meta = dict(self.meta, data=self.pipeline.state(), random=random)
            self.saver.save(session, self.save_path, global_step=self._step, meta=meta)
        self._last_saved = self._step
