#!/usr/bin/env python
"""Data-parallel training throughput: ringflow's DistributedOptimizer vs PyTorch DDP (gloo, CPU), 1 and 2 ranks.

One mpiexec job per (model, ranks) runs both frameworks in every rank, one BLAS/OpenMP thread each: the same
models and initial values (bench_models.py), the same per-rank batch (each rank its own data), timed in
alternating segments so the machine's noise hits both alike. DDP takes its rank and size from the MPI
launcher's environment (allreduce/launcher.py: mpiexec, mpirun or srun alike) and meets on a localhost port.
A segment is `--steps` steps between two barriers; the table gives the median samples/s over `--rounds` segments,
and the median and range of the rounds' ratios (each round times both frameworks back to back). ringflow averages
over `--allreduce` (default "auto", as `ringflow train`: shm within one node); $RINGFLOW_OVERLAP=1 overlaps it
with the backward pass. `--optimizer momentum|adam` trains with TF1's MomentumOptimizer or AdamOptimizer against
PyTorch's fused SGD(momentum) or Adam taking the same steps (default: plain SGD, bench_models.py). `--clock cpu` counts each segment by its busiest rank's CPU time instead of wall time: on
a machine other jobs keep busy it measures what a step costs, not how long the cores were taken away; waiting for a
peer counts only the CPU the wait itself uses.

    .venv/bin/python scripts/bench_peers.py [--models cnn,lenet,lstm,gru,mlp] [--ranks 1 2] [--rounds 7] [--steps 15]
        [--allreduce auto] [--clock wall|cpu] [--optimizer sgd|momentum|adam]
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import allreduce  # noqa: E402
from allreduce import launcher  # noqa: E402
import bench_models  # noqa: E402
import trainer as tg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WARMUP = 3  # steps before timing: plans, allocator, DDP's first-iteration bucket rebuild
LAUNCH_TIMEOUT = 300  # seconds for one mpiexec job; a hung rendezvous fails the benchmark instead of hanging it


def mpi_rank_size():
    return launcher.rank() or 0, launcher.size() or 1


def ringflow_step(model, params, x, labels, backend, optimizer):
    communicator = allreduce.create_communicator(backend)
    wrap = lambda opt: tg.DistributedOptimizer(opt, communicator=communicator)  # noqa: E731
    step, sess = bench_models.ringflow_step(model, params, x, labels, wrap_optimizer=wrap, optimizer=optimizer)[:2]
    tg.broadcast_variables(sess, communicator=communicator)
    return step


def torch_step(model, params, x, labels, port, optimizer):
    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    rank, size = mpi_rank_size()
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=size)
    return bench_models.torch_step(model, params, x, labels, optimizer=optimizer,
                                   wrap_module=torch.nn.parallel.DistributedDataParallel)[0]


def worker(model, rounds, steps, port, backend, clock, optimizer):
    """In each rank: time both frameworks in alternating segments; rank 0 prints samples/s per segment."""
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    cpu = clock == "cpu"
    params, _, _ = bench_models.init(model, seed=0)
    _, x, labels = bench_models.init(model, seed=1 + comm.rank)  # each rank its own data, same batch size
    fns = {"ringflow": ringflow_step(model, params, x, labels, backend, optimizer),
           "torch": torch_step(model, params, x, labels, port, optimizer)}
    for fn in fns.values():
        for _ in range(WARMUP):
            fn()
    rates = {name: [] for name in fns}
    for r in range(rounds):
        for name in (list(fns) if r % 2 == 0 else list(fns)[::-1]):
            comm.Barrier()
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(steps):
                fns[name]()
            used = comm.allreduce(time.process_time() - start_cpu, op=MPI.MAX)  # the busiest rank's CPU time
            comm.Barrier()
            seconds = used if cpu else time.perf_counter() - start
            rates[name].append(comm.size * len(x) * steps / seconds)
    if comm.rank == 0:
        print("RESULT " + json.dumps(rates), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mpiexec():
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return beside if os.path.exists(beside) else shutil.which("mpiexec")


def launch(model, ranks, args):
    cmd = [mpiexec(), "-n", str(ranks), sys.executable, os.path.abspath(__file__), "--worker", model,
           "--rounds", str(args.rounds), "--steps", str(args.steps), "--port", str(free_port()),
           "--allreduce", args.allreduce, "--clock", args.clock, "--optimizer", args.optimizer]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=LAUNCH_TIMEOUT)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        sys.exit(f"bench_peers: {' '.join(cmd)} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    rates = json.loads(lines[-1][len("RESULT "):])
    result = {k: float(np.median(v)) for k, v in rates.items()}
    # each round timed both frameworks back to back: its ratio shows how much the machine's noise moves the result
    result["ratios"] = np.array(rates["ringflow"]) / np.array(rates["torch"])
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="cnn,lenet,lstm,gru,mlp")
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=7, help="timed segments per framework")
    parser.add_argument("--steps", type=int, default=15, help="steps per segment")
    parser.add_argument("--allreduce", default="auto", help="ringflow's allreduce backend (default: auto)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time, or the busiest rank's process CPU time (all its threads: the communication "
                             "threads too), which leaves out the time other jobs held the cores")
    parser.add_argument("--optimizer", default="sgd", choices=bench_models.OPTIMIZERS,
                        help="the models' optimizer (TF1's; PyTorch's taking the same steps)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker, args.rounds, args.steps, args.port, args.allreduce, args.clock, args.optimizer)
    print(f"ringflow's allreduce: {args.allreduce}; {args.optimizer}; {args.clock} clock; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"{'model':6} {'ranks':>5} {'torch DDP samples/s':>19} {'ringflow samples/s':>18} {'rf/torch':>8} "
          f"{'per round: median (range)':>26}")
    results = {}
    for model in args.models.split(","):
        for ranks in args.ranks:
            t = results[model, ranks] = launch(model, ranks, args)
            r = t["ratios"]
            print(f"{model:6} {ranks:5d} {t['torch']:19.1f} {t['ringflow']:18.1f} {t['ringflow'] / t['torch']:8.2f} "
                  f"{np.median(r):13.2f} ({r.min():.2f}-{r.max():.2f})", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    if len(args.ranks) > 1:
        lo, hi = min(args.ranks), max(args.ranks)
        print(f"\nscaling {lo} -> {hi} ranks: " + ", ".join(
            f"{m} torch {results[m, hi]['torch'] / results[m, lo]['torch']:.2f}x ringflow "
            f"{results[m, hi]['ringflow'] / results[m, lo]['ringflow']:.2f}x" for m in args.models.split(",")))


if __name__ == "__main__":
    main()
