"""TF1 Estimator programs (tests/tf1_programs/) run as real processes: the custom-estimator iris tutorial, and
Horovod's MNIST Estimator example alone and on two MPI ranks, which must end with bitwise identical weights
while only rank 0 writes into model_dir (the other rank's model_dir is a temporary directory)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mpirun import find_mpiexec, mpi_env
from tests.test_tf1_programs import PROGRAMS, TIMEOUT, checkpoint_state, number, read_events, summaries


def run(name, *args, cwd, ranks=None):
    """Run tests/tf1_programs/<name> in cwd (temporary directories under cwd/tmp); its output."""
    command = [sys.executable, str(PROGRAMS / name), *map(str, args)]
    if ranks is not None:
        command = [find_mpiexec(), "-n", str(ranks), sys.executable, "-m", "mpi4py", *command[1:]]
    (cwd / "tmp").mkdir()
    done = subprocess.run(command, cwd=cwd, env=mpi_env(TMPDIR=str(cwd / "tmp")), capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, f"{name} exited with {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout + done.stderr


def test_custom_estimator_tutorial(tmp_path):
    out = run("custom_estimator.py", "--train_steps=300", "--tf_random_seed=2", cwd=tmp_path)  # seeded: one run
    assert number(r"Test set accuracy: ([\d.]+)", out) > 0.9
    predicted = re.findall(r'Prediction is "(\w+)" \([\d.]+%\), expected "(\w+)"', out)
    assert len(predicted) == 3 and all(got == expected for got, expected in predicted)
    model_dir = tmp_path / "iris_model"
    assert Path(checkpoint_state(model_dir)[0]).name == "model.ckpt-300"
    train_scalars = summaries(read_events(model_dir), "simple_value")
    assert {"loss", "accuracy", "global_step/sec"} <= set(train_scalars)
    assert [step for step, _ in train_scalars["loss"]] == [1, 101, 201]
    assert summaries(read_events(model_dir / "eval"), "simple_value")["accuracy"][0][0] == 300
    assert len(re.findall(r"INFO:ringflow:loss = [\d.e-]+, step = \d+", out)) == 3  # every 100 steps


def _ranks(out, size):
    # mpiexec may glue two ranks' lines together: a path ends where the next "rank N of" starts
    lines = re.findall(r"rank (\d) of (\d): accuracy ([\d.]+) step (\d+) checksum (\S+) model_dir (\S+?)(?=rank \d of |\s|$)",
                       out)
    assert sorted(int(r) for r, *_ in lines) == list(range(size)), out[-3000:]
    return {int(r): (float(acc), int(step), checksum, model_dir) for r, _, acc, step, checksum, model_dir in lines}


def test_horovod_estimator_alone(tmp_path):
    ranks = _ranks(run("horovod_mnist_estimator.py", "--steps=100", cwd=tmp_path), 1)
    accuracy, step, _, _ = ranks[0]
    assert accuracy > 0.7 and step == 100


@pytest.mark.skipif(find_mpiexec() is None, reason="no mpiexec")
def test_horovod_estimator_two_ranks(tmp_path):
    ranks = _ranks(run("horovod_mnist_estimator.py", "--steps=200", cwd=tmp_path, ranks=2), 2)
    assert ranks[0][2] == ranks[1][2]  # broadcast start, averaged gradients: the same weights to the last bit
    assert all(accuracy > 0.7 and step == 100 for accuracy, step, _, _ in ranks.values())  # 200 steps // 2 ranks
    assert ranks[0][3] == "./mnist_convnet_model" and Path(ranks[1][3]).parent == tmp_path / "tmp"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mnist_convnet_model", "tmp"]
    model_dir = tmp_path / "mnist_convnet_model"
    assert Path(checkpoint_state(model_dir)[0]).name == "model.ckpt-100"
    assert len(list(model_dir.glob("events.out.tfevents.*"))) == 1  # one writer: rank 0's
