"""A rank killed by a signal is named, even under a plain `mpiexec` that names nobody.

Under MPICH's Hydra, when a rank is SIGKILLed the launcher SIGKILLs every other rank's process group within a few
milliseconds, and its report names the pid of the first process it reaped: often a survivor. Measured with the
mpich wheel's Hydra 5: the survivors get no SIGTERM and no grace period, and a watcher thread inside a survivor
(pidfd, blocking wait) printed before being killed in 3 of 10 runs on an idle machine, 0 of 4 on a busy one.
Hydra's proxy reaps with wait4(WNOHANG) whenever one of its file descriptors wakes it, and the dead rank's stdout,
stderr and PMI socket ($PMI_FD) closing are what wake it: while another process holds copies of those three, Hydra
does not notice the death (until other output wakes it).

So when the first communicator spanning MPI.COMM_WORLD is created, the ranks of each node with more than one rank
exchange (rank, pid, host) (watch(): one allgather over the node's shared-memory communicator), and the node's
lowest rank starts one sentinel, this file run as `python -I sentinel.py` (standard library only) in a session of
its own, out of reach of Hydra's process-group kill. Each rank hands it copies of its stdout, stderr and PMI socket
(SCM_RIGHTS over a node-local socket, which stays open as the rank's channel) and waits until it has them. The
sentinel waits, without spinning, for any of its ranks to end: one blocking poll over a pidfd per rank (a look
every POLL_S where os.pidfd_open is missing: Python < 3.9, Linux < 5.3). A rank that ends after saying so
(leaving(): departure.py at a normal exit, abort.py before an abort, which prints its own reason) is let go. A
rank that ends without a word was killed: if it died alone (SETTLE_S), the sentinel writes, to that rank's stderr,

    ringflow: rank 1 (pid 12345 on host h) died from a signal; the job is ending

and only then lets go of the rank's descriptors: Hydra forwards the line, reaps the rank and tears the job down.
One sentinel per node, one line from it: the ends that follow are the clean-up's. Under launchers that notice a
death another way (Open MPI, srun) the sentinel is not waited for, and prints if it is fast enough. A rank that
ends by os._exit() without leaving() is reported as killed: the one case the sentinel cannot tell apart.
"""
import os
import select
import socket
import stat
import subprocess
import sys
import time

POLL_S = 0.1  # without pidfds: how often the sentinel looks whether its ranks are alive
# A launcher's clean-up kills a node's ranks microseconds apart, while a rank that died alone leaves the others
# alive; but any output of theirs wakes Hydra, which then reaps the dead rank and kills them: keep it short
SETTLE_S = 0.01
LINE = "ringflow: rank {rank} (pid {pid} on host {host}) died from a signal; the job is ending"
BYE, ABORT, READY = b"bye", b"abort", b"ready"
READY_S = 10.0  # how long a rank waits for its sentinel to take its PMI socket: a Python start-up, on a busy node

_channel = None  # this rank's connection to its node's sentinel
_watched = []  # once per process; the node's lowest rank keeps its sentinel's Popen here


def watch(node, rank):
    """Set up the sentinel of this node (collective over `node`, the node's shared-memory communicator; `rank`
    is this process's rank in MPI.COMM_WORLD). Does nothing on a node of one rank, or after the first call."""
    global _channel
    if _watched or node.Get_size() < 2:
        return
    _watched.append(None)
    peers = node.allgather((rank, os.getpid(), socket.gethostname()))
    address = _start(peers) if node.Get_rank() == 0 else None
    address = node.bcast(address, root=0)
    if address is None:
        return
    try:
        _channel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        _channel.connect(address)
        pmi = _pmi_socket()
        socket.send_fds(_channel, [str(rank).encode()], [1, 2] + ([] if pmi is None else [pmi]))
        _channel.settimeout(READY_S)
        if _channel.recv(len(READY)) != READY:  # until it answers, a death of this rank would go unseen
            raise OSError("the sentinel did not answer")
        _channel.settimeout(None)
    except OSError:
        if _channel is not None:
            _channel.close()
        _channel = None  # the sentinel is a courtesy: the job runs as it would without one


