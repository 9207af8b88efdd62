"""Allreduce benchmark, nccl-tests style: every backend side by side against MPI_Allreduce.

    mpiexec -n N python scripts/bench_allreduce.py [--min-bytes 4] [--max-bytes 64M] [--factor 4] [--dtype float32]
    mpiexec -n 4 python scripts/bench_allreduce.py --min-bytes 1M --backends mpi,ring,auto   # 4 ranks on 2 cores

Times are per call, the median over interleaved repeats (each repeat runs every backend once, in turn, so
drift on a shared machine hits them all alike) of the slowest rank's time. algbw = bytes / time,
busbw = algbw * 2(N-1)/N (the bytes each rank must move in any allreduce). Buffers are allocated before
timing, and every backend reduces into a preallocated out=. The "fused" column is shm's FusedAllreduce on one
bucket of that size, reduced in place in shared memory (op max, so repeated calls keep the values; it costs
what a sum does), i.e. the gradient-averaging path without the copy into shm's window.

The last table divides every backend's time by the "mpi" backend's from the same run, from --ratio-bytes up: that
backend is MPI_Allreduce waited for as every ringflow collective waits (waiting.py), so the ratio compares the
algorithms alone. The header says whether the ranks outnumber the cores (oversubscribed), where how a rank waits
decides as much as the algorithm.
"""
import argparse
import os
import sys
import time

import numpy as np
from mpi4py import MPI

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import allreduce  # noqa: E402
from allreduce import topology  # noqa: E402

BACKENDS = ["mpi", "ring", "ps", "shm", "auto", "nccl"]


def parse_bytes(text):
    units = {"K": 2**10, "M": 2**20, "G": 2**30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def human(nbytes):
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:g} {unit}"
    return f"{nbytes} B"


def memcpy_bandwidth(comm, nbytes=64 * 2**20, reps=10):
    """GB/s of np.copyto on one rank alone, and per rank with every rank copying at once."""
    src, dst = np.ones(nbytes, np.uint8), np.empty(nbytes, np.uint8)
    result = []
    for alone in (True, False):
        times = []
        for _ in range(reps):
            comm.Barrier()
            if alone and comm.rank != 0:
                continue
            t = time.perf_counter()
            np.copyto(dst, src)
            times.append(time.perf_counter() - t)
        bw = nbytes / np.median(times) / 1e9 if times else 0.0
        result.append(comm.allreduce(bw, op=MPI.MAX) if alone else comm.allreduce(bw, op=MPI.MIN))
    return result


