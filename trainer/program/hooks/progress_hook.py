"""What the chief shows while `ringflow train` runs: a headline, a tqdm bar, a line per metrics report."""
from ...train.session_run_hook import SessionRunHook
from ...train.training_util import get_global_step


def _format(metrics):
    return "  ".join(f"{name} {value:.4f}" for name, value in metrics.items())


class ProgressHook(SessionRunHook):
    """Prints `headline` and the steps to run, advances a progress bar with each step and writes each report
    (a reporter of MetricsHook and FinalMetricsHook). Give it to the chief only."""

    def __init__(self, headline, last_step):
        self.headline, self.last_step = headline, last_step
        self.bar = None

    def begin(self):
        self._global_step = get_global_step()

    def after_create_session(self, session, coord):
        from tqdm import tqdm
        start = int(session.run(self._global_step))
        print(f"{self.headline}, steps {start + 1}..{self.last_step}", flush=True)
        self.bar = tqdm(total=self.last_step, initial=start, desc="train", unit="step", dynamic_ncols=True)

    def after_run(self, run_context, run_values):
        self.bar.update(1)

    def report(self, step, metrics, final=False):
        if final:
            self.end(None)
            print("final (whole training set): " + _format(metrics), flush=True)
            return
        self.bar.set_postfix(metrics, refresh=False)
        self.bar.write(f"step {step}/{self.last_step}  " + _format(metrics))

    def end(self, session):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
