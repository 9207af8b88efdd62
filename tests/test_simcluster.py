"""Across simulated nodes (scripts/simcluster.py: one network namespace per node, on one bridge): every CPU
backend equals MPI_Allreduce in 2x2 block, 2x2 cyclic and 3x1 layouts, `auto` picks the cross-node backend, `shm`
refuses, `ringflow train` on 2 nodes with node-local checkpoint directories resumes bitwise, and a node whose link
goes down ends the job with the reason within the timeout. Skipped where simulated clusters cannot run (not root,
no `ip netns`, no hydra mpiexec)."""
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from .mpirun import ROOT, mpi_env

sys.path.insert(0, str(ROOT / "scripts"))
import simcluster  # noqa: E402

WHY_NOT = simcluster.available()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=str(WHY_NOT))
JOB_S = 120  # one job of these tests takes 2-10 s on an idle 2-core machine; the rest is margin for load
CUT_TIMEOUT_S = 5  # RINGFLOW_TIMEOUT of the job whose node is unplugged

# Each rank checks every CPU backend against MPI_Allreduce on small messages (length 0, < size, not divisible by
# size, a few segments), integer-valued so any summation order is exact, then bitwise agreement on random data.
BACKENDS_WORKER = textwrap.dedent("""
    import hashlib, sys
    import numpy as np
    from mpi4py import MPI
    import allreduce
    comm = MPI.COMM_WORLD
    cross_node = "hierarchical" if "hierarchical" in allreduce.BACKENDS else "ring"
    for name in sorted(allreduce.BACKENDS):
        if name in ("nccl", "auto"):
            continue
        if name == "shm":
            try:
                allreduce.create_communicator("shm")
            except RuntimeError as exc:
                assert "node" in str(exc), exc
                print("REFUSED shm:", exc, flush=True) if comm.rank == 0 else None
                continue
            raise AssertionError("shm accepted ranks on several nodes")
        c = allreduce.create_communicator(name)
        for n in (0, 1, comm.size + 1, 3 * comm.size + 1, 300_001):
            for dtype in (np.float32, np.float64, np.int32):
                x = ((np.arange(n) * (comm.rank + 3)) % 17 - 8).astype(dtype)
                for op, mpi_op in (("sum", MPI.SUM), ("max", MPI.MAX), ("min", MPI.MIN)):
                    want = np.empty_like(x)
                    comm.Allreduce(x, want, op=mpi_op)
                    got = c.allreduce(x, op=op)
                    assert got.dtype == x.dtype and got.shape == x.shape, (name, got.dtype, got.shape)
                    assert np.array_equal(got, want), f"{name} {op} n={n} {dtype.__name__} rank {comm.rank}"
        noise = np.random.default_rng(comm.rank).standard_normal(100_003)
        digest = hashlib.sha1(c.allreduce(noise, op="mean").tobytes()).hexdigest()
        assert len(set(comm.allgather(digest))) == 1, f"{name}: ranks differ"
        print("OK", name, flush=True) if comm.rank == 0 else None
    chosen = allreduce.create_communicator("auto").name
    assert chosen == cross_node, f"auto chose {chosen!r} across nodes, expected {cross_node!r}"
    print("AUTO", chosen, flush=True) if comm.rank == 0 else None
""")

LINK_WORKER = textwrap.dedent("""
    import numpy as np
    from mpi4py import MPI
    import allreduce
    c = allreduce.create_communicator("ring")
    x = np.ones(2**18, np.float32)
    for step in range(10**9):
        c.allreduce(x)
        if step == 3 and c.rank == 0:
            print("RUNNING", flush=True)
""")


def env(**extra):
    return mpi_env(**{"PYTHONUNBUFFERED": "1", "RINGFLOW_TIMEOUT": "60", **extra})


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("nodes,ppn,placement", [(2, 2, "block"), (2, 2, "cyclic"), (3, 1, "block")])
def test_backends_match_mpi_across_nodes(tmp_path, nodes, ppn, placement):
    worker = write(tmp_path, "backends.py", BACKENDS_WORKER)
    with simcluster.SimCluster(nodes) as cluster:
        out = cluster.run([sys.executable, "-m", "mpi4py", worker], ppn=ppn, placement=placement, env=env(),
                          timeout=JOB_S)
    assert out.returncode == 0, out.stdout + out.stderr
    import allreduce
    tested = {line.split()[1] for line in out.stdout.splitlines() if line.startswith("OK ")}
    assert tested == set(allreduce.BACKENDS) - {"nccl", "auto", "shm"}, out.stdout
    assert "REFUSED shm:" in out.stdout and "AUTO" in out.stdout, out.stdout


