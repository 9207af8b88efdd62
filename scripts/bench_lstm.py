"""Time one SGD step of an LSTM classifier: ringflow's dynamic_rnn + BasicLSTMCell vs PyTorch's nn.LSTM + Linear.

The model is the classic "MNIST rows" LSTM: 28 time steps of 28 features, 128 units, the last output through a
dense layer to 10 classes, softmax cross-entropy, plain SGD, float32. Both run in one process, one thread each,
interleaved repeat by repeat so that the machine's noise hits them alike; the table gives medians, their ratio,
and how many kernels ringflow runs per step (the non-constant ops the training op needs).

    .venv/bin/python scripts/bench_lstm.py [--cell lstm|lstm_stepwise|lstm_dropout|gru] [--layers 1] [--batch 64]
        [--repeats 30] [--inner 5]

--cell lstm runs dynamic_rnn's whole-sequence op (BlockLSTM); lstm_stepwise wraps the cell in a DeviceWrapper,
which makes dynamic_rnn unroll it with one LSTMBlockCell op per step; lstm_dropout wraps it in a DropoutWrapper
(output_keep_prob 0.5, TF1's PTB model's idiom), against nn.LSTM's outputs through nn.Dropout(0.5). --layers N stacks
N cells in a MultiRNNCell (PyTorch: nn.LSTM(num_layers=N), with lstm_dropout its dropout=0.5 between the layers, so
both drop every layer's outputs). PyTorch's nn.LSTM runs oneDNN's fused
AVX-512 kernels on CPUs that have them, numpy's OpenBLAS the kernels OPENBLAS_CORETYPE names (or its own pick):
the header prints that setting, since on an AVX-512 CPU it alone can change ringflow's time by half.

Two ranks (data parallel, each rank the full --batch, samples/s over both): ringflow's DistributedOptimizer vs
PyTorch DistributedDataParallel (gloo), each launched on its own:

    .venv/bin/mpiexec -n 2 .venv/bin/python scripts/bench_lstm.py --ranks
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import trainer as tg  # noqa: E402
from trainer.framework.registry import op_def  # noqa: E402

STEPS, FEATURES, UNITS, CLASSES, LR, KEEP = 28, 28, 128, 10, 0.01, 0.5
TORCH_CELLS = {"lstm": "LSTM", "lstm_stepwise": "LSTM", "lstm_dropout": "LSTM", "gru": "GRU"}
RINGFLOW_CELLS = {"lstm": tg.nn.rnn_cell.BasicLSTMCell, "gru": tg.nn.rnn_cell.GRUCell,
                  "lstm_stepwise": lambda n: tg.nn.rnn_cell.DeviceWrapper(tg.nn.rnn_cell.BasicLSTMCell(n), "/cpu:0"),
                  "lstm_dropout": lambda n: tg.nn.rnn_cell.DropoutWrapper(tg.nn.rnn_cell.BasicLSTMCell(n),
                                                                          output_keep_prob=KEEP)}


def data(batch, seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((batch, STEPS, FEATURES), dtype=np.float32), rng.integers(0, CLASSES, batch)


def kernels_per_step(fetch):
    """The ops a run of `fetch` executes: everything it depends on except constants."""
    seen, stack = set(), [fetch]
    while stack:
        op = stack.pop()
        if op not in seen:
            seen.add(op)
            stack += [t.op for t in op.inputs] + list(op.control_inputs)
    return sum(not op_def(op.type).constant for op in seen)


def ringflow_step(cell, x, labels, distributed=False, layers=1):
    graph = tg.Graph()
    with graph.as_default():
        tg.set_random_seed(0)
        xt = tg.placeholder(tg.float32, [None, STEPS, FEATURES], name="x")
        yt = tg.placeholder(tg.int64, [None], name="labels")
        cells = [RINGFLOW_CELLS[cell](UNITS) for _ in range(layers)]
        rnn = cells[0] if layers == 1 else tg.nn.rnn_cell.MultiRNNCell(cells)
        outputs, _ = tg.nn.dynamic_rnn(rnn, xt, dtype=tg.float32)
        logits = tg.layers.dense(outputs[:, -1], CLASSES)
        loss = tg.reduce_mean(tg.nn.sparse_softmax_cross_entropy_with_logits(labels=yt, logits=logits))
        opt = tg.train.GradientDescentOptimizer(LR)
        train = (tg.DistributedOptimizer(opt) if distributed else opt).minimize(loss)
        sess = tg.Session()
        sess.run(tg.global_variables_initializer())
        if distributed:
            tg.broadcast_variables(sess)
    feed = {xt: x, yt: labels}
    step = lambda: sess.run(train, feed)  # noqa: E731
    step.kernels = kernels_per_step(train)
    return step


def torch_step(cell, x, labels, distributed=False, layers=1):
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(0)
    rate = 1 - KEEP if cell == "lstm_dropout" else 0.0

    class Classifier(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(torch.nn, TORCH_CELLS[cell])(FEATURES, UNITS, num_layers=layers,
                                                           dropout=rate if layers > 1 else 0.0, batch_first=True)
            self.dropout = torch.nn.Dropout(rate) if rate else None
            self.dense = torch.nn.Linear(UNITS, CLASSES)

        def forward(self, xs):
            outputs = self.rnn(xs)[0]
            return self.dense((self.dropout(outputs) if self.dropout else outputs)[:, -1])
    model = Classifier()
    forward = torch.nn.parallel.DistributedDataParallel(model) if distributed else model
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    xt, yt = torch.tensor(x), torch.tensor(labels)

    def step():
        loss = torch.nn.functional.cross_entropy(forward(xt), yt)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    return step


def timed(steps, repeats, inner):
    """Median seconds per step of each: wall clock, and this process's CPU time (steadier on a shared machine)."""
    wall, cpu = {k: [] for k in steps}, {k: [] for k in steps}
    for fn in steps.values():  # warm up: plans, caches, allocator
        for _ in range(3):
            fn()
    for _ in range(repeats):
        for k, fn in steps.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(inner):
                fn()
            cpu[k].append((time.process_time() - start_cpu) / inner)
            wall[k].append((time.perf_counter() - start) / inner)
    return ({k: float(np.median(v)) for k, v in wall.items()}, {k: float(np.median(v)) for k, v in cpu.items()})


