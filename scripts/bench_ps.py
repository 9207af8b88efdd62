"""Parameter server vs ring allreduce on the same model: samples/s, time per step, bytes sent per rank per step.

`python scripts/bench_ps.py [--workers 2 3 4] [--steps 30] [--repeats 3]` launches MPMD mpiexec jobs per
setting (PS async/sync with 1 and 2 ps tasks, and ringflow's ring allreduce with as many ranks as workers) and
prints a table of the medians over the repeats. Each job runs this same file with --role; every worker reports
its samples/s and the bytes it sent per step as JSON on stdout.
"""
import argparse
import faulthandler
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import trainer as tg  # noqa: E402
from tests.mpirun import find_mpiexec, mpi_env  # noqa: E402
from trainer.parallel.ps.remote_store import current_client  # noqa: E402

HIDDEN = 256   # a 2-layer MLP, 784-256-10: S = 203,530 float32 parameters (~0.8 MB)
BATCH = 32     # per worker
HANG_S = 120   # a job takes seconds even on a loaded 2-core machine: past this a rank is stuck


def build():
    x = tg.placeholder(tg.float32, [None, 784])
    y = tg.placeholder(tg.int64, [None])
    w1 = tg.Variable(tg.random_normal([784, HIDDEN], stddev=0.05, seed=1), name="w1")
    b1 = tg.Variable(tg.zeros([HIDDEN]), name="b1")
    w2 = tg.Variable(tg.random_normal([HIDDEN, 10], stddev=0.05, seed=2), name="w2")
    b2 = tg.Variable(tg.zeros([10]), name="b2")
    logits = tg.matmul(tg.nn.relu(tg.matmul(x, w1) + b1), w2) + b2
    loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    size = sum(int(np.prod(v.shape.as_list())) for v in (w1, b1, w2, b2))
    return x, y, loss, size


def role(args):
    faulthandler.dump_traceback_later(HANG_S, exit=True)  # a stuck rank shows where it waits, then ends the job
    rng = np.random.default_rng(0)
    feed_x, feed_y = rng.standard_normal((BATCH, 784)).astype(np.float32), rng.integers(0, 10, BATCH)
    if args.mode == "allreduce":
        x, y, loss, size = build()
        train = tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.01)).minimize(loss)
        sess = tg.Session()
        sess.run(tg.global_variables_initializer())
        from mpi4py import MPI
        rank, n, sent = MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size(), None
    else:
        ps_n, workers = args.ps, args.workers
        cluster = tg.train.ClusterSpec({"ps": [f"ps{i}" for i in range(ps_n)],
                                        "worker": [f"w{i}" for i in range(workers)]})
        server = tg.train.Server(cluster, job_name=args.job, task_index=args.task)
        if args.job == "ps":
            server.join()
        with tg.device(tg.train.replica_device_setter(worker_device=f"/job:worker/task:{args.task}",
                                                      cluster=cluster)):
            x, y, loss, size = build()
            step = tg.train.get_or_create_global_step()
            opt = tg.train.GradientDescentOptimizer(0.01)
            if args.mode == "sync":
                opt = tg.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=workers, total_num_replicas=workers)
            train = opt.minimize(loss, global_step=step)
        sv = tg.train.Supervisor(is_chief=args.task == 0, logdir=None, summary_op=None, global_step=step,
                                 recovery_wait_secs=0.2)
        sess = sv.prepare_or_wait_for_session(server.target)
        client, rank, n = current_client(), args.task, workers
    for _ in range(3):  # warm-up: plans compiled, buffers allocated
        sess.run(train, {x: feed_x, y: feed_y})
    before = None if args.mode == "allreduce" else client.bytes_sent
    start = time.perf_counter()
    for _ in range(args.steps):
        sess.run(train, {x: feed_x, y: feed_y})
    elapsed = time.perf_counter() - start
    sent = 2 * size * 4 * (n - 1) / n if args.mode == "allreduce" else (client.bytes_sent - before) / args.steps
    print("RESULT " + json.dumps({"rank": rank, "samples_s": BATCH * args.steps / elapsed, "bytes": sent,
                                  "size": size}), flush=True)


def launch(mode, workers, ps, steps):
    me = [sys.executable, "-m", "mpi4py", __file__, "--role", "--mode", mode, "--steps", str(steps),
          "--workers", str(workers), "--ps", str(ps)]
    if mode == "allreduce":
        command = [find_mpiexec(), "-n", str(workers), *me]
    else:
        command = [find_mpiexec()]
        for i, (job, task) in enumerate([("ps", t) for t in range(ps)] + [("worker", t) for t in range(workers)]):
            command += ([":"] if i else []) + ["-n", "1", *me, "--job", job, "--task", str(task)]
    out = subprocess.run(command, env=mpi_env(), capture_output=True, text=True, timeout=2 * HANG_S)
    results = [json.loads(r) for r in re.findall(r"RESULT (\{[^}]*\})", out.stdout)]  # ranks' lines may mix
    if len(results) != workers:
        raise RuntimeError(f"{mode} with {workers} workers, {ps} ps failed:\n{out.stdout}\n{out.stderr}")
    # async workers do not wait for each other, so the job's rate is the sum of theirs (rank 0's alone would
    # look fast whenever the others are starved of CPU); a worker's time per step is then N*BATCH/that
    samples_s = sum(r["samples_s"] for r in results)
    first = min(results, key=lambda r: r["rank"])
    return {"samples_s": samples_s, "step_s": workers * BATCH / samples_s, "bytes": first["bytes"],
            "size": first["size"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--role", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="async", choices=["async", "sync", "allreduce"])
    parser.add_argument("--job", default="worker")
    parser.add_argument("--task", type=int, default=0)
    parser.add_argument("--ps", type=int, default=1)
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3, help="jobs per setting; the table shows their median")
    args = parser.parse_args()
    if args.role:
        args.workers = args.workers[0]
        return role(args)
    print(f"{'setting':<22}{'N':>3}{'samples/s':>12}{'ms/step':>10}{'bytes/rank/step':>18}{'ring 2S(N-1)/N':>17}")
    for n in args.workers:
        for mode, ps in [("async", 1), ("async", 2), ("sync", 1), ("sync", 2), ("allreduce", 0)]:
            runs = [launch(mode, n, ps, args.steps) for _ in range(args.repeats)]
            r = {k: statistics.median(run[k] for run in runs) for k in runs[0]}  # a shared machine: medians
            name = "ring allreduce" if mode == "allreduce" else f"PS {mode}, {ps} ps"
            ring = 2 * r["size"] * 4 * (n - 1) / n
            print(f"{name:<22}{n:>3}{r['samples_s']:>12.0f}{r['step_s'] * 1e3:>10.2f}{r['bytes']:>18,.0f}"
                  f"{ring:>17,.0f}", flush=True)


if __name__ == "__main__":
    main()
