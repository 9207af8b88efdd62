"""Checkpoints of `ringflow train`: "DIR/model.ckpt-<step>" (TF's .index and .data files) and TF1's `checkpoint`
state file."""
import os
import time

from ...parallel.nonfinite import NonFiniteError, first_nonfinite
from ...ops.variables import global_variables
from ..outputs.resume import kept_checkpoints
from ..step_vote import StepVote
from .step_hook import EveryNSteps, StepHook

# How often the ranks ask rank 0's clock whether a timed checkpoint is due: a second late on a 600 s period
# is nothing, and the vote then costs nothing measurable (step_vote.py); shorter periods get a tenth of theirs.
CLOCK_VOTE_S = 1.0


class CheckpointHook(StepHook):
    """Saves through `saver` (a tg.train.Saver) every `every_steps` steps, every `every_secs` seconds (by rank
    0's clock, counted from the session's start and from each save) and at the end.

    Every rank runs it, since gathering each rank's random-op streams is a collective at the same steps; the
    chief alone writes, and decides when a timed save is due: the ranks learn it in a vote at a step boundary
    (step_vote.py), so they all save after the same step. With `announce`, the chief prints when saves come.
    Each checkpoint's meta is `meta` (model, dataset, optimizer) plus the data position and every rank's
    random streams, so a resumed run continues bitwise. A run that ran no step saves nothing.
    A checkpoint is never written with NaN or inf in a variable: every rank (their variables are bitwise equal)
    raises NonFiniteError instead, so the newest checkpoint on disk stays the newest finite one and pruning to
    max_to_keep, which only follows a write, never deletes it.
    """

    def __init__(self, communicator, checkpoint_dir, saver, pipeline, meta=None, every_steps=None,
                 basename="model.ckpt", every_secs=None, announce=False):
        self.communicator, self.saver, self.pipeline = communicator, saver, pipeline
        self.checkpoint_dir, self.every_steps, self.every_secs = checkpoint_dir, every_steps, every_secs or None
        self.announce = announce
        self.meta = dict(meta or {})
        self.save_path, self.basename = os.path.join(checkpoint_dir, basename), basename
        self.chief = communicator.rank == 0

    def begin(self):
        super().begin()
        self._variables = global_variables()
        if self.chief:
            os.makedirs(self.checkpoint_dir, exist_ok=True)
            # the previous runs' checkpoints count towards max_to_keep too, listed or not (a lost state file)
            self.saver.recover_last_checkpoints(kept_checkpoints(self.checkpoint_dir, self.basename))

    def after_create_session(self, session, coord):
        super().after_create_session(session, coord)
        self._last_saved, self._period = self.step, EveryNSteps(self.every_steps, self.step)
        self._due_at = time.monotonic() + (self.every_secs or 0)
        if self.every_secs:
            self._clock_vote = StepVote(self.communicator, min(CLOCK_VOTE_S, self.every_secs / 10),
                                        "the checkpoint-time vote")
            self._clock_vote.start(self.step)
        if self.announce and self.chief:
            print(f"ringflow: {self.schedule()}", flush=True)

    def schedule(self):
        """When checkpoints come, in words: "checkpoints to 'ckpt' every 600 s (the next at about 14:05:09), ..."."""
        when = []
        if self.every_secs:
            next_at = time.strftime("%H:%M:%S", time.localtime(time.time() + self.every_secs))
            when.append(f"every {self.every_secs:g} s (the next at about {next_at})")
        if self.every_steps:
            when.append(f"every {self.every_steps} steps")
        when.append("at the end")
        return f"checkpoints to {self.checkpoint_dir!r} " + (", ".join(when[:-1]) + " and " if len(when) > 1
                                                             else "") + when[-1]

    def after_step(self, run_context, results):
        due = self._period(self.step)
        if not due and self.every_secs and self._clock_vote.due(self.step):
            (due,) = self._clock_vote.vote(self.step, [self.chief and time.monotonic() >= self._due_at])
        if due:
            self._save(run_context.session)

    def end(self, session):
        if self.step != self._last_saved:
            self._save(session)

    def _save(self, session):
        self._check_finite(session)
        random = self.communicator.allgather_json(session.random_state(), what="the random streams")
        if self.chief:
            meta = dict(self.meta, data=self.pipeline.state(), random=random)
            kept = self.saver.last_checkpoints
            try:
                self.saver.save(session, self.save_path, global_step=self.step, meta=meta)
            except OSError as exc:
                raise self._write_error(exc, kept) from exc
        self._last_saved, self._due_at = self.step, time.monotonic() + (self.every_secs or 0)

    def _write_error(self, exc, kept):
        """The error for a save that failed (disk full, quota, I/O error): the flag, the file, the step, the
        newest intact checkpoint (the Saver wrote nothing under a checkpoint's name) and what to do."""
        target = exc.filename or f"{self.save_path}-{self.step}"  # a failed write(2) names no file
        target = target.split(".tmp-")[0] if ".tmp-" in os.path.basename(target) else target
        kept = (f"the newest intact checkpoint, {kept[-1]!r}, is kept: free space (or give --checkpoint-dir on "
                "another file system) and run the same command again to resume from it" if kept else
                "no earlier checkpoint was written: free space (or give --checkpoint-dir on another file system) "
                "and run again")
        error = OSError(f"--checkpoint-dir {self.checkpoint_dir!r}: writing the checkpoint of step {self.step} "
                        f"to {target!r} failed ({exc.strerror or exc}); {kept}")
        error.errno = exc.errno
        return error

    def _check_finite(self, session):
        bad = first_nonfinite(zip([v.name for v in self._variables], session.run(self._variables)))
        if bad is None:
            return
        name, what, count = bad
        kept = self.saver.last_checkpoints if self.chief else None
        kept = (f"the newest finite checkpoint, {kept[-1]!r}, is kept" if kept else
                "no earlier checkpoint was written" if self.chief else "rank 0 keeps the newest finite checkpoint")
        raise NonFiniteError(
            f"not writing the checkpoint of step {self.step} to {self.checkpoint_dir!r}: variable {name!r} holds "
            f"{what} ({count} variable(s) not finite); {kept}. The weights diverged although every applied "
            "gradient was finite (an update overflowed): run again with a lower --lr, which resumes from the "
            "newest finite checkpoint")
