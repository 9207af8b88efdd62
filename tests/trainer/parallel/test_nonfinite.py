"""A diverging run never destroys good checkpoints: the nonfinite policy of DistributedOptimizer (raise before any
update, or skip the update), checkpoints and --save-final refused with NaN/inf, resume passing over non-finite
checkpoints, strict metrics JSON; the library on one rank, then `ringflow train` as a user runs it."""
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import allreduce
import trainer as tg
from trainer.train import checkpoint
from trainer.platform.data_checks import DatasetError
from trainer.program.loop import Config, train
from trainer.parallel.nonfinite import NonFiniteError, NonFiniteGradientError, describe_nonfinite
from trainer.program import find_checkpoint, strict_json

from tests.mpirun import find_mpiexec, mpi_env
from tests.trainer.program.test_cli import ROOT, ringflow

OPTIMIZERS = {"sgd": lambda: tg.train.GradientDescentOptimizer(0.1),
              "momentum": lambda: tg.train.MomentumOptimizer(0.1, 0.9),
              "adam": lambda: tg.train.AdamOptimizer(0.1)}
GOOD = (np.array([[1.0, 2.0], [3.0, -1.0]]), np.array([1.0, 0.5]))
NAN = (np.array([[1.0, np.nan], [3.0, -1.0]]), np.array([1.0, 0.5]))


def strict_loads(text):
    def refuse(constant):
        raise ValueError(f"not strict JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def all_finite(path):
    """Whether every float array of an .npz file, or of a checkpoint's .index, is finite."""
    if str(path).endswith(".index"):
        arrays = checkpoint.read(str(path))[0]
    else:
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in f.files}
    return all(np.isfinite(a).all() for a in arrays.values() if a.dtype.kind == "f")


# --- the check itself --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_describe_nonfinite_counts_like_numpy(dtype):
    a = np.linspace(-1, 1, 1000).astype(dtype)
    assert describe_nonfinite(a) is None
    a[[3, 500]], a[7], a[9] = np.nan, np.inf, -np.inf
    assert describe_nonfinite(a) == "2 NaN and 2 inf of 1000 values"
    assert describe_nonfinite(np.array(np.nan, dtype)) == "1 NaN and 0 inf of 1 values"


def test_large_finite_values_are_finite_and_integers_are_never_checked():
    big = np.full(100, np.finfo(np.float32).max / 2, np.float32)  # its sum of squares overflows
    assert describe_nonfinite(big) is None and describe_nonfinite(big.reshape(10, 10).T) is None
    assert describe_nonfinite(np.arange(5)) is None


def test_strict_json_turns_nan_and_inf_into_null():
    value = {"loss": float("nan"), "acc": np.float32(0.5), "per_rank": [np.inf, 1.0, -np.inf], "step": 3}
    text = json.dumps(strict_json(value), allow_nan=False)
    assert strict_loads(text) == {"loss": None, "acc": 0.5, "per_rank": [None, 1.0, None], "step": 3}


# --- the library: DistributedOptimizer(nonfinite=...) on one rank ------------------------------------------
def regression(optimizer, policy, lr_placeholder=False):
    graph = tg.Graph()
    with graph.as_default():
        x, y = tg.placeholder(tg.float64, (None, 2)), tg.placeholder(tg.float64, (None,))
        w = tg.Variable(np.array([0.5, -0.25]), name="w")
        b = tg.Variable(np.array([0.1]), name="b")
        loss = tg.reduce_mean(tg.square(tg.reduce_sum(x * w, axis=1) + b - y))
        step = tg.train.get_or_create_global_step()
        lr = tg.placeholder(tg.float64, (), name="lr") if lr_placeholder else None
        base = tg.train.GradientDescentOptimizer(lr) if lr_placeholder else OPTIMIZERS[optimizer]()
        if policy == "plain":
            opt, train_op = base, base.minimize(loss, global_step=step)
        else:
            opt = tg.DistributedOptimizer(base, allreduce.create_communicator("ring"), nonfinite=policy)
            train_op = opt.minimize(loss, global_step=step)
        sess = tg.Session(graph=graph)
        sess.run(tg.global_variables_initializer())
    feeds = (lambda d: {x: d[0], y: d[1], **({lr: 0.1} if lr_placeholder else {})})
    return sess, opt, train_op, feeds, step


