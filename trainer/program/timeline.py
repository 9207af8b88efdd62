"""Chrome-trace timeline (chrome://tracing, ui.perfetto.dev): every rank's steps split into compute and allreduce.

Each rank records its spans against its own clock, zeroed at a barrier before the first step; at the end the
spans are gathered to rank 0, which writes one JSON file for the run with one trace process per rank.
`ringflow train --timeline` records through trainer.program.hooks.timeline_hook.TimelineHook.
"""
import json
import time

import numpy as np

from ..platform.atomic_file import atomic_write

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
            json.dump({"traceEvents": trace_events(per_rank), "displayTimeUnit": "ms"}, f)


def trace_events(per_rank):
    """Complete ('X') events: allreduce spans as recorded, compute = the rest of each step."""
    events = []
    for rank, spans in enumerate(per_rank):
        events.append({"name": "process_name", "ph": "M", "pid": rank, "args": {"name": f"rank {rank}"}})
        steps = spans[spans[:, 0] == KINDS.index("step")]
        comms = spans[spans[:, 0] == KINDS.index("allreduce")]
        for _, start, end, step in steps:
            inside = comms[(comms[:, 1] >= start) & (comms[:, 2] <= end)]
            cursor = start
            for _, c_start, c_end, _ in inside:
                events.append(_span("compute", cursor, c_start, rank, step))
                events.append(_span("allreduce", c_start, c_end, rank, step))
                cursor = c_end
            events.append(_span("compute", cursor, end, rank, step))
    return events


def _span(name, start, end, rank, step):
    return {"name": name, "cat": name, "ph": "X", "pid": rank, "tid": 0, "ts": float(start * 1e6),
            "dur": float(max(end - start, 0.0) * 1e6), "args": {"step": int(step)}}
