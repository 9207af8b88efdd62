"""The ps task: holds its share of the variables and applies the updates workers send, in server.join().

Updates arrive as descriptions of the worker's ops (type, attrs, variable names, input arrays); the ps
rebuilds each once in a private graph and runs it with the same registered kernels a local Session uses,
so "the ps applies the update" means the real Apply*/Assign* op runs here, on the ps's arrays.
An update marked with `replicas` N (tg.train.SyncReplicasOptimizer) waits until N workers sent it for the
same variables, then runs once on their averaged inputs; the senders' acks wait for that round.
"""
import numpy as np

from ...client.session import Session
from ...framework.graph import Graph
from ...ops.core_ops import placeholder
from ...framework.registry import apply_op
from ...framework.tensor_shape import TensorShape
from . import transport


class ParameterStore:
    """This ps task's variables by name, updated through ops of a private graph."""

    def __init__(self):
        self.graph = Graph()
        self.session = Session(graph=self.graph)
        self._variables, self._updates = {}, {}

    def read(self, names):
        store = self.session.variables
        ops = ((n, self._variables.get(n)) for n in names)
        return {n: store[op] for n, op in ops if op is not None and op in store}

    def apply(self, op_type, attrs, refs, values):
        key = (op_type, tuple(name for name, _, _ in refs), repr(sorted(attrs.items())))
        if key not in self._updates:
            with self.graph.as_default():
                variables = [self._variable(*ref).outputs[0] for ref in refs]
                feeds = [placeholder(np.asarray(v).dtype) for v in values]
                out = apply_op(op_type, variables + feeds, name=op_type, **attrs)
            self._updates[key] = (getattr(out, "op", out), feeds)
        op, feeds = self._updates[key]
        self.session.run(op, feed_dict=dict(zip(feeds, values)))

    def _variable(self, name, shape, dtype):
        if name not in self._variables:
            shape = TensorShape(shape)
            self._variables[name] = self.graph.create_op("VariableV2", [], [(shape, dtype)], name=name, unique=False,
                                                         attrs={"shape": shape, "dtype": dtype})
        return self._variables[name]


class _Service:
    """The ps's message handlers, looked up by MPI tag."""

    def __init__(self, comm, workers):
        self.comm, self.store, self.waiting = comm, ParameterStore(), set(workers)
        self.rounds = {}    # (op type, variable names) -> [(values, ticket), ...] of one SyncReplicas round
        self.pending = {}   # ticket (worker rank, message number) -> sync updates of it not yet applied
        self.sent = 0

    def read(self, source, names):
        transport.send(self.comm, self.store.read(names), source, transport.TAG_VALUES)

    def update(self, source, updates):
        ticket = (source, self.sent)
        self.sent += 1
        self.pending[ticket] = sum(1 for u in updates if u["replicas"] > 1)
        for u in updates:
            if u["replicas"] > 1:
                self._aggregate(u, ticket)
            else:
                self.store.apply(u["type"], u["attrs"], u["refs"], u["values"])
        self._release(ticket)

    def done(self, source, _):
        self.waiting.discard(source)

    def _aggregate(self, u, ticket):
        key = (u["type"], tuple(name for name, _, _ in u["refs"]))
        entries = self.rounds.setdefault(key, [])
        entries.append((u["values"], ticket))
        if len(entries) < u["replicas"]:
            return
        del self.rounds[key]
        columns = zip(*(values for values, _ in entries))
        mean = [(sum(np.asarray(v, dtype=np.float64) if np.asarray(v).dtype.kind in "iub" else np.asarray(v)
                     for v in col) / len(entries)).astype(np.asarray(col[0]).dtype) for col in columns]
        self.store.apply(u["type"], u["attrs"], u["refs"], mean)
        for _, t in entries:
            self.pending[t] -= 1
            self._release(t)

    def _release(self, ticket):
        if self.pending.get(ticket) == 0:
            del self.pending[ticket]
            transport.send(self.comm, None, ticket[0], transport.TAG_ACK)


def serve(peers):
    """Answer the workers' reads and updates until every worker has said it is done."""
    from mpi4py import MPI
    service = _Service(peers.comm, [r for (job, _), r in peers.ranks.items() if job != "ps"])
    handlers = {transport.TAG_READ: service.read, transport.TAG_UPDATE: service.update,
                transport.TAG_DONE: service.done}
    status = MPI.Status()
    while service.waiting:
        message = transport.recv(peers.comm, MPI.ANY_SOURCE, MPI.ANY_TAG, status)
        handlers[status.Get_tag()](status.Get_source(), message)
    return service.store