def state(sess):
    return {v.name: value for v, value in zip(sess.graph.get_collection("variables"),
                                              sess.run(sess.graph.get_collection("variables")))}


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_raise_names_the_step_and_first_variable_before_any_update(optimizer):
    sess, opt, train_op, feed, _ = regression(optimizer, "raise")
    sess.run(train_op, feed(GOOD))
    before = state(sess)
    with pytest.raises(NonFiniteGradientError) as info:
        sess.run(train_op, feed(NAN))
    message = str(info.value)
    assert "global step 1" in message and "'w:0' holds 2 NaN and 0 inf of 2 values" in message, message
    assert "1 more of the 2 gradients" in message and "nonfinite='skip'" in message
    assert isinstance(info.value, tg.errors.InvalidArgumentError) and isinstance(info.value, ValueError)
    after = state(sess)  # weights, slots, Adam's powers and the global step: bitwise as before
    assert all(after[n].tobytes() == before[n].tobytes() for n in before)


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_skip_leaves_the_update_out_and_counts_it(optimizer):
    sess, opt, train_op, feed, step = regression(optimizer, "skip")
    plain, _, plain_op, plain_feed, _ = regression(optimizer, "plain")
    for batch in (GOOD, NAN, GOOD, NAN, NAN):
        sess.run(train_op, feed(batch))
    for batch in (GOOD, GOOD):  # the oracle: the plain optimizer never sees the bad batches
        plain.run(plain_op, plain_feed(batch))
    got, want = state(sess), state(plain)
    assert opt.nonfinite_skips == 3 and int(got.pop("global_step:0")) == 5  # skipped steps still count
    want.pop("global_step:0")
    assert all(got[n].tobytes() == want[n].tobytes() for n in want)


def test_skip_feeds_the_branch_what_it_reads_from_outside_and_keeps_control_dependencies():
    sess, opt, train_op, feed, _ = regression("sgd", "skip", lr_placeholder=True)
    with sess.graph.as_default():
        counter = tg.Variable(0, name="counter")
        with tg.control_dependencies([counter.assign_add(1)]):  # TF1's UPDATE_OPS idiom
            guarded = tg.identity(tg.constant(0.0))
        gated = tg.group(train_op, guarded)
        sess.run(counter.initializer)
    for batch in (GOOD, NAN, GOOD):
        sess.run(gated, feed(batch))
    plain, _, plain_op, plain_feed, _ = regression("sgd", "plain", lr_placeholder=True)
    for batch in (GOOD, GOOD):
        plain.run(plain_op, plain_feed(batch))
    assert sess.run(counter) == 3 and opt.nonfinite_skips == 1
    np.testing.assert_array_equal(state(sess)["w:0"], state(plain)["w:0"])


def test_no_policy_applies_nan_and_an_unknown_policy_is_refused():
    sess, opt, train_op, feed, _ = regression("sgd", None)
    sess.run(train_op, feed(NAN))
    assert np.isnan(state(sess)["w:0"]).all()
    with pytest.raises(ValueError, match=r"nonfinite='ignore' is not a policy: use 'raise'"):
        tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1), allreduce.create_communicator("ring"),
                                nonfinite="ignore")


# --- the program, in this process ------------------------------------------------------------------------
SMALL = dict(model="mlp", hidden=(8,), dataset="synthetic-classes", batch_size=32, progress=False)


