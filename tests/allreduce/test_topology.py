"""Node layouts in closed form, pretended layouts and their errors, and cores from the affinity (one rank)."""
import os

import pytest
from mpi4py import MPI

from allreduce import topology
from allreduce.topology import Layout


@pytest.mark.parametrize("node_of, rank, members, ring_order", [
    ([0, 0, 1, 1], 2, [[0, 1], [2, 3]], [0, 1, 2, 3]),  # 2x2, block placement
    ([0, 1, 0, 1], 3, [[0, 2], [1, 3]], [0, 2, 1, 3]),  # cyclic: node mates become ring neighbours
    ([0, 1, 2], 1, [[0], [1], [2]], [0, 1, 2]),  # 3x1
    ([0, 0, 1], 2, [[0, 1], [2]], [0, 1, 2]),  # uneven 2+1
    ([0, 0, 0, 0], 3, [[0, 1, 2, 3]], [0, 1, 2, 3]),  # one node
])
def test_layout(node_of, rank, members, ring_order):
    layout = Layout(node_of, rank, pretended=True)
    assert layout.nodes == len(members) and layout.members == members and layout.ring_order == ring_order
    assert layout.node == node_of[rank] and layout.local_rank == members[node_of[rank]].index(rank)


def test_real_layout_of_one_process(monkeypatch):
    monkeypatch.delenv(topology.ENV, raising=False)
    layout = topology.layout(MPI.COMM_SELF)
    assert (layout.nodes, layout.node, layout.local_rank, layout.pretended) == (1, 0, 0, False)


def test_pretended_layouts(monkeypatch):
    monkeypatch.setenv(topology.ENV, ",".join(["x"] * MPI.COMM_WORLD.Get_size()))
    assert topology.layout(MPI.COMM_SELF).pretended
    assert topology.layout(MPI.COMM_SELF, nodes=["n"]).members == [[0]]
    with pytest.raises(ValueError, match=r"nodes= must give one node label per rank, 1 in all, got 2"):
        topology.layout(MPI.COMM_SELF, nodes=["a", "b"])
    with pytest.raises(ValueError, match=r"nodes= must be a list with one node label per rank, got 3"):
        topology.layout(MPI.COMM_SELF, nodes=3)
    monkeypatch.setenv(topology.ENV, "a,b,c,d,e,f,g,h,i")
    with pytest.raises(ValueError, match=r"RINGFLOW_FAKE_NODES='a,b,c,d,e,f,g,h,i' must give one node label per "
                                         r"rank of MPI.COMM_WORLD"):
        topology.layout(MPI.COMM_SELF)


def test_cores_come_from_the_affinity(monkeypatch):
    monkeypatch.setattr(topology.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(topology.os, "sched_getaffinity", lambda pid: {4, 5, 6})
    assert topology.cores() == 3
    assert topology.node_cores(MPI.COMM_SELF) == 3


def test_cores_of_this_process():
    assert topology.cores() == len(os.sched_getaffinity(0)) <= (os.cpu_count() or 1)