def leaving(kind=BYE):
    """Tell the sentinel that this rank ends on purpose (BYE: its program ended; ABORT: it reports its own error):
    its end is not a death to report."""
    if _channel is not None:
        try:
            _channel.send(kind)
        except OSError:
            pass


def _start(peers):
    """Start this node's sentinel for `peers` [(rank, pid, host)]; returns the address it listens on, or None."""
    address = f"\0ringflow-sentinel-{os.getpid()}-{os.urandom(4).hex()}"  # abstract: nothing left on disk
    try:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        listener.bind(address)
        listener.listen(len(peers))
        ranks = ",".join(f"{rank}:{pid}" for rank, pid, _ in peers)
        argv = [sys.executable, "-I", os.path.abspath(__file__), str(listener.fileno()), ranks, peers[0][2]]
        _watched[0] = subprocess.Popen(argv, pass_fds=[listener.fileno()], start_new_session=True,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        listener.close()
    except OSError:
        return None
    return address


def _pmi_socket():
    try:
        fd = int(os.environ.get("PMI_FD", ""))
        return fd if stat.S_ISSOCK(os.fstat(fd).st_mode) else None
    except (ValueError, OSError):
        return None


class Rank:
    """One rank the sentinel watches: its pid, its pidfd (None: polled), and its stdout, stderr and PMI socket
    (`held`, once it sent them)."""

    def __init__(self, rank, pid):
        self.rank, self.pid, self.held, self.leaving = rank, pid, [], False
        try:
            self.pidfd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.pidfd = None

    def alive(self):
        if self.pidfd is not None:
            return not select.select([self.pidfd], [], [], 0)[0]
        try:
            os.kill(self.pid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True

    def release(self):
        for fd in self.held + ([self.pidfd] if self.pidfd is not None else []):
            os.close(fd)
        self.held, self.pidfd = [], None


def sentinel(listener, ranks, host):
    """The sentinel's loop: watch `ranks` ({pid: Rank}) until every one has ended; returns the lines printed,
    each to the dead rank's own stderr."""
    poller, channels, printed, ending = select.poll(), {}, [], False
    poller.register(listener, select.POLLIN)
    for r in ranks.values():
        if r.pidfd is not None:
            poller.register(r.pidfd, select.POLLIN)
    by_rank = {r.rank: r for r in ranks.values()}
    while ranks:
        polled = any(r.pidfd is None for r in ranks.values())
        poller.poll(POLL_S * 1000 if polled else None)
        while select.select([listener], [], [], 0)[0]:  # messages before deaths: a rank's last word comes first
            conn, _ = listener.accept()
            channels[conn.fileno()] = [conn, None]
            poller.register(conn, select.POLLIN)
        for fd, (conn, whose) in list(channels.items()):
            while select.select([conn], [], [], 0)[0]:
                message, fds, _, _ = socket.recv_fds(conn, 64, 4)
                if not message:
                    poller.unregister(conn)
                    conn.close()
                    del channels[fd]
                    break
                if whose is None:
                    whose = channels[fd][1] = by_rank.get(int(message.decode()))
                    whose.held += fds
                    try:
                        conn.send(READY)
                    except OSError:  # it died already: the poll below finds out
                        pass
                else:
                    whose.leaving = True
                    ending = ending or message == ABORT
        for r in [r for r in ranks.values() if not r.alive()]:
            if not (r.leaving or ending):
                ending = True
                if r.held and _alone(r, ranks):
                    printed.append(LINE.format(rank=r.rank, pid=r.pid, host=host))
                    try:
                        os.write(r.held[1], printed[-1].encode() + b"\n")
                    except OSError:
                        pass
            if r.pidfd is not None:
                poller.unregister(r.pidfd)
            r.release()  # Hydra may go on now
            del ranks[r.pid]
    return printed


def _alone(dead, ranks):
    """Whether `dead` died while another rank of the node lived on for SETTLE_S."""
    time.sleep(SETTLE_S)
    return any(r.alive() for r in ranks.values() if r is not dead)


def main(argv):
    listener = socket.socket(fileno=int(argv[0]))
    ranks = {}
    for pair in argv[1].split(","):
        rank, pid = map(int, pair.split(":"))
        ranks[pid] = Rank(rank, pid)
    sentinel(listener, ranks, argv[2])
    listener.close()


if __name__ == "__main__":
    main(sys.argv[1:])
