"""Where the ranks run: which node holds each rank, and how many cores the ranks may use.

A node is a set of ranks that can share memory (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)). Nodes are numbered in
the order of their lowest rank, so node 0 holds rank 0, and a node's ranks are its local ranks 0, 1, ... in rank
order. `ring_order` lists the ranks by (node, rank): a ring in that order crosses each link between two nodes
once, whatever the launcher's placement (cyclic placement a b a b becomes the ring a a b b).

For testing on one machine, a layout can be pretended: `nodes=` (one label per rank of the communicator) or
$RINGFLOW_FAKE_NODES (comma-separated labels, one per rank of MPI.COMM_WORLD: "a,a,b,b" is 2 nodes x 2 ranks,
"a,b,a,b" the same nodes with cyclic placement). A pretended node must lie within a real one, since the ranks of a
node talk through shared memory.
"""
import os

from mpi4py import MPI

ENV = "RINGFLOW_FAKE_NODES"


class Layout:
    """node_of[q]: the node of rank q (0..nodes-1); members[i]: node i's ranks in order; this rank's node and
    local rank; ring_order: the ranks sorted by (node, rank)."""

    def __init__(self, node_of, rank, pretended):
        self.node_of, self.pretended = tuple(node_of), pretended
        self.nodes = max(node_of) + 1
        self.members = [[q for q, i in enumerate(node_of) if i == node] for node in range(self.nodes)]
        self.node = node_of[rank]
        self.local_rank = self.members[self.node].index(rank)
        self.ring_order = [q for ranks in self.members for q in ranks]

    def __repr__(self):
        sizes = "+".join(str(len(m)) for m in self.members)
        return f"<Layout {self.nodes} node(s) of {sizes} ranks{' (pretended)' if self.pretended else ''}>"


def layout(comm, nodes=None):
    """The node layout of comm's ranks (collective over comm). nodes: for testing, each rank's node label,
    overriding $RINGFLOW_FAKE_NODES and the real layout."""
    rank, size = comm.Get_rank(), comm.Get_size()
    shared = comm.Split_type(MPI.COMM_TYPE_SHARED)
    real = shared.allreduce(rank, op=MPI.MIN)  # the node's lowest rank names it
    shared.Free()
    label, problem = _pretended_label(nodes, rank, size)
    everyone = comm.allgather((label, real, problem))
    problems = [p for _, _, p in everyone if p]
    if problems:  # raised on every rank alike, so none is left waiting
        raise ValueError(problems[0])
    pretended = everyone[0][0] is not None
    keys = [lab if pretended else real for lab, real, _ in everyone]
    ids = {}
    node_of = [ids.setdefault(key, len(ids)) for key in keys]
    if pretended:
        for key in ids:
            ranks = [q for q, k in enumerate(keys) if k == key]
            machines = {everyone[q][1] for q in ranks}
            if len(machines) > 1:
                source = "nodes=" if nodes is not None else f"${ENV}"
                raise ValueError(f"{source} puts ranks {ranks} on node {key!r}, but they run on different "
                                 f"machines, which cannot share memory: pretend only nodes within real ones")
    return Layout(node_of, rank, pretended)


def _pretended_label(nodes, rank, size):
    """(this rank's pretended node label or None, a problem to raise or None)."""
    if nodes is None:
        text = os.environ.get(ENV, "").strip()
        if not text:
            return None, None
        labels, world = [s.strip() for s in text.split(",")], MPI.COMM_WORLD.Get_size()
        if len(labels) != world or not all(labels):
            return None, (f"${ENV}={text!r} must give one node label per rank of MPI.COMM_WORLD, {world} in all "
                          f"(e.g. 'a,a,b,b' for 2 nodes x 2 ranks), got {len(labels)}")
        return labels[MPI.COMM_WORLD.Get_rank()], None
    try:
        nodes = list(nodes)
    except TypeError:
        return None, f"nodes= must be a list with one node label per rank, got {nodes!r} at rank {rank}"
    if len(nodes) != size:
        return None, (f"nodes= must give one node label per rank, {size} in all, got {len(nodes)} ({nodes!r}) at "
                      f"rank {rank}")
    return nodes[rank], None


def cores():
    """The cores this process may run on: its affinity (a cpuset, Slurm's or a launcher's binding), which may be
    fewer than the machine's os.cpu_count()."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform (macOS)
        return os.cpu_count() or 1


def node_cores(shared):
    """The cores the ranks of one node (a shared-memory communicator) may use between them: the union of their
    affinities, so ranks bound to a core each count a core each, and ranks sharing a cpuset count it once.
    Collective over `shared`."""
    try:
        mine = os.sched_getaffinity(0)
    except AttributeError:
        return os.cpu_count() or 1
    return len(set().union(*shared.allgather(sorted(mine))))
