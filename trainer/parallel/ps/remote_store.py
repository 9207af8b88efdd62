"""A worker's Session on a cluster target: its ps-placed variables live on the ps tasks.

Each run of a plan that touches ps variables (1) reads those it needs, one TAG_READ message per ps, into
the session's store, (2) runs the plan, where every Assign*/Apply* op on a ps variable is not run here but
queued with its input arrays, and (3) sends the queue, one TAG_UPDATE message per ps, and waits for the
acks, so the next run reads the updated values. Placement is the variable op's device "/job:ps/task:K"
(tg.train.replica_device_setter). Sessions without a cluster target never reach this module.
"""
import functools
import threading

import numpy as np

from ...framework.registry import op_def
from ...train.sync_replicas_optimizer import SYNC_REPLICAS
from . import transport

CLUSTER_TARGET_PREFIX = "mpi://"
_READ_ONLY_REF_OPS = {"IsVariableInitialized"}  # take a variable by reference but do not change it
_client = None


class Client:
    """This worker's link to the ps tasks: the ps ranks, a lock (hook threads share it), bytes sent."""

    def __init__(self, peers):
        self.peers, self.comm, self.lock, self.bytes_sent = peers, peers.comm, threading.Lock(), 0

    def ps_rank(self, device):
        task = 0
        for part in device.split("/"):
            if part.startswith("task:"):
                task = int(part[5:])
        try:
            return self.peers.rank("ps", task)
        except KeyError:
            raise ValueError(f"Device {device!r} names ps task {task}, which the ClusterSpec does not have "
                             f"(ps tasks: {self.peers.job_ranks('ps')!r} by rank)") from None

    def read(self, by_rank):
        for rank, names in by_rank.items():
            self.bytes_sent += transport.send(self.comm, names, rank, transport.TAG_READ)
        return {rank: transport.recv(self.comm, rank, transport.TAG_VALUES) for rank in by_rank}

    def update(self, by_rank):
        for rank, updates in by_rank.items():
            self.bytes_sent += transport.send(self.comm, updates, rank, transport.TAG_UPDATE)
        for rank in by_rank:
            transport.recv(self.comm, rank, transport.TAG_ACK)

    def done(self):
        """Tell every ps this worker has finished (at exit); the lock is taken and kept, never released.

        A daemon thread (a Supervisor service, a hook) may still be in a run: unlocked, TAG_DONE overtook its
        read and the process ended without receiving the answer, so the ps stayed blocked sending it and never
        answered the other workers (a hang). Kept, the lock holds any later run off the wire until the
        interpreter stops the thread, so no MPI call races MPI_Finalize.
        """
        self.lock.acquire()
        for rank in self.peers.job_ranks("ps"):
            transport.send(self.comm, None, rank, transport.TAG_DONE)


def set_client(client):
    global _client
    _client = client


def current_client():
    return _client


def cluster_plans(session):
    """The session target "mpi://...": each plan of `session` runs with its ps variables on the ps tasks
    (registered with the client's target registry in __init__.py)."""
    if _client is None:
        raise RuntimeError(f"Session target {session.target!r} is a cluster target, but this process has no "
                           "worker tg.train.Server: create tg.train.Server(cluster, job_name='worker', "
                           "task_index=...) first and pass server.target")
    return functools.partial(RemotePlan.of, session=session, client=_client)


def _on_ps(op):
    return "/job:ps" in (op.device or "")


class RemotePlan:
    """A session's plan whose ps-placed variables are read from the ps before the run, and whose updates of them
    are shipped to the ps after it (a plan without ps variables runs as it is)."""

    def __init__(self, plan, by_rank, client, store, pending):
        self.plan, self.by_rank, self.client, self.store, self.pending = plan, by_rank, client, store, pending

    @classmethod
    def of(cls, plan, session, client):
        store, pending, reads = session.variables, {}, set()
        sync = dict(session.graph.get_collection(SYNC_REPLICAS))
        shipped = {}
        for kernel, ins, out, op in plan.steps:
            refs = [t.op for t in op.inputs[:op_def(op.type).ref_inputs]]
            reads.update(v for v in refs if _on_ps(v))
            reads.update(v.op for v in op.attrs.get("var_list", ()) if _on_ps(v.op))
            if op.type == "VariableV2" and _on_ps(op):
                reads.add(op)
            if refs and _on_ps(refs[0]) and op.type not in _READ_ONLY_REF_OPS:
                shipped[op] = _ship(op, refs, client.ps_rank(refs[0].device), sync.get(op, 1), store, pending)
        if not reads:
            return plan
        by_rank = {}
        for v in sorted(reads, key=lambda v: v.name):
            by_rank.setdefault(client.ps_rank(v.device), []).append(v)
        plan = plan.with_kernels(lambda op, kernel: shipped.get(op, kernel))
        return cls(plan, by_rank, client, store, pending)

    def execute(self, feed_values, trace=None):
        store, pending = self.store, self.pending
        with self.client.lock:
            fetched = self.client.read({rank: [v.name for v in vs] for rank, vs in self.by_rank.items()})
            for rank, variables in self.by_rank.items():
                for v in variables:
                    if v.name in fetched[rank]:
                        store[v] = fetched[rank][v.name]
                    else:
                        store.pop(v, None)
            pending.clear()
            try:
                values = self.plan.execute(feed_values, trace)
                self.client.update(dict(pending))
            finally:
                pending.clear()
            return values


def _ship(op, refs, rank, replicas, store, pending):
    """A kernel that queues `op` for the ps owning its variable instead of running it here."""
    described = [(v.name, v.outputs[0].shape.as_list() if v.outputs[0].shape.ndims is not None else None,
                  v.outputs[0].dtype) for v in refs]

    def kernel(*values):
        pending.setdefault(rank, []).append({"type": op.type, "attrs": dict(op.attrs), "refs": described,
                                             "values": [np.array(v, copy=True) for v in values],
                                             "replicas": replicas})
        return store.get(refs[0], values[-1] if values else None)
    return kernel

