"""TensorBoard of `ringflow train` (--logdir): each metrics report, on disk as soon as it is made.

One event file per run that trains, through tg.summary.FileWriter: the graph once, TF1's SessionLog START, then
at every report the scalars "train/<metric>", "global_step/sec" (TF1's StepCounterHook name), "examples/sec"
and "allreduce_fraction", flushed at once so a TensorBoard watching the logdir shows the run live; at the end
the final metrics as one text summary (TensorBoard's Text tab: a markdown table).
"""
import numpy as np

from ...framework.graph import get_default_graph
from ...framework.tensor_util import make_tensor_proto
from ...summary.protos import SessionLog, Summary, SummaryMetadata
from ...summary.writer import FileWriter
from ...train.session_run_hook import SessionRunHook
from ...train.training_util import get_global_step

FINAL_TAG = "final_metrics"


def final_table(step, metrics):
    """The final metrics as markdown: one row per metric."""
    rows = "".join(f"| {name} | {value:.6g} |\n" for name, value in metrics.items())
    return f"Over the whole training set after step {step}:\n\n| metric | value |\n|---|---|\n{rows}"


def text_summary(tag, markdown):
    """A Summary of one string for TensorBoard's text plugin (what tg.summary.text's op writes)."""
    plugin = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="text"))
    return Summary(value=[Summary.Value(tag=tag, metadata=plugin,
                                        tensor=make_tensor_proto(np.array(markdown, dtype=object)))])


class ScalarSummaryHook(SessionRunHook):
    """Writes each report (it is a reporter of MetricsHook and FinalMetricsHook) to an event file in `logdir`,
    with the rates of `timing` (a TimingHook) when given. Give it to the chief only; list it after
    FinalMetricsHook, since its end() closes the file.

    The file is opened at the first report of a step this run trained, so a run with nothing to do (resumed
    at its last step) writes nothing. Its SessionLog START is at the first step this run trains: TensorBoard
    then drops the points an earlier run wrote from that step on (a run that crashed after its last
    checkpoint, whose steps are trained again), as it does after TF1's restarts.
    """

    def __init__(self, logdir, timing=None):
        self.logdir, self.timing, self.writer = logdir, timing, None

    def begin(self):
        self._global_step, self._graph = get_global_step(), get_default_graph()

    def after_create_session(self, session, coord):
        self._start = self._reported = int(session.run(self._global_step))

    def report(self, step, metrics, final=False):
        if step <= self._start:
            return  # no step ran here: these points are the earlier run's
        writer = self._open()
        if final:
            writer.add_summary(text_summary(FINAL_TAG, final_table(step, metrics)), step)
        else:
            values = {f"train/{name}": value for name, value in metrics.items()}
            if self.timing is not None:
                values.update(self.timing.rates(step - self._reported))
            self._reported = step
            writer.add_summary(Summary(value=[Summary.Value(tag=tag, simple_value=float(value))
                                              for tag, value in values.items()]), step)
        writer.flush()

    def _open(self):
        if self.writer is None:
            self.writer = FileWriter(self.logdir, graph=self._graph)
            self.writer.add_session_log(SessionLog(status=SessionLog.START), self._start + 1)
        return self.writer

    def end(self, session):
        if self.writer is not None:
            self.writer.close()