def blas_setting():
    return f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset: OpenBLAS picks)')}"


def single(args):
    print(f"one thread each; {blas_setting()}")
    x, labels = data(args.batch)
    steps = {"ringflow": ringflow_step(args.cell, x, labels, layers=args.layers),
             "torch": torch_step(args.cell, x, labels, layers=args.layers)}
    wall, cpu = timed(steps, args.repeats, args.inner)
    for clock, t in (("wall", wall), ("cpu", cpu)):
        print(f"{args.cell:5} x{args.layers} batch {args.batch} {clock:4}: torch {t['torch'] * 1e3:6.2f} ms, ringflow "
              f"{t['ringflow'] * 1e3:6.2f} ms, ringflow/torch {t['ringflow'] / t['torch']:.2f}", flush=True)
    print(f"ringflow runs {steps['ringflow'].kernels} kernels per step")


def ranks(args):
    """Under mpiexec: ringflow's data-parallel step, then DDP's on the same processes; rank 0 prints."""
    from mpi4py import MPI
    import torch.distributed as dist
    comm = MPI.COMM_WORLD
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000 if comm.rank == 0 else 0))
    os.environ["MASTER_PORT"] = comm.bcast(os.environ["MASTER_PORT"])
    dist.init_process_group("gloo", rank=comm.rank, world_size=comm.size)
    x, labels = data(args.batch, seed=comm.rank)
    steps = {"ringflow": ringflow_step(args.cell, x, labels, True, args.layers),
             "torch": torch_step(args.cell, x, labels, True, args.layers)}
    t = timed(steps, args.repeats, args.inner)[0]
    worst = {k: comm.allreduce(v, op=MPI.MAX) for k, v in t.items()}
    if comm.rank == 0:
        print(f"{comm.size} ranks, one thread each; {blas_setting()}")
        rate = {k: comm.size * args.batch / v for k, v in worst.items()}
        print(f"{args.cell:5} x{args.layers} {comm.size} ranks x batch {args.batch}: torch DDP {rate['torch']:.0f} samples/s, "
              f"ringflow {rate['ringflow']:.0f} samples/s, ringflow/torch {rate['ringflow'] / rate['torch']:.2f}",
              flush=True)
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cell", default="lstm", choices=sorted(TORCH_CELLS))
    parser.add_argument("--layers", type=int, default=1, help="cells stacked in a MultiRNNCell")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--inner", type=int, default=5, help="steps per timed sample")
    parser.add_argument("--ranks", action="store_true", help="data parallel under mpiexec (see above)")
    args = parser.parse_args()
    (ranks if args.ranks else single)(args)


if __name__ == "__main__":
    main()
