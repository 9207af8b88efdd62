"""Decisions the ranks take together at step boundaries, at a cost that does not grow with the step rate.

What one rank alone knows (a signal reached it, rank 0's clock says a checkpoint is due) may start something
every rank must do after the same step (stop, save: collectives). So at agreed steps the ranks vote: an
allreduce(max) of a few integers. Voting after every step costs 13-18 us a step (measured with 2 ranks on one
node: ~11% of a tiny MLP's 0.14 ms step), so each vote also fixes when the next one is: after about `every_s`
of steps, the smallest gap any rank proposes (at least 1 step, at most `max_steps`). Every rank then votes at
the same steps without further talk.
"""
import math
import time

import numpy as np

MAX_STEPS_BETWEEN_VOTES = 1000  # bounds the gap when steps are very fast at first and then slow down


class StepVote:
    """Votes over `communicator` (labelled `what` in its errors) about every `every_s` seconds of steps."""

    def __init__(self, communicator, every_s, what, max_steps=MAX_STEPS_BETWEEN_VOTES):
        self.communicator, self.every_s, self.what, self.max_steps = communicator, every_s, what, max_steps

    def start(self, step):
        """Begin counting at global step `step` (every rank the same): the first vote is after the next step."""
        self._voted_at, self._next, self._clock = step, step + 1, time.perf_counter()

    def due(self, step):
        """Whether the ranks vote after global step `step`."""
        return step >= self._next

    def vote(self, step, ballot):
        """The elementwise max over every rank of `ballot` (non-negative integers); call it when due(step)."""
        now = time.perf_counter()
        per_step = (now - self._clock) / max(1, step - self._voted_at)
        gap = min(self.max_steps, max(1, math.ceil(self.every_s / max(per_step, 1e-9))))
        votes = np.array(list(ballot) + [-gap], np.int64)  # max of -gap: the smallest gap proposed
        if self.communicator.size > 1:
            votes = self.communicator.allreduce(votes, op="max", what=self.what)
        self._voted_at, self._next, self._clock = step, step - int(votes[-1]), now
        return votes[:-1]
