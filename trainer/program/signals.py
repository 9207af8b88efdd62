"""SIGTERM and SIGINT end a run at a step boundary with a checkpoint, decided by all ranks together.

A scheduler sends SIGTERM to every rank some seconds before it kills a job (Slurm's KillWait and Kubernetes'
grace period default to 30 s); a user's `kill` or Ctrl-C may reach one rank only. A rank that gets one only
notes it; at step boundaries the ranks vote (step_vote.py), so all of them stop after the same step. A vote
about every VOTE_EVERY_S of steps acts on a signal within ~50 ms plus one step, and the votes cost about 1 us
a step on a tiny MLP (within the noise), nothing measurable on a real model's step.

After the stop the checkpoint hook saves that step, the final evaluation and --save-final are skipped (the
model is not finished), and every rank exits with 128 + the signal's number, as a shell reports a process
the signal ended (143 for SIGTERM, 130 for SIGINT).
A second signal while stopping gets the default behaviour: the process ends at once.
"""
import signal
import threading

from ..train.session_run_hook import SessionRunHook
from .agreement import JobError
from .hooks.step_hook import StepHook
from .step_vote import StepVote

SIGNALS = (signal.SIGTERM, signal.SIGINT)
VOTE_EVERY_S = 0.05  # seconds of steps between two votes: well inside any grace period, see above


class StoppedBySignal(JobError):
    """The run stopped after a signal; `.step` is the last step run, `.code` 128 + the signal's number."""

    def __init__(self, signum, step, saved):
        name = signal.Signals(signum).name
        where = (f"checkpoint written to {saved!r}; run the same command again to resume" if saved else
                 "no checkpoint written (give --checkpoint-dir to keep a stopped run's progress)")
        super().__init__(f"stopped by {name} at step {step}; {where}", code=128 + signum)
        self.signum, self.step, self.saved = signum, step, saved


class StopOnSignalHook(StepHook):
    """Notes SIGTERM/SIGINT instead of dying and, at the steps the ranks last agreed on, votes with them over
    `communicator`; after a vote that found a signal anywhere it requests a stop. `.stopped` is then the
    signal's number (SIGTERM when ranks got different ones) and `.step` the step the run stops at."""

    def __init__(self, communicator):
        self.communicator = communicator
        self.received = self.stopped = None
        self._previous = {}

    def begin(self):
        super().begin()
        if threading.current_thread() is threading.main_thread():  # Python runs handlers there only
            for signum in SIGNALS:
                self._previous[signum] = signal.signal(signum, self._note)

    def _note(self, signum, frame):
        if self.received is None:
            self.received = signum
            return
        self._restore()  # a second signal: the user insists, so the default (die, or KeyboardInterrupt)
        signal.raise_signal(signum)

    def after_create_session(self, session, coord):
        super().after_create_session(session, coord)
        self._vote = StepVote(self.communicator, VOTE_EVERY_S, "the stop-on-signal vote")
        self._vote.start(self.step)

    def after_step(self, run_context, results):
        if not self._vote.due(self.step):
            return
        (signum,) = self._vote.vote(self.step, [self.received or 0])
        if signum:
            self.stopped = int(signum)
            run_context.request_stop()

    def end(self, session):
        self._restore()

    def _restore(self):
        for signum, handler in self._previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self._previous = {}


class UnlessStopped(SessionRunHook):
    """`hook` as it is, except that its end() is skipped when `stopper` stopped the run on a signal: for the
    work a finished run does at its end (the final evaluation, --save-final)."""

    def __init__(self, hook, stopper):
        self.hook, self.stopper = hook, stopper

    def begin(self):
        self.hook.begin()

    def after_create_session(self, session, coord):
        self.hook.after_create_session(session, coord)

    def before_run(self, run_context):
        return self.hook.before_run(run_context)

    def after_run(self, run_context, run_values):
        self.hook.after_run(run_context, run_values)

    def end(self, session):
        if not self.stopper.stopped:
            self.hook.end(session)
