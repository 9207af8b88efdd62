#!/usr/bin/env python
"""Which project files one training step runs code from: the built-in MLP (models.get("mlp")) on a synthetic
batch, trained by SGD for a few steps, then one more Session.run of its train op traced with sys.setprofile.

    .venv/bin/python scripts/step_files.py [--hidden 512,512] [--features 784] [--batch 128] [--steps 3]
                                           [--distributed]

Prints how many files of allreduce/, trainer/ and models/ the traced step calls a Python function of (in any
thread it starts), then those files, sorted. The untraced steps first build and cache the plan, as a training
loop's first step does, so the count is that of every later step. --distributed wraps the optimizer in
tg.DistributedOptimizer (on the default communicator), as `ringflow train` does; alone it runs one rank, which
averages nothing, and under `mpiexec -n N python -m mpi4py scripts/step_files.py --distributed` each rank prints
the files of its own step, the collectives' among them.
"""
import argparse
import os
import sys
import threading

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import models  # noqa: E402
import trainer as tg  # noqa: E402

PACKAGES = ("allreduce", "trainer", "models")
CLASSES = 10


def mlp_train_op(hidden, features, distributed):
    """(train op, features placeholder, labels placeholder) of the registered MLP in the default graph."""
    x = tg.placeholder(tg.float32, (None, features), name="features")
    y = tg.placeholder(tg.int64, (None,), name="labels")
    spec = models.get("mlp")(x, y, models.Task("classes", CLASSES), **models.check_hparams("mlp", {"hidden": hidden}))
    optimizer = tg.train.GradientDescentOptimizer(0.01)
    if distributed:
        optimizer = tg.DistributedOptimizer(optimizer)
    return optimizer.minimize(spec.loss, global_step=tg.train.get_or_create_global_step()), x, y


def files_called(run):
    """The project files, relative to the checkout, of every Python function that `run()` calls."""
    codes = set()

    def profile(frame, event, arg):
        if event == "call":
            codes.add(frame.f_code)

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    paths = {os.path.relpath(code.co_filename, ROOT) for code in codes if os.path.isabs(code.co_filename)}
    return sorted(path for path in paths if path.split(os.sep)[0] in PACKAGES)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", default="512,512", help="hidden layer widths (default 512,512)")
    parser.add_argument("--features", type=int, default=784, help="inputs per sample (default 784, MNIST's)")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--steps", type=int, default=3, help="untraced steps before the traced one (default 3)")
    parser.add_argument("--distributed", action="store_true", help="wrap the optimizer in tg.DistributedOptimizer")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error(f"--steps {args.steps}: give at least 1, so that the traced step runs a cached plan")
    train_op, x, y = mlp_train_op(args.hidden, args.features, args.distributed)
    rng = np.random.default_rng(0)
    feed = {x: rng.standard_normal((args.batch, args.features)).astype(np.float32),
            y: rng.integers(0, CLASSES, args.batch)}
    with tg.Session() as sess:
        sess.run(tg.global_variables_initializer())
        for _ in range(args.steps):
            sess.run(train_op, feed)
        files = files_called(lambda: sess.run(train_op, feed))
    lines = [f"one training step runs code from {len(files)} project files"] + [f"  {path}" for path in files]
    print("\n".join(lines), flush=True)  # in one write, so that ranks under mpiexec do not interleave their lines


if __name__ == "__main__":
    main()
