"""tf.test.Benchmark, which TF's kernel test files subclass beside their tests: run_op_benchmark times an op in a
session and report_benchmark prints the entry. Benchmarks are not tests, so a test run only needs the class to
exist; running one (its benchmark* methods) works as in TF, without TF's benchmark-file output."""
import time

import numpy as np

from ..client.config import ConfigProto
from ..framework.stacks import get_default_session


def benchmark_config():
    """The session config TF's benchmarks run with (the default one here: ringflow has no graph rewrites)."""
    return ConfigProto()


class Benchmark:
    """Base class of TF-style benchmarks: subclass it and write benchmark* methods."""

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None,
                         name=None, metrics=None):
        """Print one benchmark entry (TF writes it to its benchmark log instead)."""
        entry = {key: value for key, value in (("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                                               ("throughput", throughput), ("extras", extras),
                                               ("metrics", metrics)) if value is not None}
        print(f"entry {{ name: {name or type(self).__name__!r} {entry} }}")

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10, store_trace=False,
                         store_memory_usage=True, name=None, extras=None, mbs=0):
        """Run op_or_tensor burn_iters times, then min_iters times timed; report and return the median wall time
        ({"wall_time": seconds, "iters": min_iters, "extras": extras}) as TF does."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        times = []
        for _ in range(min_iters):
            start = time.perf_counter()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            times.append(time.perf_counter() - start)
        wall_time = float(np.median(times))
        throughput = mbs / wall_time if mbs and wall_time else None
        self.report_benchmark(iters=min_iters, wall_time=wall_time, throughput=throughput, extras=extras, name=name)
        return {"wall_time": wall_time, "iters": min_iters, "extras": extras or {}}

    def evaluate(self, tensors):
        """The values of tensors in the default session, as TF's Benchmark offers."""
        sess = get_default_session()
        if sess is None:
            raise ValueError("Benchmark.evaluate runs in the default session, and there is none: call it inside "
                             "`with tg.Session() as sess, sess.as_default():`")
        return sess.run(tensors)