def test_a_checkpoint_is_never_written_with_inf(tmp_path):
    # lr 1e39 is inf in float32: the first update is made of finite gradients and overflows the weights.
    ckpt = tmp_path / "ckpt"
    with pytest.raises(NonFiniteError, match=r"not writing the checkpoint of step 1 .* holds 0 NaN and \d+ inf"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        train(Config(**SMALL, steps=4, lr=1e39, nonfinite="skip", checkpoint_dir=str(ckpt), checkpoint_every_steps=1))
    assert [p for p in os.listdir(ckpt) if p.startswith("model.ckpt")] == []
    with pytest.raises(NonFiniteError, match=r"not writing --save-final '.*w.npz': variable"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        train(Config(**SMALL, steps=2, lr=1e39, nonfinite="skip", save_final=str(tmp_path / "w.npz")))
    assert not (tmp_path / "w.npz").exists()


def test_resume_passes_over_a_checkpoint_with_nan(tmp_path):
    ckpt = str(tmp_path)
    train(Config(**SMALL, steps=4, checkpoint_dir=ckpt, checkpoint_every_steps=2))
    prefix = os.path.join(ckpt, "model.ckpt-4")
    arrays, meta = checkpoint.read(prefix + ".index")
    arrays["hidden1/kernel"] = np.full_like(arrays["hidden1/kernel"], np.nan)
    checkpoint.write_npz(prefix + ".npz", arrays, meta)  # as an older ringflow wrote during a diverging run
    for ext in (".index", ".data-00000-of-00001"):
        os.remove(prefix + ext)
    graph = tg.Graph()
    with graph.as_default():
        v = [tg.get_variable(name, arrays[name].shape, tg.dtypes.as_dtype(arrays[name].dtype))
             for name in sorted(arrays)]
        with pytest.warns(RuntimeWarning, match=r"skipping checkpoint .*model.ckpt-4.*'hidden1/kernel' holds \d+ NaN"):
            found = find_checkpoint(ckpt, tg.train.Saver(v), v)
    assert found.path.endswith("model.ckpt-2")


def test_data_with_huge_values_or_nan_stops_at_the_first_non_finite_gradient_or_skips_it(tmp_path):
    # 1e30 is a finite float32, but its square (the loss) is not.
    x = np.random.default_rng(0).standard_normal((64, 3)).astype(np.float32)
    x[40] = 1e30
    path = str(tmp_path / "huge.npz")
    np.savez(path, x=x, y=x.sum(axis=1))
    with pytest.raises(NonFiniteGradientError, match=r"at global step \d+: the gradient of 'weight:0'"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        train(Config(model="linear", dataset=f"npz:{path}", batch_size=16, steps=8, progress=False))
    np.savez(path, x=np.where(x > 1e29, np.nan, x), y=x.sum(axis=1))
    with pytest.raises(Exception, match="x holds nan at index") as info:  # refused when the data is loaded
        train(Config(model="linear", dataset=f"npz:{path}", batch_size=16, steps=8, progress=False))
    assert isinstance(info.value.__cause__ or info.value, DatasetError)
    metrics = tmp_path / "m.json"
    result = train(Config(model="linear", dataset=f"npz:{path}", batch_size=16, steps=8, progress=False,
                          allow_nonfinite_data=True, nonfinite="skip", metrics_json=str(metrics)))
    # 64 rows, batches of 16: the batches holding row 40 are 1 in 4; the loss over all the data is NaN.
    assert result["nonfinite_skips"] == 2 and strict_loads(metrics.read_text())["loss"] is None


# --- `ringflow train` in a subprocess -----------------------------------------------------------------------
CLI = ["--model", "mlp", "--hidden", "16", "--dataset", "synthetic-classes", "--batch-size", "32", "--steps", "30",
       "--lr", "1e12", "--no-progress", "--checkpoint-every-steps", "1", "--keep-checkpoints", "2"]


def checkpoints(directory):
    """The indexes of the checkpoints in directory, by step."""
    return sorted((p for p in os.listdir(directory) if p.endswith(".index")), key=lambda p: int(p[11:-6]))


def test_cli_raise_exits_non_zero_naming_step_and_variable_and_keeps_finite_checkpoints(tmp_path):
    out = ringflow("train", *CLI, "--checkpoint-dir", tmp_path / "ck", "--metrics-json", tmp_path / "m.json",
                   "--save-final", tmp_path / "w.npz")
    assert out.returncode == 1
    errors = [line for line in out.stderr.splitlines() if line.startswith("ringflow: error")]
    assert len(errors) == 1 and "NonFiniteGradientError" in errors[0], out.stderr
    assert "non-finite gradient at global step 2: the gradient of 'hidden1/kernel:0'" in errors[0]
    assert checkpoints(tmp_path / "ck") == ["model.ckpt-1.index", "model.ckpt-2.index"]  # the newest finite kept
    assert all(all_finite(tmp_path / "ck" / p) for p in checkpoints(tmp_path / "ck"))
    assert not (tmp_path / "m.json").exists() and not (tmp_path / "w.npz").exists()


def test_cli_skip_finishes_with_finite_files_and_strict_metrics_json(tmp_path):
    out = ringflow("train", *CLI, "--nonfinite", "skip", "--checkpoint-dir", tmp_path / "ck",
                   "--metrics-json", tmp_path / "m.json", "--save-final", tmp_path / "w.npz")
    assert out.returncode == 0, out.stderr
    metrics = strict_loads((tmp_path / "m.json").read_text())
    assert metrics["step"] == 30 and metrics["nonfinite_skips"] == 28 and metrics["loss"] is None
    assert checkpoints(tmp_path / "ck") == ["model.ckpt-29.index", "model.ckpt-30.index"]
    assert all_finite(tmp_path / "ck" / "model.ckpt-30.index") and all_finite(tmp_path / "w.npz")


def test_cli_two_ranks_raise_alike_and_skip_alike(tmp_path):
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec")
    cmd = [mpiexec, "-n", "2", sys.executable, "-m", "trainer", "train", *CLI]
    raised = subprocess.run(cmd + ["--checkpoint-dir", str(tmp_path / "ck")], capture_output=True, text=True,
                            timeout=120, cwd=ROOT, env=mpi_env(RINGFLOW_TIMEOUT="60"))
    assert raised.returncode != 0
    errors = [line for line in raised.stderr.splitlines() if line.startswith("ringflow: error")]
    # Every rank that got to print names the same step and variable. (MPI_Abort from the first rank may kill
    # mpiexec's output forwarding before a line arrives: the CLI's abort path, not this policy.)
    assert len({line.split(": ", 2)[2] for line in errors}) <= 1 and all(
        "NonFiniteGradientError" in line and "at global step 2: the gradient of 'hidden1/kernel:0'" in line
        for line in errors), raised.stderr
    assert all(all_finite(tmp_path / "ck" / p) for p in checkpoints(tmp_path / "ck"))
    skipped = subprocess.run(cmd + ["--nonfinite", "skip", "--metrics-json", str(tmp_path / "m.json")],
                             capture_output=True, text=True, timeout=120, cwd=ROOT, env=mpi_env(RINGFLOW_TIMEOUT="60"))
    assert skipped.returncode == 0, skipped.stderr
    metrics = strict_loads((tmp_path / "m.json").read_text())
    assert metrics["ranks"] == 2 and metrics["step"] == 30 and metrics["nonfinite_skips"] > 0
