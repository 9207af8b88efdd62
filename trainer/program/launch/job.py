"""One launch of the job: start the launcher, pass its output through as it comes (progress bars included), take
out rank_start.py's `@ringflow-rank` and `@ringflow-exit` lines, and keep what a diagnosis needs: which pid and host
each rank has, how ranks ended, in order, and the last lines of each stream.

SIGINT, SIGTERM and SIGHUP sent to `ringflow run` go on to the launcher, which passes them to the ranks (ringflow train
then stops after a step and checkpoints); the job is then not restarted.
"""
import collections
import os
import re
import signal
import subprocess
import sys
import threading
import time
from typing import NamedTuple

from .rank_start import EXIT_MARKER, MARKER

TAIL_LINES = 2000  # per stream: the failure reports of every rank and the launcher fit, a long log does not
CHUNK = 65536
PASSED_ON = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
DRAIN_S = 10  # after the launcher exits: a rank it left behind may hold the pipes open, so stop reading then
_PREFIX = b"@ringflow-"  # what both markers start with
_MARKERS = re.compile(re.escape(MARKER.encode()) + rb" (\d+) (\d+) (\d+) (\S+)\n|"
                      + re.escape(EXIT_MARKER.encode()) + rb" (\d+) (signal|code) (-?\d+)\n")
MARKER_MAX = 320  # "@ringflow-rank RANK PID PID HOST\n" is the longest: host names are at most 255 bytes


class RankRecord(NamedTuple):
    pid: int  # the program's
    host: str
    wrapper: int = 0  # rank_start.py's pid, which the launcher knows


class RankExit(NamedTuple):
    rank: int
    signal: int  # 0: it exited with `code`
    code: int


class Outcome(NamedTuple):
    code: int
    seconds: float
    ranks: dict  # rank -> RankRecord
    exits: list  # RankExit, in the order they came
    lines: list  # the last lines of stdout, then of stderr
    signalled: int  # the signal `ringflow run` got and passed on (0: none)


class Stream:
    """Forwards one output stream chunk by chunk, minus the marker lines, keeping its last lines."""

    def __init__(self, source, sink, ranks, exits):
        self.source, self.sink, self.ranks, self.exits = source, sink, ranks, exits
        self.tail = collections.deque(maxlen=TAIL_LINES)
        self.pending = b""  # the end of the last chunk, which may be the start of a marker
        self.partial = b""  # the current line, for the tail

    def pump(self):
        while True:
            chunk = os.read(self.source.fileno(), CHUNK)
            if not chunk:
                break
            self.feed(chunk)
        self.write(self.pending)
        self.keep(self.pending + b"\n" if self.partial or self.pending else b"")
        self.pending = b""

    def feed(self, chunk):
        """Markers may sit anywhere: the launcher interleaves the ranks' output, a progress bar has no newline."""
        data, out, done = self.pending + chunk, [], 0
        for m in _MARKERS.finditer(data):
            out.append(data[done:m.start()])
            self.record(*m.groups())
            done = m.end()
        rest = data[done:]
        at = rest.rfind(b"@")
        maybe = rest[at:] if at >= 0 else b""
        if maybe and (_PREFIX.startswith(maybe) or (maybe.startswith(_PREFIX) and b"\n" not in maybe
                                                    and len(maybe) < MARKER_MAX)):
            rest, self.pending = rest[:at], maybe
        else:
            self.pending = b""
        out.append(rest)
        text = b"".join(out)
        self.write(text)
        self.keep(text)

    def record(self, rank, wrapper, pid, host, exited, kind, value):
        if rank is not None:
            self.ranks[int(rank)] = RankRecord(int(pid), host.decode(errors="replace"), int(wrapper))
        else:
            signum = int(value) if kind == b"signal" else 0
            self.exits.append(RankExit(int(exited), signum, 0 if signum else int(value)))

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
    ranks, exits, got = {}, [], []
    start = time.monotonic()
    # a session of its own: a Ctrl-C reaches the ranks once, through us and the launcher, not also from the terminal
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    streams = [Stream(proc.stdout, sys.stdout.buffer, ranks, exits),
               Stream(proc.stderr, sys.stderr.buffer, ranks, exits)]
    threads = [threading.Thread(target=s.pump, daemon=True) for s in streams]
    for t in threads:
        t.start()

    def pass_on(signum, frame):
        got.append(signum)
        proc.send_signal(signum)

    previous = {s: signal.signal(s, pass_on) for s in PASSED_ON}
    try:
        code = proc.wait()
        for t in threads:
            t.join(DRAIN_S)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    lines = [line for s in streams for line in s.tail]
    code = 128 - code if code < 0 else code  # killed by a signal: the shell's 128 + N
    return Outcome(code, time.monotonic() - start, dict(ranks), list(exits), lines, got[0] if got else 0)