def test_nodes_are_separate_machines(tmp_path):
    """Host names, boot ids and /dev/shm are per node, and ranks of one node share them."""
    probe = "echo $PMI_RANK $(hostname) $(cat /proc/sys/kernel/random/boot_id) $(ls /dev/shm | wc -l)"
    with simcluster.SimCluster(2) as cluster:
        out = cluster.run(["sh", "-c", probe], ppn=2, placement="cyclic", timeout=JOB_S)
    assert out.returncode == 0, out.stderr
    rows = sorted(line.split() for line in out.stdout.splitlines())
    assert [r[1] for r in rows] == ["node0", "node1", "node0", "node1"], rows
    assert rows[0][2] == rows[2][2] != rows[1][2] == rows[3][2] != open("/proc/sys/kernel/random/boot_id").read()


def train(cluster, *args):
    cmd = [sys.executable, "-m", "trainer", "train", "--model", "mlp", "--hidden", "16", "--dataset",
           "synthetic-classes", "--batch-size", "32", "--optimizer", "adam", "--seed", "3", *map(str, args)]
    out = cluster.run(cmd, ppn=1, env=env(), timeout=JOB_S, cwd=str(ROOT))
    assert out.returncode == 0, out.stdout + out.stderr
    return out


def test_train_resumes_bitwise_from_node_local_checkpoints():
    """Each node has its own directory at cluster.local_dir; rank 0 (node0) writes checkpoints there."""
    with simcluster.SimCluster(2) as cluster:
        ckpt, final = f"{cluster.local_dir}/ckpt", f"{cluster.local_dir}/final.npz"
        train(cluster, "--steps", 6, "--save-final", f"{cluster.local_dir}/straight.npz")
        train(cluster, "--steps", 3, "--checkpoint-dir", ckpt, "--checkpoint-every-steps", 3)
        assert not os.listdir(cluster.node_local("node1")), "node1 was written to: the directories are not local"
        train(cluster, "--steps", 6, "--checkpoint-dir", ckpt, "--checkpoint-every-steps", 3, "--save-final", final)
        straight = np.load(os.path.join(cluster.node_local("node0"), "straight.npz"))
        resumed = np.load(os.path.join(cluster.node_local("node0"), "final.npz"))
        assert sorted(straight.files) == sorted(resumed.files) and straight.files
        for name in straight.files:
            assert straight[name].tobytes() == resumed[name].tobytes(), f"{name} differs after resuming"


def test_node_losing_its_link_ends_the_job_with_the_reason(tmp_path):
    worker = write(tmp_path, "link.py", LINK_WORKER)
    with simcluster.SimCluster(2) as cluster:
        job = cluster.popen([sys.executable, "-m", "mpi4py", worker], ppn=1,
                            env=env(RINGFLOW_TIMEOUT=str(CUT_TIMEOUT_S)), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
        try:
            first = job.stdout.readline()
            assert first.startswith("RUNNING"), first + job.stdout.read()
            cluster.cut("node1")
            start = time.monotonic()
            output = job.communicate(timeout=JOB_S)[0]
            seconds = time.monotonic() - start
        finally:
            if job.poll() is None:
                job.kill()
    print(f"[unplugged node1] job ended after {seconds:.1f} s (timeout {CUT_TIMEOUT_S} s):\n{output}")
    assert job.returncode != 0
    assert "CollectiveTimeout" in output and "waiting for rank 1" in output, output
    assert seconds < CUT_TIMEOUT_S + 60, f"took {seconds:.1f} s to end after the link went down"


def test_leftovers_of_a_killed_run_are_removed():
    dead = subprocess.Popen(["true"])
    dead.wait()
    cluster = simcluster.SimCluster(1)
    cluster.id = f"{simcluster.PREFIX}{dead.pid}-0"  # as if the process that made it had been killed
    cluster.dir = os.path.join(simcluster.STATE_ROOT, cluster.id)
    cluster.local_dir = os.path.join(cluster.dir, "local")
    simcluster.sh("ip", "netns", "add", cluster.netns("sw"))
    os.makedirs(cluster.local_dir)
    assert cluster.id in simcluster.cleanup_leftovers()
    assert cluster.netns("sw") not in simcluster.sh("ip", "netns", "list").stdout
    assert not os.path.exists(cluster.dir)
