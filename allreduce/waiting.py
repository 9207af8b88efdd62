"""How a rank waits for the others: with a deadline, without burning a core, and, when the deadline passes,
finding out which ranks are really late.

A wait first polls (latency), then yields the core for a short while (on an oversubscribed node the rank we
wait for may need it), then sleeps ever longer: a rank waiting minutes for a stalled peer costs about 1% of a core.

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
# After the caller's spins, yield the core for up to 0.2 s, then sleep from 50 us doubling to 1 ms (a longer
# wait wakes ~1000 times a second, ~1% of a core). Yielding keeps calling into MPI: over TCP (UCX) a message
# only moves while its ranks call MPI, and a 2 ms window made rings across 1 Gbit links run at half the link
# rate for 4 MiB messages (0.5x), against 0.96x with 0.2 s (scripts/bench_cluster.py).
YIELD_S, NAP_MIN_S, NAP_MAX_S = 0.2, 50e-6, 0.001
TAG_ROLL = 23  # beside rd's 17 and the ring's 21/22 on the communicator's private comm
ROLL_POLL_S = 0.01


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


def patiently(ready, spins, timeout, watch=None):
    """Poll ready() until it returns true (then True) or timeout seconds pass (then False). After the spins,
    watch() (if given) is called between polls: it raises when the wait can never end (a rank has left)."""
    for _ in range(spins):
        if ready():
            return True
    now = time.monotonic()
    deadline, yield_until, nap = now + timeout, now + YIELD_S, NAP_MIN_S
    while not ready():
        now = time.monotonic()
        if now > deadline:
            return False
        if watch is not None:
            watch()
        if now < yield_until:
            os.sched_yield()
        else:
            time.sleep(nap)
            nap = min(2 * nap, NAP_MAX_S)
    return True


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
