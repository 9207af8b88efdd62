"""Single-process tests: names, errors, semantics at one rank, lazy imports, the nccl error path."""
import re
import subprocess
import sys

import numpy as np
import pytest
from mpi4py import MPI

import allreduce
from allreduce.ops import finish_mean

NAMES = ["ring", "mpi", "ps", "shm"]


def test_unknown_name_lists_known_ones():
    known = sorted(allreduce.BACKENDS)
    assert {"auto", "hierarchical", "mpi", "nccl", "ps", "ring", "shm"} <= set(known)  # the contract's names
    with pytest.raises(ValueError, match=r"^Unknown communicator 'tree': known ones are " + re.escape(repr(known))):
        allreduce.create_communicator("tree")


@pytest.mark.parametrize("name", NAMES + ["auto"])
def test_one_rank_is_identity(name):
    c = allreduce.create_communicator(name, comm=MPI.COMM_SELF)
    assert (c.rank, c.size) == (0, 1) and c.name in NAMES
    x = np.arange(10, dtype=np.int16).reshape(2, 5)
    for op in ["sum", "mean", "max", "min"]:
        out = c.allreduce(x, op=op)
        assert out.dtype == x.dtype and out is not x
        np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(c.broadcast(x), x)
    np.testing.assert_array_equal(c.allgather(x), x[None])
    c.barrier()


@pytest.mark.parametrize("name", NAMES)
def test_bad_arguments(name):
    c = allreduce.create_communicator(name, comm=MPI.COMM_SELF)
    with pytest.raises(ValueError, match="Unknown reduction op 'prod'"):
        c.allreduce(np.ones(3), op="prod")
    with pytest.raises(ValueError, match="dtype"):
        c.allreduce(np.ones(3, bool))
    with pytest.raises(ValueError, match="out must be"):
        c.allreduce(np.ones(3), out=np.ones(4))
    with pytest.raises(ValueError, match="root must be"):
        c.broadcast(np.ones(3), root=1)


def test_timeout_setting(monkeypatch):
    monkeypatch.setenv("RINGFLOW_TIMEOUT", "2.5")
    assert allreduce.create_communicator("ring", comm=MPI.COMM_SELF).timeout == 2.5
    assert allreduce.create_communicator("ring", comm=MPI.COMM_SELF, timeout=7).timeout == 7
    monkeypatch.delenv("RINGFLOW_TIMEOUT")
    assert allreduce.create_communicator("ring", comm=MPI.COMM_SELF).timeout == 300
    for bad in [0, -1, "abc", float("inf"), float("nan"), True]:
        with pytest.raises(ValueError, match=r"^timeout must be a positive, finite number of seconds, got "):
            allreduce.create_communicator("ring", comm=MPI.COMM_SELF, timeout=bad)


@pytest.mark.parametrize("text", ["0", "-1", "abc", "inf", "nan"])
def test_a_bad_timeout_variable_is_named_with_what_to_do(monkeypatch, text):
    monkeypatch.setenv("RINGFLOW_TIMEOUT", text)
    with pytest.raises(ValueError, match=f"^RINGFLOW_TIMEOUT='{text}': must be a number of seconds > 0; set it "
                                         f"to such a value or unset it"):
        allreduce.create_communicator("ring", comm=MPI.COMM_SELF)


def test_abort_switch_is_read_by_name(monkeypatch):
    from allreduce import abort
    for text, on in [("1", True), ("0", False), ("off", False), (" TRUE ", True)]:
        monkeypatch.setenv("RINGFLOW_ABORT_ON_ERROR", text)
        assert abort.enabled() is on
    monkeypatch.delenv("RINGFLOW_ABORT_ON_ERROR")
    assert abort.enabled()
    monkeypatch.setenv("RINGFLOW_ABORT_ON_ERROR", "sometimes")
    with pytest.raises(ValueError, match=r"^RINGFLOW_ABORT_ON_ERROR='sometimes' is not understood: set it to 1 "):
        abort.enabled()


@pytest.mark.parametrize("name", NAMES)
def test_labels_are_accepted_and_checked(name):
    c = allreduce.create_communicator(name, comm=MPI.COMM_SELF)
    np.testing.assert_array_equal(c.allreduce(np.ones(3), what="metric allreduce"), 1)
    np.testing.assert_array_equal(c.broadcast(np.ones(3), what="broadcast of variables"), 1)
    np.testing.assert_array_equal(c.allgather(np.ones(3), what="gather")[0], 1)
    c.barrier(what="end of epoch 3")
    fused = allreduce.FusedAllreduce(c, [((3,), np.float32)])
    np.testing.assert_array_equal(fused.allreduce([np.ones(3)], what="step 0's gradient allreduce")[0], 1)
    for bad in [7, ["a"]]:
        with pytest.raises(ValueError, match=r"^what= must be a string naming the collective .*got " + re.escape(repr(bad))):
            c.allreduce(np.ones(3), what=bad)


def test_int_mean_truncates_toward_zero():
    x = np.array([7, -7, 6, -6, 0], np.int64)
    np.testing.assert_array_equal(finish_mean(x, 4), [1, -1, 1, -1, 0])
    np.testing.assert_array_equal(finish_mean(np.array([7], np.uint8), 2), [3])
    np.testing.assert_array_equal(finish_mean(np.array([7.0]), 2), [3.5])


def test_imports_only_numpy_and_mpi4py():
    code = ("import sys, allreduce; heavy = {'cupy', 'torch', 'trainer'} & set(sys.modules); "
            "print(sorted(heavy)); sys.exit(bool(heavy))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_nccl_without_cupy_or_gpu_raises_runtime_error():
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            pytest.skip("a GPU is present: the NCCL path is checked by scripts/check_nccl.py")
    except Exception:
        pass
    with pytest.raises(RuntimeError, match="'nccl' cannot run here: rank 0: "):
        allreduce.create_communicator("nccl", comm=MPI.COMM_SELF)


def test_fusion_layout():
    c = allreduce.create_communicator("ring", comm=MPI.COMM_SELF)
    specs = [((4, 4), np.float32), ((10,), np.float64), ((100,), np.float32), ((8,), np.float32)]
    fused = allreduce.FusedAllreduce(c, specs, bucket_bytes=256)
    assert [b.dtype for b in fused.buckets] == [np.float32, np.float64, np.float32, np.float32]
    assert [b.size for b in fused.buckets] == [16, 10, 100, 8]  # 16+100 floats > 256 B: a new bucket
    assert [v.shape for v in fused.views] == [(4, 4), (10,), (100,), (8,)]
    assert fused.views[0].base is fused.buckets[0] or np.shares_memory(fused.views[0], fused.buckets[0])
    default = allreduce.FusedAllreduce(c, specs)
    assert len(default.buckets) == 2 and default.bucket_bytes == 25 * 2**20
    with pytest.raises(ValueError, match="expected 4 arrays"):
        default.allreduce([np.ones(3)])
