"""--timeline: a Chrome trace of every rank's steps, split into compute and allreduce (trainer.program.timeline)."""
import time

from ..timeline import Timeline
from .step_hook import StepHook


class TimelineHook(StepHook):
    """Records each run and each allreduce in it (DistributedOptimizer's allreduce callback) against a clock
    zeroed at a barrier, so the ranks line up; at the end gathers every rank's spans (a collective) and the
    chief writes them to `path`."""

    def __init__(self, path, communicator, optimizer):
        self.path, self.communicator = path, communicator
        self.timeline = Timeline()
        if hasattr(optimizer, "add_allreduce_callback"):
            optimizer.add_allreduce_callback(self._allreduce)

    def after_create_session(self, session, coord):
        super().after_create_session(session, coord)
        self.communicator.barrier()
        self.timeline.start()

    def _allreduce(self, start, end):
        self.timeline.record("allreduce", start, end, self.step + 1)  # the run under way makes the next step

    def before_run(self, run_context):
        self._start = time.perf_counter()
        return super().before_run(run_context)

    def after_step(self, run_context, results):
        self.timeline.record("step", self._start, time.perf_counter(), self.step)

    def end(self, session):
        per_rank = self.timeline.gather(self.communicator)
        if self.communicator.rank == 0:
            self.timeline.write(self.path, per_rank)
