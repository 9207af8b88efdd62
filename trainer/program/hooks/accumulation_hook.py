"""--accumulate K: each step is K backward passes on this rank's share of a K-times larger global batch.

The optimizer (DistributedOptimizer(backward_passes_per_step=K)) sums the passes and allreduces once, on the
K-th. The loop's own run is that K-th pass; this hook runs the K - 1 before it from its before_run, so the
hooks listed before it (timing, timeline) see the whole step, and the metrics of every pass are counted.
"""
import numpy as np

from ...train.session_run_hook import SessionRunHook


def pass_sizes(rows, passes):
    """Rows of each pass when `rows` are split into `passes` as evenly as possible (the first ones larger)."""
    base, extra = divmod(rows, passes)
    return [base + (k < extra) for k in range(passes)]


class MicroBatches(SessionRunHook):
    """The loop's batches: next() takes this rank's share of the next global batch from `pipeline`, keeps its
    first `passes` - 1 slices for before_run, which runs `train_op` on each (fetching `metrics` for `meter`, a
    MetricMeter, or a MetricsHook's add) with `feed(x, y)`, and returns the last slice for the loop's run."""

    def __init__(self, pipeline, passes, train_op=None, feed=None, metrics=None, add_metrics=None):
        self.pipeline, self.passes = pipeline, passes
        self.train_op, self.feed, self.metrics, self.add_metrics = train_op, feed, metrics, add_metrics
        self.pending = []

    def next(self):
        """The arrays of the loop's run (the last pass of the step)."""
        arrays = self.pipeline.next_batch()
        if self.passes == 1:
            return arrays
        bounds = np.cumsum([0] + pass_sizes(len(arrays[0]), self.passes))
        pieces = [tuple(a[lo:hi] for a in arrays) for lo, hi in zip(bounds[:-1], bounds[1:])]
        self.pending = pieces[:-1]
        return pieces[-1]

    def before_run(self, run_context):
        pending, self.pending = self.pending, []
        for piece in pending:
            _, values = run_context.session.run([self.train_op, self.metrics], self.feed(*piece))
            if self.add_metrics is not None:
                self.add_metrics(values, len(piece[0]))
