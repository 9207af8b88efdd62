"""TensorBoard scalars of `ringflow train` (--logdir): every metrics report, through tg.summary.FileWriter."""
from ...summary.scalar_writer import ScalarWriter
from ...train.session_run_hook import SessionRunHook


class ScalarSummaryHook(SessionRunHook):
    """Writes each report (it is a reporter of MetricsHook and FinalMetricsHook) as scalars "train/<name>",
    and the final metrics as "final/<name>", to event files in logdir. Give it to the chief only; list it
    after FinalMetricsHook, since its end() closes the file."""

    def __init__(self, logdir):
        self.logdir, self.writer = logdir, None

    def begin(self):
        self.writer = ScalarWriter(self.logdir)

    def report(self, step, metrics, final=False):
        self.writer.scalars(step, metrics, "final/" if final else "train/")

    def end(self, session):
        self.writer.close()
