"""Check the 'nccl' backend on a GPU machine against numpy, and time it next to MPI_Allreduce.

    mpiexec -n 1 python scripts/check_nccl.py        # or -n <GPUs on the node>

Exits non-zero when a result is wrong. Needs CuPy with NCCL (the 'gpu', 'gpu-cuda12' or 'gpu-cuda13' extra) and
one GPU per rank (allreduce/devices.py picks it; distinct PCI bus ids are required). Also checks the fused
device buckets (one grouped, in-place NCCL call per bucket on the communication stream).
"""
import os
import sys
import time

import numpy as np
from mpi4py import MPI

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import allreduce  # noqa: E402
from allreduce import devices  # noqa: E402


def main():
    world = MPI.COMM_WORLD
    rank, n = world.rank, world.size
    say = print if rank == 0 else (lambda *a, **k: None)
    comm = allreduce.create_communicator("nccl")
    import cupy as cp
    say(f"# nccl backend: {n} rank(s), device {comm.device.id} (PCI {devices.bus_id(comm.device.id)}), "
        f"NCCL {cp.cuda.nccl.get_version()}, ncclAvg: {hasattr(cp.cuda.nccl, 'NCCL_AVG')}")
    failures = 0
    rng = np.random.default_rng(rank)
    for dtype in [np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8]:
        for length in [0, 1, n + 1, 1000, 1 << 20]:
            host = (rng.integers(0, 50, length)).astype(dtype)
            everyone = world.allgather(host)
            for op, ref in [("sum", np.sum), ("max", np.max), ("min", np.min), ("mean", None)]:
                stacked = np.stack(everyone).astype(np.float64 if dtype in (np.float16, np.float32) else dtype)
                if op == "mean":
                    total = stacked.sum(axis=0)
                    want = total / n if np.dtype(dtype).kind == "f" else np.sign(total) * (np.abs(total) // n)
                else:
                    want = ref(stacked, axis=0)
                got = comm.allreduce(cp.asarray(host), op=op)
                ok = isinstance(got, cp.ndarray) and got.dtype == dtype and got.shape == host.shape
                ok = ok and np.allclose(cp.asnumpy(got).astype(np.float64), np.asarray(want, np.float64), rtol=1e-3)
                same = world.allgather(cp.asnumpy(got).tobytes())
                ok = ok and all(s == same[0] for s in same)
                if not ok:
                    failures += 1
                    print(f"FAIL rank {rank}: {op} {np.dtype(dtype).name} length {length}")
    x = cp.arange(12, dtype=cp.float32) * (rank + 1)
    failures += not bool((comm.broadcast(x, root=0) == cp.arange(12, dtype=cp.float32)).all())
    failures += comm.allgather(x).shape != (n, 12)
    numpy_in = comm.allreduce(np.ones(5, np.float32))
    fused = allreduce.FusedAllreduce(comm, [((3, 4), np.float32), ((5,), np.float64), ((2,), np.int64)],
                                     bucket_bytes=32, allocate=comm.allocate_device_buckets)
    for view in fused.views:
        view[...] = rank + 1
    fused.allreduce(op="mean")
    for view in fused.views:
        want = (n + 1) / 2 if view.dtype.kind == "f" else (n * (n + 1) // 2) // n
        failures += not bool((view == want).all())
    failures += not (isinstance(numpy_in, np.ndarray) and np.all(numpy_in == n))

    say(f"\n{'size':>10} {'nccl us':>10} {'MPI host us':>12} {'nccl busbw GB/s':>16}")
    for nbytes in [4, 4096, 1 << 20, 16 << 20, 64 << 20]:
        count = max(1, nbytes // 4)
        dev, out = cp.ones(count, cp.float32), cp.empty(count, cp.float32)
        host, hout = np.ones(count, np.float32), np.empty(count, np.float32)
        times = {"nccl": [], "mpi": []}
        for _ in range(20):
            world.Barrier()
            t = time.perf_counter()
            comm.allreduce(dev, out=out)
            times["nccl"].append(time.perf_counter() - t)
            world.Barrier()
            t = time.perf_counter()
            world.Allreduce(host, hout)
            times["mpi"].append(time.perf_counter() - t)
        med = {k: world.allreduce(float(np.median(v)), op=MPI.MAX) for k, v in times.items()}
        busbw = nbytes / med["nccl"] / 1e9 * (2 * (n - 1) / n if n > 1 else 1)
        say(f"{nbytes:>10} {med['nccl'] * 1e6:10.1f} {med['mpi'] * 1e6:12.1f} {busbw:16.2f}")
    failures = world.allreduce(failures)
    say("\nOK: nccl matches numpy" if not failures else f"\nFAILED: {failures} check(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
