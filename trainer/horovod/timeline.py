"""Horovod's timeline: HOROVOD_TIMELINE=FILE (or hvd.start_timeline) records every collective as a Chrome trace.

Laid out as Horovod lays it out, for chrome://tracing or ui.perfetto.dev: one trace process per tensor (named by
the tensor, in the order first seen), and on it one span per collective ("ALLREDUCE", "ALLGATHER",
"BROADCAST": 'B' and 'E' events, the end carrying dtype and shape) holding its activities
(MEMCPY_IN_FUSION_BUFFER, RING_ALLREDUCE, MEMCPY_OUT_FUSION_BUFFER, ...: trainer/parallel/activities.py), as
the session's activity channel tells them (trainer/client/step_stats.py). Timestamps are microseconds from the start of the timeline. Only rank 0 writes, as in Horovod. The file is a
JSON array, flushed at least every second and closed with its "]" by stop_timeline(), hvd.shutdown() or the
end of the process; a file read while the job runs parses once "]" is appended.
"""
import atexit
import threading
import time

from ..client.step_stats import ACTIVITY_LISTENERS
from ..python.client.timeline import ChromeTrace

FLUSH_SECONDS = 1.0  # Horovod's TIMELINE_FLUSH_TIME: a timeline watched live lags by at most this


class Timeline:
    """An open timeline file, told of every collective by the session's activity channel."""

    def __init__(self, path, mark_cycles=False):
        self.path, self.mark_cycles = path, mark_cycles  # ringflow has no background cycles to mark
        self.file = open(path, "w")
        self.file.write("[")
        self.trace, self.rows, self.written = ChromeTrace(), {}, 0
        self.lock = threading.Lock()
        self.t0 = self.flushed = time.perf_counter()
        ACTIVITY_LISTENERS.append(self)

    def __call__(self, operation, tensors, spans, args):
        with self.lock:
            if self.file.closed:
                return
            for tensor in tensors:
                pid = self._row(tensor)
                self._event(operation, "B", pid, spans[0][1])
                for name, start, end in spans:
                    self._event(name, "B", pid, start)
                    self._event(name, "E", pid, end)
                self._event(operation, "E", pid, spans[-1][2], {k: str(v) for k, v in args.items()})
            self._write()

    def _row(self, tensor):
        if tensor not in self.rows:
            pid = self.rows[tensor] = len(self.rows) + 1
            self.trace.process(pid, tensor, sort_index=pid)
        return self.rows[tensor]

    def _event(self, name, phase, pid, when, args=None):
        fields = {"args": args} if args else {}
        self.trace.event(phase, None, name, pid, 0, round((when - self.t0) * 1e6, 3), **fields)

    def _write(self):
        for text in self.trace.drain():
            self.file.write(("\n" if not self.written else ",\n") + text)
            self.written += 1
        if time.perf_counter() - self.flushed >= FLUSH_SECONDS:
            self.file.flush()
            self.flushed = time.perf_counter()

    def close(self):
        with self.lock:
            if self in ACTIVITY_LISTENERS:
                ACTIVITY_LISTENERS.remove(self)
            if not self.file.closed:
                self.file.write("\n]\n")
                self.file.close()


_open = []  # the timeline being written, at most one


def start(path, mark_cycles=False, rank=0):
    """Start writing `path` (on rank 0 only; a timeline already open is closed first)."""
    stop()
    if rank == 0:
        _open.append(Timeline(path, mark_cycles))


def stop():
    """Close the open timeline, if any."""
    while _open:
        _open.pop().close()


atexit.register(stop)
