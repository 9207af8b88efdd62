"""What the program's step-driven hooks share: the global step they act on, read and never counted, and when a
period of it comes round.

As TF1's hooks do (CheckpointSaverHook, StepCounterHook), a StepHook fetches the global step tensor with every
run instead of counting its own runs, so the step it acts on is the graph's: restored after the session started,
or advanced by runs the hook does not see. EveryNSteps is the period, Chainer's IntervalTrigger on the global
step: due at each multiple of N, so a resumed run saves and reports at the steps an uninterrupted one does.
"""
from ...train.session_run_hook import SessionRunArgs, SessionRunHook
from ...train.training_util import get_global_step


class StepHook(SessionRunHook):
    """A hook acting at the global step `self.step`: read when the session is created, then fetched with each run
    (a run fetches a variable as the run leaves it, so after_step sees the step just made).

    Subclasses fetch more with `fetches()` (results in after_step), act in `after_step(run_context, results)`,
    and call the base's begin and after_create_session first when they override them.
    """

    def begin(self):
        self._global_step = get_global_step()
        if self._global_step is None:
            raise ValueError(f"{type(self).__name__} acts at global steps, but the graph has no global step: "
                             "create it with tg.train.get_or_create_global_step() before the session")

    def after_create_session(self, session, coord):
        self.step = int(session.run(self._global_step))

    def fetches(self):
        """What else to fetch with each run (None: nothing); its values come to after_step."""
        return None

    def before_run(self, run_context):
        extra = self.fetches()
        self._with_extra = extra is not None
        return SessionRunArgs((self._global_step, extra) if self._with_extra else self._global_step)

    def after_run(self, run_context, run_values):
        step, results = run_values.results if self._with_extra else (run_values.results, None)
        self.step = int(step)
        self.after_step(run_context, results)

    def after_step(self, run_context, results):
        """Act after a run that left the global step at `self.step`."""


class EveryNSteps:
    """Due at each global step that is a multiple of `every` (never if every is None or 0) and at `last` (if
    given), once: a run that leaves the step where it was (an evaluation run) is not due again."""

    def __init__(self, every, step, last=None):
        self.every, self.last, self._seen = every, last, step

    def __call__(self, step):
        due = step != self._seen and (bool(self.every) and step % self.every == 0 or step == self.last)
        self._seen = step
        return due
