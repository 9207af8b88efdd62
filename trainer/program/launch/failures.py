"""Why a job failed, read from its output: which rank (and so which host) is to blame, and how.

The sources, strongest first: the first rank that rank_start.py saw end by a signal, or a launcher's report of a
rank killed by a signal (Hydra's BAD TERMINATION block names a pid, Open MPI and srun name the rank); ringflow's
own lines about a rank the others timed out waiting for, or that ended its program early; ringflow's "error on
rank R" lines; the first rank that exited with an error code. SIGTERM, SIGINT and SIGHUP come last: launchers send
them while cleaning up after the real failure. Among equals, rank_start.py's report comes first: a rank reports its
end before the launcher starts to clean up.
"""
import re
import signal
from typing import NamedTuple, Optional

CLEANUP_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
# (pattern, kind, strength): a lower strength wins; groups are read by name
PATTERNS = [
    (r"noticed that process rank (?P<rank>\d+) with PID (?P<pid>\d+) on node (?P<host>\S+) exited on signal "
     r"(?P<signal>\d+)", "killed", 0),  # Open MPI's mpirun, prterun
    (r"^srun: error: (?P<host>\S+): tasks? (?P<rank>\d+)[-,\d]*: Killed", "killed", 0),
    (r"^ringflow: error on rank \d+.*?: (?:CollectiveTimeout|RankExited): .*?waiting for ranks? (?P<rank>\d+)",
     "stalled", 1),
    (r"^ringflow: error on rank \d+.*?rank (?P<rank>\d+) ended its program after", "ended", 1),
    (r"^ringflow: error on rank (?P<rank>\d+)(?: \(thread [^)]*\))?: (?P<detail>.*)", "error", 2),
    (r"^srun: error: (?P<host>\S+): tasks? (?P<rank>\d+)[-,\d]*: Exited with exit code (?P<code>\d+)", "exit", 3),
]
HYDRA_PID = re.compile(r"^=\s+PID (?P<pid>\d+) RUNNING AT (?P<host>\S+)")
HYDRA_CODE = re.compile(r"^=\s+EXIT CODE: (?P<code>\d+)")
OPENMPI_RANK = re.compile(r"Process name:\s+\[\[\d+,\d+\],(?P<rank>\d+)\]")
OPENMPI_CODE = re.compile(r"Exit code:\s+(?P<code>\d+)")


class Failure(NamedTuple):
    kind: str  # killed, stalled, ended, error, exit, or unknown
    rank: Optional[int] = None
    host: Optional[str] = None
    pid: Optional[int] = None
    signal: Optional[int] = None
    code: Optional[int] = None
    detail: str = ""
    strength: int = 9

    def describe(self):
        who = f"rank {self.rank}" if self.rank is not None else "a rank"
        where = ", ".join(x for x in (f"pid {self.pid}" if self.pid else "", f"on {self.host}" if self.host else "")
                          if x)
        who += f" ({where})" if where else ""
        return {
            "killed": lambda: f"{who} was killed by signal {self.signal} ({_signame(self.signal)})",
            "stalled": lambda: f"{who} stopped answering: the other ranks timed out waiting for it (a hung process "
                               "or a lost link)",
            "ended": lambda: f"{who} ended its program before the others",
            "error": lambda: f"{who} failed: {self.detail}",
            "exit": lambda: f"{who} exited with code {self.code}",
            "unknown": lambda: f"the job exited with code {self.code}",
        }[self.kind]()

    def signature(self):
        """What makes two failures "the same way": not the rank (every rank may fail alike, in any order),
        pids, hosts or times."""
        return self.kind, self.signal, self.code, self.detail


def _signame(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown signal"


def diagnose(lines, ranks, code, placed=None, exits=()):
    """The Failure to blame for a job that ended with `code`, from its output `lines`; `ranks` maps rank ->
    rank_start record (pid, host), `exits` are rank_start's reports in order, `placed` is each rank's host in
    the host list (None: use the records)."""
    found = [_first_exit(exits), _launcher_report(lines, ranks)]
    for line in lines:
        for pattern, kind, strength in PATTERNS:
            m = re.search(pattern, line)
            if m:
                found.append(_failure(kind, strength, m.groupdict()))
                break
    found = [f for f in found if f is not None]
    if not found:
        return Failure("unknown", code=code)
    best = min(found, key=lambda f: f.strength + (5 if f.kind == "killed" and f.signal in CLEANUP_SIGNALS else 0))
    return _with_host(best, ranks, placed)


def _failure(kind, strength, groups):
    ints = {k: int(v) for k, v in groups.items() if k in ("rank", "pid", "signal", "code") and v is not None}
    return Failure(kind, host=groups.get("host"), detail=groups.get("detail", "") or "", strength=strength, **ints)


def _first_exit(exits):
    for end in exits:
        if end.signal:
            return Failure("killed", end.rank, signal=end.signal, strength=0)
        if end.code:
            return Failure("exit", end.rank, code=end.code, strength=3)
    return None


def _launcher_report(lines, ranks):
    """Hydra's BAD TERMINATION block (a pid, mapped to its rank) or Open MPI's first non-zero exit."""
    by_pid = {pid: rank for rank, record in ranks.items() for pid in (record.pid, record.wrapper)}
    for i, line in enumerate(lines):
        m = HYDRA_PID.match(line)
        if m:
            code = next((int(c.group("code")) for c in map(HYDRA_CODE.match, lines[i + 1:i + 3]) if c), None)
            pid = int(m.group("pid"))  # Hydra reports only deaths by a signal, as EXIT CODE: <signal number>
            return Failure("killed", by_pid.get(pid), m.group("host"), pid, signal=code, strength=0)
        m = OPENMPI_RANK.search(line)
        if m:
            code = next((int(c.group("code")) for c in map(OPENMPI_CODE.search, lines[i + 1:i + 3]) if c), None)
            return Failure("exit", int(m.group("rank")), code=code, strength=3)
    return None


def _with_host(failure, ranks, placed):
    if failure.rank is None:
        return failure
    record = ranks.get(failure.rank)
    host = (placed[failure.rank] if placed and failure.rank < len(placed) else None) or failure.host or (
        record.host if record else None)
    return failure._replace(host=host, pid=record.pid if record else failure.pid or None)  # the program's pid
