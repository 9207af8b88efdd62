"""The sentinel that names a rank killed on its node (allreduce/sentinel.py), on plain processes: it writes one line
to the dead rank's stderr when a rank dies while another lives, none for a rank that said it was leaving, none for
the deaths that follow the first, with a pidfd per rank or, without pidfds, by looking every POLL_S."""
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

from allreduce import sentinel

RANK = r"""
import socket, sys, time
channel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
channel.connect("\0" + sys.argv[1])  # abstract, as sentinel.py's
socket.send_fds(channel, [sys.argv[2].encode()], [1, 2])
assert channel.recv(16) == b"ready"
print("watched", flush=True)
if sys.argv[3] == "leave":
    channel.send(b"bye")
    sys.exit(0)
time.sleep(60)
"""


@pytest.fixture(params=["pidfd", "polled"])
def watched(request, monkeypatch):
    """Start three fake ranks and a sentinel (a thread here) watching them: (ranks' Popen by rank, the thread,
    the lines the sentinel printed)."""
    if request.param == "polled":
        monkeypatch.setattr(sentinel.os, "pidfd_open", lambda pid: (_ for _ in ()).throw(OSError("none")),
                            raising=False)
    address = f"\0ringflow-test-sentinel-{os.getpid()}-{os.urandom(4).hex()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(address)
    listener.listen(3)
    procs = {rank: subprocess.Popen([sys.executable, "-c", RANK, address[1:], str(rank), "leave" if rank == 2 else
                                     "stay"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for rank in range(3)}
    ranks = {p.pid: sentinel.Rank(rank, p.pid) for rank, p in procs.items()}
    printed = []
    thread = threading.Thread(target=lambda: printed.extend(sentinel.sentinel(listener, ranks, "h")), daemon=True)
    thread.start()
    assert [p.stdout.readline() for p in procs.values()] == ["watched\n"] * 3  # as watch() returns
    yield procs, thread, printed
    for p in procs.values():
        p.kill()
        p.wait()
    thread.join(10)
    listener.close()


def test_a_killed_rank_is_named_once_and_a_leaving_one_never(watched):
    procs, thread, printed = watched
    assert procs[2].wait(30) == 0  # rank 2 said it was leaving: its end is no death
    procs[1].send_signal(signal.SIGKILL)
    procs[1].wait()
    line = f"ringflow: rank 1 (pid {procs[1].pid} on host h) died from a signal; the job is ending\n"
    assert procs[1].stderr.read() == line  # the sentinel let go of the rank's stderr once it had written it
    procs[0].kill()  # the launcher's clean-up: no news
    procs[0].wait()
    thread.join(10)
    assert not thread.is_alive() and printed == [line.strip()] and procs[0].stderr.read() == ""
    assert procs[2].stderr.read() == ""


def test_ranks_killed_together_are_a_clean_up_not_a_death(watched):
    procs, thread, printed = watched
    procs[2].wait(30)
    for rank in (0, 1):  # as a launcher ending the job from another node kills a node's ranks
        procs[rank].send_signal(signal.SIGKILL)
    for rank in (0, 1):
        procs[rank].wait()
    thread.join(10)
    assert not thread.is_alive() and printed == []