def repeats_for(nbytes):
    return 200 if nbytes <= 64 * 2**10 else 50 if nbytes <= 2**20 else 15 if nbytes <= 16 * 2**20 else 7


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-bytes", default="4")
    ap.add_argument("--max-bytes", default="64M")
    ap.add_argument("--factor", type=int, default=4)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--backends", default=",".join(BACKENDS))
    ap.add_argument("--repeat-scale", type=float, default=1.0)
    ap.add_argument("--ratio-bytes", default="1M", help="smallest size in the table of ratios to the 'mpi' backend")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    n, dtype = comm.size, np.dtype(args.dtype)
    say = print if comm.rank == 0 else (lambda *a, **k: None)

    comms, skipped = {}, {}
    for name in args.backends.split(","):
        try:
            comms[name] = allreduce.create_communicator(name)
        except RuntimeError as exc:
            skipped[name] = str(exc)
    alone, together = memcpy_bandwidth(comm)
    say(f"# allreduce benchmark: {n} ranks, dtype {dtype.name}, MPI: {MPI.Get_library_version().splitlines()[0]}")
    say(f"# node memcpy bandwidth: {alone:.1f} GB/s one rank alone, {together:.1f} GB/s per rank with all {n} copying")
    if comms:
        crowded = next(iter(comms.values())).oversubscribed
        say(f"# {n} ranks on {topology.cores()} cores here: {'oversubscribed' if crowded else 'a core per rank'}")
    for name, why in skipped.items():
        say(f"# skipped {name}: {why}")
    names = list(comms) + (["fused"] if "shm" in comms else [])

    sizes, nbytes = [], parse_bytes(args.min_bytes)
    while nbytes <= parse_bytes(args.max_bytes):
        sizes.append(nbytes)
        nbytes *= args.factor
    rows = []
    for nbytes in sizes:
        count = max(1, nbytes // dtype.itemsize)
        x = (np.arange(count) % 13 + comm.rank).astype(dtype)
        outs = {name: np.empty_like(x) for name in ["MPI"] + names}
        calls = {"MPI": lambda o=outs["MPI"]: comm.Allreduce(x, o)}
        for name in comms:
            calls[name] = lambda c=comms[name], o=outs[name]: c.allreduce(x, out=o)
        if "fused" in names:
            fused = allreduce.FusedAllreduce(comms["shm"], [((count,), dtype)], bucket_bytes=count * dtype.itemsize)
            fused.buckets[0][...] = x
            calls["fused"] = lambda: fused.allreduce(op="max")
        times = {name: [] for name in calls}
        for name, call in calls.items():  # warm-up: caches, buffers, connections
            call(), call()
        for _ in range(max(3, int(repeats_for(nbytes) * args.repeat_scale))):
            for name, call in calls.items():
                comm.Barrier()
                t = time.perf_counter()
                call()
                times[name].append(time.perf_counter() - t)
        for name in comms:
            assert np.array_equal(outs[name], outs["MPI"]) or dtype.kind == "f", name
        if "fused" in names:
            want = np.empty_like(x)
            comm.Allreduce(x, want, op=MPI.MAX)
            assert np.array_equal(fused.buckets[0], want), "fused"
            fused.close()
        med = {name: comm.allreduce(float(np.median(ts)), op=MPI.MAX) for name, ts in times.items()}
        rows.append((count * dtype.itemsize, med))

    factor = 2 * (n - 1) / n
    head = f"{'size':>10} {'MPI us':>9}" + "".join(f" | {name + ' us':>10} {'xMPI':>5}" for name in names)
    say("\n# time per call (median) and ratio to MPI_Allreduce")
    say(head)
    for size, med in rows:
        say(f"{human(size):>10} {med['MPI'] * 1e6:9.1f}" +
            "".join(f" | {med[k] * 1e6:10.1f} {med[k] / med['MPI']:5.2f}" for k in names))
    say(f"\n# algbw / busbw in GB/s (busbw = algbw * 2(N-1)/N), busbw as % of per-rank memcpy bw {together:.1f} GB/s")
    say(f"{'size':>10} {'MPI bus':>8}" + "".join(f" | {name + ' alg':>9} {'bus':>6} {'%cpy':>5}" for name in names))
    for size, med in rows:
        bus = lambda k: size / med[k] / 1e9 * factor
        say(f"{human(size):>10} {bus('MPI'):8.2f}" +
            "".join(f" | {size / med[k] / 1e9:9.2f} {bus(k):6.2f} {100 * bus(k) / together:5.0f}" for k in names))

    others = [k for k in names if k != "mpi"]
    big = [(size, med) for size, med in rows if size >= parse_bytes(args.ratio_bytes)]
    if "mpi" in names and others and big:
        say(f"\n# time per call as a ratio to the 'mpi' backend's (MPI_Allreduce waited for as ringflow waits), "
            f"medians of one run")
        say(f"{'size':>10} {'mpi us':>9}" + "".join(f" | {k + ' xmpi':>10}" for k in others))
        for size, med in big:
            say(f"{human(size):>10} {med['mpi'] * 1e6:9.1f}" +
                "".join(f" | {med[k] / med['mpi']:10.2f}" for k in others))


if __name__ == "__main__":
    main()
