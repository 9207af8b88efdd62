"""One launch of the job: start the launcher, pass its output through as it comes (progress bars included), take
out rank_start.py's `@ringflow-rank` lines, and keep what a diagnosis needs: which pid and host each rank has, and
the last lines of each stream.

SIGINT and SIGTERM sent to `ringflow run` go on to the launcher, which passes them to the ranks (ringflow train
then stops after a step and checkpoints); the job is then not restarted.
"""
import collections
import os
import signal
import subprocess
import sys
import threading
import time
from typing import NamedTuple

from .rank_start import MARKER

TAIL_LINES = 2000  # per stream: the failure reports of every rank and the launcher fit, a long log does not
CHUNK = 65536
_MARKER = MARKER.encode() + b" "


class RankRecord(NamedTuple):
    pid: int
    host: str


class Outcome(NamedTuple):
    code: int
    seconds: float
    ranks: dict  # rank -> RankRecord
    lines: list  # the last lines of stdout, then of stderr
    signalled: int  # the signal `ringflow run` got and passed on (0: none)


class Stream:
    """Forwards one output stream chunk by chunk, minus the marker lines, keeping its last lines."""

    def __init__(self, source, sink, ranks):
        self.source, self.sink, self.ranks = source, sink, ranks
        self.tail = collections.deque(maxlen=TAIL_LINES)
        self.pending = b""  # the start of a line that may be a marker
        self.partial = b""  # the current line, for the tail
        self.mid_line = False  # the last byte forwarded was not a newline

    def pump(self):
        while True:
            chunk = os.read(self.source.fileno(), CHUNK)
            if not chunk:
                break
            self.feed(chunk)
        self.write(self.pending)
        self.keep(self.pending)
        self.pending = b""

    def feed(self, chunk):
        data, out = self.pending + chunk, []
        self.pending = b""
        *lines, rest = data.split(b"\n")
        for line in lines:
            if not self.mid_line and line.startswith(_MARKER):
                self.record(line)
            else:
                out.append(line + b"\n")
                self.keep(line + b"\n")
            self.mid_line = False
        if rest and not self.mid_line and (_MARKER.startswith(rest) or rest.startswith(_MARKER)):
            self.pending = rest
        elif rest:
            out.append(rest)
            self.keep(rest)
            self.mid_line = True
        self.write(b"".join(out))

    def record(self, line):
        words = line.decode(errors="replace").split()
        if len(words) == 4 and words[1].isdigit() and words[2].isdigit():
            self.ranks[int(words[1])] = RankRecord(int(words[2]), words[3])

    def keep(self, data):
        self.partial += data
        *lines, self.partial = self.partial.split(b"\n")
        for line in lines:
            self.tail.append(line.decode(errors="replace").rsplit("\r", 1)[-1])

    def write(self, data):
        if data:
            self.sink.write(data)
            self.sink.flush()


def run(argv, env):
    """Run the launch line to its end; an Outcome."""
    ranks, got = {}, []
    start = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    streams = [Stream(proc.stdout, sys.stdout.buffer, ranks), Stream(proc.stderr, sys.stderr.buffer, ranks)]
    threads = [threading.Thread(target=s.pump, daemon=True) for s in streams]
    for t in threads:
        t.start()

    def pass_on(signum, frame):
        got.append(signum)
        proc.send_signal(signum)

    previous = {s: signal.signal(s, pass_on) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = proc.wait()
        for t in threads:
            t.join()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    lines = [line for s in streams for line in s.tail]
    return Outcome(code, time.monotonic() - start, dict(ranks), lines, got[0] if got else 0)
