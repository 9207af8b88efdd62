"""--timeline: a Chrome trace of every rank's steps, split into compute and allreduce (trainer.program.timeline)."""
import time

from ..timeline import Timeline
from ...train.session_run_hook import SessionRunHook
from ...train.training_util import get_global_step


class TimelineHook(SessionRunHook):
    """Records each run and each allreduce in it (DistributedOptimizer's allreduce callback) against a clock
    zeroed at a barrier, so the ranks line up; at the end gathers every rank's spans (a collective) and the
    chief writes them to `path`."""

    def __init__(self, path, communicator, optimizer):
        self.path, self.communicator = path, communicator
        self.timeline = Timeline()
        if hasattr(optimizer, "add_allreduce_callback"):
            optimizer.add_allreduce_callback(self._allreduce)

    def begin(self):
        self._global_step = get_global_step()

    def after_create_session(self, session, coord):
        self._step = int(session.run(self._global_step))
        self.communicator.barrier()
        self.timeline.start()

    def _allreduce(self, start, end):
        self.timeline.record("allreduce", start, end, self._step + 1)

    def before_run(self, run_context):
        self._start = time.perf_counter()

    def after_run(self, run_context, run_values):
        self._step += 1
        self.timeline.record("step", self._start, time.perf_counter(), self._step)

    def end(self, session):
        per_rank = self.timeline.gather(self.communicator)
        if self.communicator.rank == 0:
            self.timeline.write(self.path, per_rank)
