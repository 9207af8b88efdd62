"""How a rank waits for the others: with a deadline, without burning a core, and, when the deadline passes,
finding out which ranks are really late.

With a core per rank, a wait first polls (latency), then yields the core for a while (still calling into MPI,
which moves messages over TCP only while their ranks call it), then naps. With more ranks than cores ("crowded")
it naps at once: a rank that polls or yields stays runnable, so the scheduler keeps counting it against its core,
and the rank it waits for may be queued behind it. The same holds while other programs keep every core busy
("busy": more runnable threads than cores besides the waiter), so a wait that finds the machine so then naps at
once too, whatever the ranks' own count. Each nap lasts NAP_SHARE of the time waited so far (at least
NAP_MIN_S, at most the mode's cap), so a wait ends at most about 3% late, and a rank waiting seconds for a
stalled peer costs 1-3% of a core.

On a timeout the rank only knows the partner it was waiting on, who may itself be waiting on someone else (in
recursive doubling rank 0 waits on rank 1, which waits on rank 2). So every rank that gives up tells every
other rank so (a message on the communicator, TAG_ROLL), and listens for the same from them for a grace period:
the ranks that did not answer are the late ones.
"""
import math
import os
import time

from .env import env_number

DEFAULT_TIMEOUT_S = 300.0
ENV = "RINGFLOW_TIMEOUT"
# With a core per rank, after the caller's spins, yield the core for up to 0.2 s, then nap up to 1 ms (a longer
# wait wakes ~1000 times a second, 2-3% of a core). Yielding keeps calling into MPI: over TCP (UCX) a message
# only moves while its ranks call MPI, and a 2 ms window made rings across 1 Gbit links run at half the link
# rate for 4 MiB messages (0.5x), against 0.96x with 0.2 s (scripts/bench_cluster.py).
YIELD_S, NAP_MAX_S = 0.2, 0.001
# Crowded: no yielding (4 ranks on 2 cores, 1 MiB ring: 1.35-1.49x MPI_Allreduce's time yielding for 0.2 s,
# 1.5x yielding for 0.5 ms, 0.6-0.9x napping at once; scripts/bench_allreduce.py), and naps up to 5 ms: a 2 s wait
# then costs ~1% of a core (2 ms: 1.5%, 1 ms: 2.5%), while a 64 MiB MPI_Iallreduce, whose schedule advances only
# inside our MPI calls, stays as fast as before (10 ms naps, a tenth of the time waited: 10-20% slower).
CROWDED_NAP_MAX_S = 0.005
# The shortest nap: time.sleep adds the kernel's 50 us timer slack, so a nap is ~0.1 ms, a few context switches.
NAP_MIN_S = 50e-6
NAP_SHARE = 0.03  # a nap lasts this share of the time waited so far: the wait ends at most ~3% late
TAG_ROLL = 23  # beside rd's 17 and the ring's 21/22 on the communicator's private comm
ROLL_POLL_S = 0.01
# How often a wait looks at the machine's runnable count (/proc/loadavg, ~20 us to read): a step of a small model
# waits once or twice in 10-50 ms, so the look costs well under 1 % of it.
BUSY_CHECK_S = 0.1
_busy = {"until": 0.0, "value": False}


def resolve_timeout(timeout):
    """Seconds a collective may wait: timeout, else $RINGFLOW_TIMEOUT, else 300; a positive finite number."""
    if timeout is None:
        return env_number(ENV, DEFAULT_TIMEOUT_S, float, minimum=0, strict=True, unit="seconds")
    try:
        value = None if isinstance(timeout, bool) else float(timeout)
    except (TypeError, ValueError):
        value = None
    if value is None or not 0 < value < math.inf:
        raise ValueError(f"timeout must be a positive, finite number of seconds, got {timeout!r}: "
                         f"pass e.g. timeout=600, or timeout=None for ${ENV} or {DEFAULT_TIMEOUT_S:g} s")
    return value


def patiently(ready, spins, timeout, watch=None, crowded=False, yield_s=YIELD_S):
    """Poll ready() until it returns true (then True) or timeout seconds pass (then False; math.inf: never).
    After the spins, watch() (if given) is called between polls: it raises when the wait can never end (a rank
    has left). crowded: this node has more ranks than cores (the communicator's `oversubscribed`): nap at once, as
    a wait also does while other programs fill the cores (machine_busy()).
    yield_s: how long to yield before napping, for a waiter whose partners answer on another time scale."""
    for _ in range(spins):
        if ready():
            return True
    start = time.monotonic()
    deadline = start + timeout
    yield_until, nap_max = (start, CROWDED_NAP_MAX_S) if crowded else (start + yield_s, NAP_MAX_S)
    if not crowded and machine_busy(start):  # yielding would take turns from work that has none to spare
        yield_until = start
    while not ready():
        now = time.monotonic()
        if now > deadline:
            return False
        if watch is not None:
            watch()
        if now < yield_until:
            os.sched_yield()
        else:
            time.sleep(min(max(NAP_MIN_S, NAP_SHARE * (now - start)), nap_max, max(deadline - now, 0)))
    return True


def machine_busy(now=None):
    """Whether, besides this thread, there are at least as many runnable threads as the machine has cores (Linux's
    /proc/loadavg, machine-wide as the core count is; read at most every BUSY_CHECK_S; False where unreadable)."""
    now = time.monotonic() if now is None else now
    if now >= _busy["until"]:
        try:
            with open("/proc/loadavg") as f:
                running = int(f.read().split()[3].split("/")[0])
            _busy["value"] = running - 1 >= (os.cpu_count() or 1)
        except (OSError, ValueError, IndexError):
            _busy["value"] = False
        _busy["until"] = now + BUSY_CHECK_S
    return _busy["value"]


def roll_call(comm, report, grace):
    """Send report (what we gave up on) to every other rank of comm, and return {rank: report} of those that
    sent theirs within grace seconds. The sends are returned too: they must outlive this call."""
    from mpi4py import MPI  # here: early_abort.py reads DEFAULT_TIMEOUT_S before MPI may start
    rank, size = comm.Get_rank(), comm.Get_size()
    sends = [comm.isend(report, dest=q, tag=TAG_ROLL) for q in range(size) if q != rank]
    answers, status = {}, MPI.Status()

    def everyone_answered():
        while comm.iprobe(source=MPI.ANY_SOURCE, tag=TAG_ROLL, status=status):
            answers[status.Get_source()] = comm.recv(source=status.Get_source(), tag=TAG_ROLL)
        return len(answers) == size - 1

    deadline = time.monotonic() + grace
    while not everyone_answered() and time.monotonic() < deadline:
        time.sleep(ROLL_POLL_S)
    return answers, sends


def grace_for(timeout):
    """How long to listen for the other ranks' reports: they gave up at about the same time, give or take how
    late each entered the collective (1 s, a tenth of the timeout for long ones, at most 10 s)."""
    return min(timeout, max(1.0, timeout / 10), 10.0)


def ranks_text(ranks):
    ranks = list(ranks)
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    return "ranks " + ", ".join(map(str, ranks[:-1])) + f" and {ranks[-1]}"
