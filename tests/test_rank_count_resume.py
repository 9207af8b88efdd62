"""Exact resume on another number of ranks: a run checkpointed at N ranks and resumed at N' continues the same
training (same global batch, data order and optimizer state), so it ends equal to an uninterrupted run within
float64 rounding, and bitwise when N' = N. Real `mpiexec` jobs: `ringflow train` (4 -> 3 -> 2 ranks, 3 -> 3),
and a library program on MonitoredTrainingSession checkpoints and trainer.data.Pipeline's sharding. The global
batch, 35, divides over none of 2, 3 and 4 ranks: the first ranks take one more sample and the gradients are
weighted by shard size."""
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from .mpirun import ROOT, find_mpiexec, mpi_env
from .test_cli_faults import JOB_TIMEOUT_S, assert_same, load, mpiexec

ARGS = ["--model", "mlp", "--hidden", "16", "--dataset", "synthetic-classes", "--batch-size", 35, "--optimizer",
        "adam", "--lr", 0.01, "--seed", 5, "--dtype", "float64", "--no-progress"]
ROUNDING = 1e-12  # float64 sums in another order differ by ~1e-16 a step; after 24 Adam steps, still < 1e-14


def assert_close(a_path, b_path):
    a, b = load(a_path), load(b_path)
    assert sorted(a) == sorted(b)
    for key in a:
        np.testing.assert_allclose(a[key], b[key], rtol=0, atol=ROUNDING, err_msg=key)


def train(ranks, steps, *extra):
    out = mpiexec("-n", ranks, "ringflow", *ARGS, "--steps", steps, *extra)
    assert out.returncode == 0, out.stderr
    return out


def test_ringflow_train_resumed_on_fewer_ranks_continues_the_same_training(tmp_path):
    whole = tmp_path / "whole"
    train(3, 24, "--checkpoint-dir", whole, "--checkpoint-every-steps", 8, "--save-final", tmp_path / "whole.npz")
    ckpt = tmp_path / "ckpt"
    train(4, 8, "--checkpoint-dir", ckpt)
    out = train(3, 16, "--checkpoint-dir", ckpt)
    assert "random streams" not in out.stderr  # only the initializers drew, alike on every rank: they continue
    train(2, 24, "--checkpoint-dir", ckpt, "--save-final", tmp_path / "resumed.npz")
    assert_close(tmp_path / "whole.npz", tmp_path / "resumed.npz")
    same = tmp_path / "same"
    same.mkdir()
    for ext in (".index", ".data-00000-of-00001"):  # step 8 of the whole run, without its state file
        shutil.copy(whole / f"model.ckpt-8{ext}", same)
    train(3, 24, "--checkpoint-dir", same, "--save-final", tmp_path / "same.npz")
    assert_same(tmp_path / "whole.npz", tmp_path / "same.npz")  # the same rank count: bitwise


LIBRARY = """
import sys
import numpy as np
import allreduce
import trainer as tg
import trainer.horovod as hvd
from trainer.data import Pipeline

checkpoint_dir, last_step, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
hvd.init()
comm = allreduce.create_communicator("ring")
rng = np.random.default_rng(0)
data_x, data_y = rng.standard_normal((200, 6)), rng.standard_normal((200, 2))
pipeline = Pipeline((data_x, data_y), batch_size=35, rank=comm.rank, size=comm.size, seed=4)

tg.set_random_seed(1)
x, y, n = tg.placeholder(tg.float64, [None, 6]), tg.placeholder(tg.float64, [None, 2]), tg.placeholder(tg.float64, [])
hidden = tg.layers.dense(x, 8, activation=tg.nn.tanh)
loss = tg.reduce_mean(tg.square(tg.layers.dense(hidden, 2) - y))
step = tg.train.get_or_create_global_step()
train = tg.DistributedOptimizer(tg.train.AdamOptimizer(0.01), comm, weight=n).minimize(loss, global_step=step)


class SeekHook(tg.train.SessionRunHook):
    def after_create_session(self, session, coord):  # after the broadcast: every rank holds rank 0's step
        pipeline.seek(session.run(step))


hooks = [tg.train.StopAtStepHook(last_step=last_step), hvd.BroadcastGlobalVariablesHook(0), SeekHook()]
with tg.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir if comm.rank == 0 else None, hooks=hooks,
                                       save_checkpoint_steps=1000, save_summaries_steps=0,
                                       log_step_count_steps=0) as sess:
    while not sess.should_stop():
        bx, by = pipeline.next_batch()
        sess.run(train, {x: bx, y: by, n: len(bx)})
    weights = sess.run_step_fn(lambda step_context: step_context.session.run(tg.trainable_variables()))
if comm.rank == 0:
    np.savez(out, **{str(i): w for i, w in enumerate(weights)})
"""


def library(tmp_path, ranks, checkpoint_dir, last_step, out):
    launcher = find_mpiexec()
    if launcher is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(LIBRARY))
    proc = subprocess.run([launcher, "-n", str(ranks), sys.executable, str(script), str(checkpoint_dir),
                           str(last_step), str(out)], capture_output=True, text=True, cwd=ROOT, env=mpi_env(),
                          timeout=JOB_TIMEOUT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_library_program_resumed_on_other_rank_counts_continues_the_same_training(tmp_path):
    library(tmp_path, 3, tmp_path / "unused", 20, tmp_path / "whole.npz")
    library(tmp_path, 2, tmp_path / "ckpt", 7, tmp_path / "first.npz")
    library(tmp_path, 3, tmp_path / "ckpt", 20, tmp_path / "resumed.npz")
    assert_close(tmp_path / "whole.npz", tmp_path / "resumed.npz")
    first, whole = load(tmp_path / "first.npz"), load(tmp_path / "whole.npz")
    assert not np.allclose(first["0"], whole["0"], atol=1e-3)  # the resumed run did train on from step 7
