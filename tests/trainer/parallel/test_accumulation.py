"""Gradient accumulation on one rank: K passes, one update equal to one step on the K-times larger batch.

Oracles: the gradient of the mean squared error over the concatenated batch in closed form (float64), and
`ringflow train` with a K-times larger --batch-size. Multi-rank closed forms are in tests/mpi/test_accumulation.py.
"""
import json

import numpy as np
import pytest

import allreduce
import trainer as tg
import trainer.horovod as hvd
from trainer.program import pass_sizes

from tests.trainer.program.test_cli import load, ringflow

ROWS = [3, 2, 4]  # three passes of unequal sizes
LR = 0.1
STEP_LR = float(np.float32(LR))  # what the float64 variables step by: TF1 reads the Python float LR as float32


def data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((sum(ROWS), 2)), rng.standard_normal(sum(ROWS)), np.array([0.5, -1.0])


def one_big_step(x, y, w):
    """SGD on the mean squared error over all rows at once."""
    return w - STEP_LR * 2 * x.T @ (x @ w - y) / len(y)


def build(make_optimizer):
    graph = tg.Graph()
    with graph.as_default():
        x, y = tg.placeholder(tg.float64, (None, 2)), tg.placeholder(tg.float64, (None,))
        rows = tg.placeholder(tg.float64, ())
        w = tg.Variable(np.array([0.5, -1.0]), name="w")
        loss = tg.reduce_mean(tg.square(tg.reduce_sum(x * w, axis=1) - y))
        step = tg.train.get_or_create_global_step()
        opt = make_optimizer(rows)
        train = opt.minimize(loss, global_step=step)
    return graph, (x, y, rows), w, step, train


def run_passes(graph, inputs, w, step, train, passes):
    x, y, rows = inputs
    with graph.as_default(), tg.train.MonitoredTrainingSession() as sess:
        seen = []
        for xs, ys in passes:
            sess.run(train, {x: xs, y: ys, rows: float(len(ys))})
            seen.append(sess.run([w, step]))
    return seen


def split(x, y):
    bounds = np.cumsum([0] + ROWS)
    return [(x[a:b], y[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def test_weighted_passes_make_one_step_on_the_whole_batch():
    x, y, w0 = data()
    communicator = allreduce.create_communicator("ring")
    graph, *rest = build(lambda rows: tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(LR), communicator,
                                                             weight=rows, backward_passes_per_step=3))
    seen = run_passes(graph, *rest, split(x, y) * 2)
    for w, step in seen[:2]:
        assert w.tobytes() == w0.tobytes() and step == 0  # nothing applied before the third pass
    np.testing.assert_allclose(seen[2][0], one_big_step(x, y, w0), rtol=1e-14)
    assert seen[2][1] == 1 and seen[5][1] == 2  # the global step counts updates
    np.testing.assert_allclose(seen[5][0], one_big_step(x, y, one_big_step(x, y, w0)), rtol=1e-14)


@pytest.mark.parametrize("average", [False, True])
def test_horovod_sums_the_passes_unless_told_to_average_them(average):
    hvd.shutdown()
    hvd.init(allreduce.create_communicator("ring"))
    x, y, w0 = data(1)
    graph, *rest = build(lambda rows: hvd.DistributedOptimizer(tg.train.GradientDescentOptimizer(LR),
                                                              backward_passes_per_step=3,
                                                              average_aggregated_gradients=average))
    seen = run_passes(graph, *rest, split(x, y))
    assert [int(step) for _, step in seen] == [1, 2, 3]  # Horovod: every pass advances the global step
    assert seen[1][0].tobytes() == w0.tobytes()
    grads = [2 * xs.T @ (xs @ w0 - ys) / len(ys) for xs, ys in split(x, y)]
    expected = w0 - STEP_LR * (np.mean(grads, axis=0) if average else np.sum(grads, axis=0))
    np.testing.assert_allclose(seen[2][0], expected, rtol=1e-14)
    hvd.shutdown()


def test_pass_sizes_split_evenly():
    assert pass_sizes(10, 4) == [3, 3, 2, 2] and pass_sizes(4, 4) == [1, 1, 1, 1] and sum(pass_sizes(7, 3)) == 7


ARGS = ["--model", "mlp", "--hidden", "8", "--dataset", "synthetic-classes", "--dtype", "float64", "--optimizer",
        "adam", "--lr", "0.01", "--seed", "5", "--no-progress"]


def test_the_cli_accumulates_to_the_larger_batch_and_resumes_between_steps(tmp_path):
    big = ringflow("train", *ARGS, "--steps", 8, "--batch-size", 48, "--save-final", tmp_path / "big.npz",
                   "--metrics-json", tmp_path / "big.json")
    assert big.returncode == 0, big.stderr
    small = ringflow("train", *ARGS, "--steps", 8, "--batch-size", 12, "--accumulate", 4, "--save-final",
                     tmp_path / "acc.npz", "--metrics-json", tmp_path / "acc.json")
    assert small.returncode == 0, small.stderr
    a, b = load(tmp_path / "big.npz"), load(tmp_path / "acc.npz")
    assert sorted(a) == sorted(b)  # the same variables: no accumulator is saved
    for name in a:
        np.testing.assert_allclose(b[name], a[name], rtol=1e-12, atol=1e-15, err_msg=name)
    big_m, acc_m = (json.loads((tmp_path / f).read_text()) for f in ("big.json", "acc.json"))
    assert acc_m["step"] == 8 and acc_m["loss"] == pytest.approx(big_m["loss"], rel=1e-12)

    ckpt = tmp_path / "c"
    half = ringflow("train", *ARGS, "--steps", 5, "--batch-size", 12, "--accumulate", 4, "--checkpoint-dir", ckpt)
    assert half.returncode == 0, half.stderr
    rest = ringflow("train", *ARGS, "--steps", 8, "--batch-size", 12, "--accumulate", 4, "--checkpoint-dir", ckpt,
                    "--save-final", tmp_path / "resumed.npz")
    assert rest.returncode == 0, rest.stderr
    c = load(tmp_path / "resumed.npz")
    for name in b:
        assert c[name].tobytes() == b[name].tobytes(), name


@pytest.mark.parametrize("args,code,message", [
    (["--accumulate", "0"], 2, "--accumulate '0': must be a whole number >= 1"),
    (["--batch-size", "600", "--accumulate", "4"], 1, "--batch-size 600 x --accumulate 4 = 2400 samples a step, "
                                                      "more than the 2048 examples"),
])
def test_bad_accumulation_is_refused(args, code, message):
    out = ringflow("train", *ARGS, "--steps", 1, *args)
    assert out.returncode == code and message in out.stderr, out.stderr
