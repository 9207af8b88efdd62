#!/usr/bin/env python
"""Scaling of data-parallel training: samples/s of the 784-512-512-10 MLP on 1 and 2 ranks.

Each rank keeps the same batch (weak scaling) and uses one BLAS thread, so on a 2-core machine perfect scaling
is 2x. Reports the speed-up and the share of step time spent in the gradient allreduce, measured side by side
in one run. Usage: python scripts/bench_scaling.py [--ranks 1 2] [--per-rank-batch 128] [--steps 60]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mpiexec():
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return beside if os.path.exists(beside) else shutil.which("mpiexec")


def run(ranks, backend, args, data, out):
    cmd = [mpiexec(), "-n", str(ranks), sys.executable, "-m", "trainer", "train", "--model", "mlp",
           "--hidden", "512,512", "--dataset", f"npz:{data}", "--batch-size", str(args.per_rank_batch * ranks),
           "--steps", str(args.steps), "--optimizer", args.optimizer, "--lr", "0.01", "--allreduce", backend,
           "--dtype", "float32", "--no-progress", "--metrics-json", out]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONPATH=ROOT)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    with open(out) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--per-rank-batch", type=int, default=128)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--optimizer", default="sgd", choices=["sgd", "momentum", "adam"])
    parser.add_argument("--allreduce", nargs="+", default=["ring", "shm"],
                        help="communicators to compare (default: ring, the default, and shm)")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs per size (noisy machines)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="ringflow-bench-")
    try:
        rng = np.random.default_rng(0)
        data = os.path.join(work, "mnist-shaped.npz")
        np.savez(data, x=rng.random((8192, 784), dtype=np.float32), y=rng.integers(0, 10, 8192))
        results = {}
        for backend in args.allreduce:
            runs = {ranks: [] for ranks in args.ranks}
            for i in range(args.repeats):  # interleaved, so a burst of load hits every size alike
                for ranks in args.ranks:
                    runs[ranks].append(run(ranks, backend, args, data, os.path.join(work, f"m{ranks}-{i}.json")))
            for ranks in args.ranks:
                results[backend, ranks] = max(runs[ranks], key=lambda m: m["samples_per_sec"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"MLP 784-512-512-10, {args.optimizer}, float32, per-rank batch {args.per_rank_batch}, {args.steps} steps, "
          f"one BLAS thread per rank, best of {args.repeats}")
    print(f"{'allreduce':>9} {'ranks':>5} {'samples/s':>10} {'speed-up':>9} {'efficiency':>10} {'allreduce share':>16}"
          f" {'step ms':>8} {'allreduce ms':>13}  (medians)")
    for backend in args.allreduce:
        base = results[backend, args.ranks[0]]["samples_per_sec"] / args.ranks[0]
        for ranks in args.ranks:
            m = results[backend, ranks]
            speedup = m["samples_per_sec"] / base
            print(f"{backend:>9} {ranks:>5} {m['samples_per_sec']:>10.0f} {speedup:>8.2f}x {speedup / ranks:>10.0%} "
                  f"{m['allreduce_fraction']:>16.1%} {m['step_ms_median']:>8.2f} {m['allreduce_ms_median']:>13.2f}")
        if 1 in args.ranks and 2 in args.ranks:
            ratio = results[backend, 2]["samples_per_sec"] / results[backend, 1]["samples_per_sec"]
            share = results[backend, 2]["allreduce_fraction"]
            print(f"{'':>9} target 2 ranks >= 1.8x: {ratio:.2f}x {'met' if ratio >= 1.8 else 'NOT met'}; "
                  f"allreduce <= 10% of step: {share:.1%} {'met' if share <= 0.10 else 'NOT met'}")


if __name__ == "__main__":
    main()
