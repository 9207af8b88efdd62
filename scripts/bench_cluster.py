"""Allreduce across simulated nodes (scripts/simcluster.py): busbw of each backend as a ratio of the link rate.

    sudo .venv/bin/python scripts/bench_cluster.py [--rate 1gbit] [--sizes 4M,16M,64M] [--repeats 3]

Layouts: 2 nodes x 2 ranks placed block and cyclic, and k nodes x 1 rank for k = 2, 3. Backends: every one of
`hierarchical`, `ring` and `mpi` (MPI_Allreduce) that is registered. busbw = 2(n-1)/n * S / t as nccl-tests
define it (t: the median over repeats of the slowest rank's time for one call); the ratio is busbw / link rate.
Targets from issue 11: 2x2 block >= 1.4 (hierarchical's bound is 1.5: each node sends S across its link),
cyclic >= 0.9, k x 1 >= 0.9. The same script runs on the ranks (--worker) and prints one JSON line per result.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import allreduce  # noqa: E402
from simcluster import SimCluster, available  # noqa: E402

BACKENDS = ["hierarchical", "ring", "mpi"]
LAYOUTS = [("2x2 block", 2, 2, "block"), ("2x2 cyclic", 2, 2, "cyclic"), ("2x1", 2, 1, "block"),
           ("3x1", 3, 1, "block")]
TARGETS = {"2x2 block": 1.4, "2x2 cyclic": 0.9, "2x1": 0.9, "3x1": 0.9}
UNITS = {"K": 2**10, "M": 2**20, "G": 2**30}


def parse_bytes(text):
    scale = UNITS.get(text[-1].upper())
    return int(float(text[:-1]) * scale) if scale else int(text)


def parse_rate(text):
    """tc's rate words (bit/s): 1gbit, 100mbit, 500kbit."""
    for unit, scale in (("gbit", 1e9), ("mbit", 1e6), ("kbit", 1e3), ("bit", 1)):
        if text.lower().endswith(unit):
            return float(text[:-len(unit)]) * scale
    raise ValueError(f"rate {text!r}: write it as tc does, e.g. 1gbit or 100mbit")


class MPIAllreduce:
    def __init__(self, comm):
        self.comm = comm

    def allreduce(self, x, out):
        self.comm.Allreduce(x, out)


def worker(args):
    import numpy as np
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    names = [b for b in args.backends.split(",") if b == "mpi" or b in allreduce.BACKENDS]
    # "mpi" is MPI_Allreduce itself through mpi4py: the reference, whatever the package's wrapper adds
    comms = {name: MPIAllreduce(comm) if name == "mpi" else allreduce.create_communicator(name) for name in names}
    for nbytes in map(parse_bytes, args.sizes.split(",")):
        x = np.ones(nbytes // 4, np.float32)
        out = np.empty_like(x)
        times = {name: [] for name in names}
        for _ in range(args.repeats + 1):  # the first round warms connections and buffers up; not counted
            for name, c in comms.items():  # interleaved, so load from others hits every backend alike
                comm.Barrier()
                t = time.perf_counter()
                c.allreduce(x, out=out)
                times[name].append(comm.allreduce(time.perf_counter() - t, op=MPI.MAX))
        if comm.rank == 0:
            for name in names:
                t = float(np.median(times[name][1:]))
                busbw = 2 * (comm.size - 1) / comm.size * nbytes / t
                print(json.dumps({"backend": name, "bytes": nbytes, "seconds": t, "busbw": busbw}), flush=True)


def run_layout(layout, nodes, ppn, placement, args):
    command = [sys.executable, os.path.abspath(__file__), "--worker", "--sizes", args.sizes,
               "--repeats", str(args.repeats), "--backends", args.backends]
    with SimCluster(nodes, rate=args.rate) as cluster:
        proc = cluster.run(command, ppn=ppn, placement=placement, env={"OMP_NUM_THREADS": "1"}, timeout=args.timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"layout {layout!r} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rate", default="1gbit")
    ap.add_argument("--sizes", default="4M,16M,64M")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--backends", default=",".join(BACKENDS))
    ap.add_argument("--layouts", default=",".join(name for name, *_ in LAYOUTS))
    ap.add_argument("--timeout", type=float, default=600, help="seconds per layout")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    problem = available()
    if problem:
        sys.exit(f"bench_cluster: {problem}")
    link = parse_rate(args.rate) / 8  # bytes/s
    wanted = args.layouts.split(",")
    print(f"# busbw / link rate ({args.rate} = {link / 1e6:g} MB/s), median of {args.repeats}; target per layout")
    header = None
    for layout, nodes, ppn, placement in LAYOUTS:
        if layout not in wanted:
            continue
        rows = run_layout(layout, nodes, ppn, placement, args)
        names = list(dict.fromkeys(r["backend"] for r in rows))
        if header != names:
            header = names
            print(f"{'layout':<11} {'size':>6} " + " ".join(f"{n:>12}" for n in names) + "  target")
        for nbytes in dict.fromkeys(r["bytes"] for r in rows):
            ratio = {r["backend"]: r["busbw"] / link for r in rows if r["bytes"] == nbytes}
            print(f"{layout:<11} {nbytes // 2**20:>4}Mi " + " ".join(f"{ratio[n]:>11.2f}x" for n in names)
                  + f"  >= {TARGETS[layout]}x", flush=True)


if __name__ == "__main__":
    sys.exit(main())
