"""Chrome-trace timeline (chrome://tracing, ui.perfetto.dev): every rank's steps split into compute and allreduce.

Each rank records its spans against its own clock, zeroed at a barrier before the first step; at the end the
spans are gathered to rank 0, which writes one JSON file for the run with one trace process per rank.
`ringflow train --timeline` records through trainer.program.hooks.timeline_hook.TimelineHook.
"""
import time

import numpy as np

from ..platform.atomic_file import atomic_write
from ..python.client.timeline import ChromeTrace

KINDS = ("step", "allreduce")


class Timeline:
    def __init__(self):
        self.t0 = time.perf_counter()
        self.spans = []  # (kind index, start s, end s, step)

    def start(self):
        """Zero the clock; call right after a barrier so ranks line up."""
        self.t0 = time.perf_counter()
        self.spans.clear()

    def record(self, kind, start, end, step):
        self.spans.append((KINDS.index(kind), start - self.t0, end - self.t0, step))

    def gather(self, communicator):
        """Every rank's spans as a list indexed by rank (collective)."""
        mine = np.array(self.spans, dtype=np.float64).reshape(-1, 4)
        if communicator.size == 1:
            return [mine]
        return communicator.allgatherv_list(mine)

    def write(self, path, per_rank):
        """The Chrome-trace JSON of gathered spans."""
        with atomic_write(path) as f:
            f.write(chrome_trace(per_rank).format_to_string(displayTimeUnit="ms"))


def trace_events(per_rank):
    """The trace's events: each rank's name, then complete ('X') events."""
    trace = chrome_trace(per_rank)
    return trace.metadata + trace.events


def chrome_trace(per_rank):
    """One trace process per rank: allreduce spans as recorded, compute = the rest of each step."""
    trace = ChromeTrace()
    for rank, spans in enumerate(per_rank):
        trace.process(rank, f"rank {rank}")
        steps = spans[spans[:, 0] == KINDS.index("step")]
        comms = spans[spans[:, 0] == KINDS.index("allreduce")]
        for _, start, end, step in steps:
            inside = comms[(comms[:, 1] >= start) & (comms[:, 2] <= end)]
            cursor = start
            for _, c_start, c_end, _ in inside:
                _span(trace, "compute", cursor, c_start, rank, step)
                _span(trace, "allreduce", c_start, c_end, rank, step)
                cursor = c_end
            _span(trace, "compute", cursor, end, rank, step)
    return trace


def _span(trace, name, start, end, rank, step):
    trace.event("X", name, name, rank, 0, float(start * 1e6), dur=float(max(end - start, 0.0) * 1e6),
                args={"step": int(step)})
