"""Exit notices (allreduce/departure.py) at the current world size: a notice that arrives while the leaver's
last data is still on its way does not fail the collective, and notices name who left after what."""
import time

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from allreduce import departure
from tests.mpi.closed_forms import expected

WORLD = MPI.COMM_WORLD
RANK, N = WORLD.rank, WORLD.size
pytestmark = pytest.mark.skipif(N == 1, reason="needs another rank to leave")
LATE_S = 0.1  # well inside departure.GRACE_S


def announce(c):
    """What the atexit handler does, for this communicator only."""
    sends = [c.comm.isend(c.position(), dest=q, tag=departure.TAG_DEPARTED) for q in range(N) if q != RANK]
    MPI.Request.Waitall(sends)


@pytest.mark.parametrize("name", ["ring", "shm", "mpi"])
@pytest.mark.parametrize("length", [7, 300_000])  # recursive doubling, and the ring's pipeline
def test_a_notice_ahead_of_the_leavers_last_data_waits_for_it(name, length):
    c = allreduce.create_communicator(name, timeout=60)
    c.allreduce(np.ones(3), what="warm-up")
    if RANK == N - 1:  # says it left, then joins late: the others hold its notice while they wait for its data
        announce(c)
        time.sleep(LATE_S)
    else:
        deadline = time.monotonic() + 5
        while not c.departures.check() and time.monotonic() < deadline:
            time.sleep(0.001)
        assert c.departures.check() == {N - 1: (1, "warm-up")}
    out = c.allreduce(np.full(length, RANK + 1, np.float64), what="last allreduce")
    np.testing.assert_array_equal(out, expected("sum", np.float64, length))


def test_position_counts_collectives_and_names_the_last():
    c = allreduce.create_communicator("ring")
    assert c.position() == (0, "creating a 'ring' communicator")
    c.allreduce(np.ones(2), what="first")
    c.barrier()
    assert c.position() == (2, "a barrier")
