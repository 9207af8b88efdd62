"""What the chief shows while `ringflow train` runs, all on one stream (stdout), the other ranks nothing.

A headline and where the run starts; then a tqdm bar when that stream is a terminal, else no bar and one plain
line per metrics report, so a batch log (mpiexec, srun, `> log`) gets whole lines and no carriage returns;
then the final metrics. With verbose=False (--no-progress) only the final metrics are printed.
"""
import os
import sys

from tqdm import tqdm

from ...train.session_run_hook import SessionRunHook
from ...train.training_util import get_global_step


def _format(metrics):
    return "  ".join(f"{name} {value:.4f}" for name, value in metrics.items())


def _is_terminal(stream):
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class ProgressHook(SessionRunHook):
    """Prints `headline`, the checkpoint resumed from (`restored_from`, a path) and the steps to run; writes each
    report (it is a reporter of MetricsHook and FinalMetricsHook), with the step rate of `timing` (a TimingHook)
    when given. `stream` (default: sys.stdout when the session starts) takes everything. Give it to the chief
    only."""

    def __init__(self, headline, last_step, restored_from=None, verbose=True, timing=None, stream=None):
        self.headline, self.last_step, self.restored_from = headline, last_step, restored_from
        self.verbose, self.timing, self.stream = verbose, timing, stream
        self.bar = None

    def begin(self):
        self._global_step = get_global_step()

    def after_create_session(self, session, coord):
        self._out = self.stream if self.stream is not None else sys.stdout
        start = self._reported = int(session.run(self._global_step))
        if not self.verbose:
            return
        self._say(self.headline)
        if self.restored_from is not None:
            self._say(f"restored from {os.path.basename(self.restored_from)} at step {start}")
        if start >= self.last_step:
            self._say(f"nothing to do: already at step {start}")
            return
        self._say(f"steps {start + 1}..{self.last_step}")
        if _is_terminal(self._out):
            self.bar = tqdm(total=self.last_step, initial=start, desc="train", unit="step", dynamic_ncols=True,
                            file=self._out)

    def after_run(self, run_context, run_values):
        if self.bar is not None:
            self.bar.update(1)

    def report(self, step, metrics, final=False):
        if final:
            self.end(None)
            self._say("final (whole training set): " + _format(metrics))
            return
        if not self.verbose:
            return
        line = f"step {step}/{self.last_step}  {_format(metrics)}"
        rates = self.timing.rates(step - self._reported) if self.timing is not None else {}
        self._reported = step
        if rates:
            line += f"  ({rates['global_step/sec']:.1f} steps/s)"
        if self.bar is not None:
            self.bar.set_postfix(metrics, refresh=False)
        self._say(line)

    def _say(self, line):
        if self.bar is not None:
            self.bar.write(line, file=self._out)
        else:
            print(line, file=self._out, flush=True)

    def end(self, session):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
