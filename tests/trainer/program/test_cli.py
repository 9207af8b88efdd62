"""`ringflow train` as a user runs it: one rank, no mpiexec, in a subprocess."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import trainer as tg
from trainer.train import checkpoint

from tests.mpirun import find_mpiexec, mpi_env

ROOT = str(pathlib.Path(__file__).resolve().parents[3])  # the repository
SMALL = ["--model", "mlp", "--hidden", "16", "--dataset", "synthetic-classes", "--batch-size", "32",
         "--optimizer", "adam", "--lr", "0.01", "--seed", "3", "--no-progress"]


def ringflow(*args, timeout=120):
    exe = shutil.which("ringflow", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "trainer"]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", PYTHONPATH=ROOT)
    for name in ("PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"):
        env.pop(name, None)  # a test run under mpiexec must not make these look like ranks of its job
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=env)


def load(path):
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def test_help_lists_every_contract_flag():
    top = ringflow("--help")
    assert top.returncode == 0 and "train" in top.stdout
    out = ringflow("train", "--help")
    assert out.returncode == 0
    for flag in ("--model", "--dataset", "--batch-size", "--steps", "--epochs", "--optimizer", "--lr", "--seed",
                 "--dtype", "--allreduce", "--device", "--checkpoint-dir", "--checkpoint-every-steps", "--logdir",
                 "--timeline", "--save-final", "--metrics-json"):
        assert flag in out.stdout, flag


def test_linear_regression_learns_y_equals_2x(tmp_path):
    out = ringflow("train", "--model", "linear", "--dataset", "synthetic-linear", "--batch-size", "10",
                   "--epochs", "20", "--lr", "0.1", "--dtype", "float64", "--metrics-json", tmp_path / "m.json",
                   "--save-final", tmp_path / "w.npz")
    assert out.returncode == 0, out.stderr
    metrics = json.loads((tmp_path / "m.json").read_text())
    assert metrics["step"] == 200 and metrics["ranks"] == 1 and metrics["loss"] < 0.12
    weights = load(tmp_path / "w.npz")
    assert abs(weights["weight:0"][0] - 2) < 0.15 and "global_step:0" in weights
    assert "loss" in out.stdout  # the log lines show the loss


def test_resumed_run_equals_an_uninterrupted_one(tmp_path):
    whole = ringflow("train", *SMALL, "--steps", 40, "--save-final", tmp_path / "whole.npz")
    assert whole.returncode == 0, whole.stderr
    ckpt = tmp_path / "ckpt"
    first = ringflow("train", *SMALL, "--steps", 25, "--checkpoint-dir", ckpt, "--checkpoint-every-steps", 10)
    assert first.returncode == 0, first.stderr
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(10, 20, 25)
    assert tg.train.latest_checkpoint(str(ckpt)) == str(ckpt / "model.ckpt-25")  # TF1's state file names it
    second = ringflow("train", *SMALL, "--steps", 40, "--checkpoint-dir", ckpt, "--checkpoint-every-steps", 10,
                      "--save-final", tmp_path / "resumed.npz", "--metrics-json", tmp_path / "m.json")
    assert second.returncode == 0, second.stderr
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 25
    a, b = load(tmp_path / "whole.npz"), load(tmp_path / "resumed.npz")
    assert sorted(a) == sorted(b) and any("Adam" in k or "adam" in k.lower() for k in a)  # slots are saved
    for k in a:
        assert a[k].tobytes() == b[k].tobytes(), k
    assert int(a["global_step:0"]) == 40


def tf_files(*steps):
    """The files of TF's checkpoints model.ckpt-<step> (the graph in .meta, as TF's Saver writes it), sorted."""
    return sorted(f"model.ckpt-{step}{ext}" for step in steps for ext in (".index", ".data-00000-of-00001", ".meta"))


def test_a_run_resumes_exactly_from_the_npz_checkpoints_an_earlier_ringflow_wrote(tmp_path):
    assert ringflow("train", *SMALL, "--steps", 30, "--save-final", tmp_path / "whole.npz").returncode == 0
    ckpt = tmp_path / "ckpt"
    assert ringflow("train", *SMALL, "--steps", 20, "--checkpoint-dir", ckpt).returncode == 0
    prefix = str(ckpt / "model.ckpt-20")
    arrays, record = checkpoint.read(prefix + ".index")
    checkpoint.write_npz(prefix + ".npz", arrays, record)  # model.ckpt-20.npz, the state file as it was
    for name in tf_files(20):
        os.remove(ckpt / name)
    out = ringflow("train", *SMALL, "--steps", 30, "--checkpoint-dir", ckpt, "--save-final", tmp_path / "resumed.npz",
                   "--metrics-json", tmp_path / "m.json")
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 20
    assert_same_weights(tmp_path / "whole.npz", tmp_path / "resumed.npz")
    assert sorted(os.listdir(ckpt)) == ["checkpoint", "model.ckpt-20.npz"] + tf_files(30)


def assert_same_weights(a_path, b_path):
    a, b = load(a_path), load(b_path)
    assert sorted(a) == sorted(b)
    for k in a:
        assert a[k].tobytes() == b[k].tobytes(), k


def test_a_damaged_newest_checkpoint_is_skipped_with_a_warning(tmp_path):
    assert ringflow("train", *SMALL, "--steps", 30, "--save-final", tmp_path / "whole.npz").returncode == 0
    ckpt = tmp_path / "ckpt"
    first = ringflow("train", *SMALL, "--steps", 20, "--checkpoint-dir", ckpt, "--checkpoint-every-steps", 10)
    assert first.returncode == 0, first.stderr
    newest = ckpt / "model.ckpt-20.data-00000-of-00001"
    newest.write_bytes(newest.read_bytes()[:-100])  # a crash of the disk, not of the atomic writer
    second = ringflow("train", *SMALL, "--steps", 30, "--checkpoint-dir", ckpt, "--save-final",
                      tmp_path / "resumed.npz", "--metrics-json", tmp_path / "m.json")
    assert second.returncode == 0, second.stderr
    assert "skipping checkpoint" in second.stderr and "model.ckpt-20" in second.stderr
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 10
    assert_same_weights(tmp_path / "whole.npz", tmp_path / "resumed.npz")


def test_a_checkpoint_of_an_older_ringflow_resumes(tmp_path):
    """Before tg.train.Saver, `ringflow train` wrote DIR/ckpt-<step:08d>.npz with variables by graph name."""
    assert ringflow("train", *SMALL, "--steps", 30, "--save-final", tmp_path / "whole.npz").returncode == 0
    new = tmp_path / "new"
    assert ringflow("train", *SMALL, "--steps", 20, "--checkpoint-dir", new).returncode == 0
    reader = tg.train.load_checkpoint(str(new / "model.ckpt-20"))
    arrays = {k + ":0": reader.get_tensor(k) for k in reader.get_variable_to_shape_map()}
    meta = dict(tg.train.checkpoint_meta(str(new / "model.ckpt-20")), step=20)
    old = tmp_path / "old"
    checkpoint.write_npz(str(old / "ckpt-00000020.npz"), arrays, meta)
    out = ringflow("train", *SMALL, "--steps", 30, "--checkpoint-dir", old, "--save-final", tmp_path / "resumed.npz",
                   "--metrics-json", tmp_path / "m.json")
    assert out.returncode == 0, out.stderr
    assert json.loads((tmp_path / "m.json").read_text())["resumed_from_step"] == 20
    assert_same_weights(tmp_path / "whole.npz", tmp_path / "resumed.npz")
    assert sorted(os.listdir(old)) == ["checkpoint", "ckpt-00000020.npz"] + tf_files(30)


def test_the_engine_does_not_import_the_program():
    code = ("import sys, trainer, trainer.client.session, trainer.ops.gradients; "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['trainer', 'program'], "
            "['trainer', 'loop'], ['trainer', 'cli'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.returncode == 0 and out.stdout.strip() == "[]", (out.stdout, out.stderr)


def test_python_dash_m_trainer(tmp_path):
    cmd = [sys.executable, "-m", "trainer", "train", *map(str, SMALL), "--steps", "3"]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env=dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1"))
    assert out.returncode == 0, out.stderr


def test_tensorboard_timeline_and_kept_checkpoints(tmp_path):
    pytest.importorskip("tensorboardX")
    out = ringflow("train", *SMALL, "--steps", 12, "--logdir", tmp_path / "tb", "--timeline", tmp_path / "t.json",
                   "--checkpoint-dir", tmp_path / "c", "--checkpoint-every-steps", 3, "--keep-checkpoints", 2)
    assert out.returncode == 0, out.stderr
    (events_file,) = [name for name in os.listdir(tmp_path / "tb") if name.startswith("events.out.tfevents")]
    tags = {(e.step, v.tag) for e in tg.train.summary_iterator(str(tmp_path / "tb" / events_file))
            for v in (e.summary.value if e.summary else [])}
    assert {(12, "train/loss"), (12, "train/accuracy"), (12, "final_metrics")} <= tags
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    assert len([e for e in events if e.get("name") == "compute"]) == 12
    assert sorted(os.listdir(tmp_path / "c")) == ["checkpoint"] + tf_files(9, 12)


@pytest.mark.parametrize("args,code,message", [
    (["--model", "resnet", "--dataset", "synthetic-classes"], 2, "invalid choice: 'resnet'"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--batch-size", "0"], 2, "--batch-size"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--lr", "fast"], 2, "--lr"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--steps", "3", "--epochs", "1"], 2, "not allowed"),
    (["--model", "mlp", "--dataset", "imagenet"], 1, "unknown dataset 'imagenet'"),
    (["--model", "mlp", "--dataset", "mnist:/nonexistent/mnist"], 1, "/nonexistent/mnist"),
    (["--model", "linear", "--dataset", "synthetic-classes"], 1, "model 'linear'"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--allreduce", "carrier-pigeon"], 2,
     "--allreduce 'carrier-pigeon': unknown communicator; known: auto, "),
    # flags go through trainer.program.config_checks: refused in a millisecond, naming the flag, not as a late crash
    (["--model", "mlp", "--dataset", "synthetic-classes", "--batch-size", "1e11"], 1,
     "--batch-size 100000000000 is larger than the 2048 examples of 'synthetic-classes'"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--batch-size", "2.5"], 2, "--batch-size '2.5'"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--epochs", "inf"], 2, "--epochs 'inf': must be a finite"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--epochs", "1e30"], 1, "more than the int64 global step"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--lr", "nan"], 2, "--lr 'nan'"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--seed", "-1"], 2, "--seed '-1': must be a whole number"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--checkpoint-every-steps", "0"], 2,
     "--checkpoint-every-steps '0'"),
    (["--model", "linear", "--dataset", "synthetic-linear", "--hidden", "8"], 2,
     "model 'linear' has no 'hidden' (--hidden): it takes no hyper-parameters"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--checkpoint-dir", ""], 2,
     "--checkpoint-dir '': an empty path"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--hidden", ""], 2,
     "argument --hidden: '' gives no layer sizes; give at least one, such as 512,512"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--checkpoint-every-secs", "-1"], 2,
     "--checkpoint-every-secs '-1': must be a finite number >= 0"),
    (["--model", "mlp", "--dataset", "synthetic-classes", "--save-final", " "], 2, "--save-final ' ': an empty path"),
])
def test_bad_input_is_a_clear_error_without_traceback(args, code, message):
    out = ringflow("train", *args, "--steps", 1) if "--steps" not in args and "--epochs" not in args \
        else ringflow("train", *args)
    assert out.returncode == code, (out.stdout, out.stderr)
    assert message in out.stderr and "Traceback" not in out.stderr


def test_a_bad_environment_variable_is_named_before_anything_starts():
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=ROOT, RINGFLOW_TIMEOUT="0")
    out = subprocess.run([sys.executable, "-m", "trainer", "train", *SMALL, "--steps", "1"], capture_output=True,
                         text=True, cwd=ROOT, timeout=60, env=env)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("ringflow: error: RINGFLOW_TIMEOUT='0': must be a number of seconds > 0"), out.stderr


def test_nonfinite_data_is_refused_unless_allowed(tmp_path):
    x = np.ones((40, 2), np.float32)
    x[3, 1] = np.nan
    np.savez(tmp_path / "d.npz", x=x, y=np.arange(40) % 2)
    args = ["--model", "logistic", "--dataset", f"npz:{tmp_path / 'd.npz'}", "--batch-size", "10", "--steps", "0",
            "--no-progress", "--save-final", tmp_path / "w.npz"]
    refused = ringflow("train", *args)
    assert refused.returncode == 1 and "x holds nan at index (3, 1)" in refused.stderr, refused.stderr
    assert not (tmp_path / "w.npz").exists()
    allowed = ringflow("train", *args, "--allow-nonfinite-data")
    assert allowed.returncode == 0, allowed.stderr
    assert int(load(tmp_path / "w.npz")["global_step:0"]) == 0


def test_checkpoint_of_another_model_is_refused(tmp_path):
    ckpt = tmp_path / "c"
    assert ringflow("train", *SMALL, "--steps", 2, "--checkpoint-dir", ckpt).returncode == 0
    out = ringflow("train", "--model", "logistic", "--dataset", "synthetic-classes", "--steps", 4,
                   "--checkpoint-dir", ckpt)
    assert out.returncode == 1 and "does not fit this model" in out.stderr
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(2)  # the user's checkpoint is untouched


def test_a_failing_rank_ends_the_whole_job_in_seconds(tmp_path):
    """Rank 0 alone fails (it restores a checkpoint of another model) while rank 1 waits for its broadcast."""
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec")
    ckpt = tmp_path / "ckpt"
    first = ringflow("train", "--model", "linear", "--dataset", "synthetic-linear", "--batch-size", "10",
                     "--steps", "3", "--checkpoint-dir", ckpt, "--no-progress")
    assert first.returncode == 0, first.stderr
    saved = {p.name: p.read_bytes() for p in ckpt.iterdir()}
    env = mpi_env(RINGFLOW_TIMEOUT="600")
    cmd = [mpiexec, "-n", "2", sys.executable, "-m", "trainer", "train", *SMALL, "--steps", "5",
           "--checkpoint-dir", str(ckpt)]
    start = __import__("time").monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    elapsed = __import__("time").monotonic() - start
    assert proc.returncode != 0
    assert "error on rank 0" in proc.stderr and "checkpoint" in proc.stderr.lower(), proc.stderr
    assert elapsed < 60, f"the job took {elapsed:.0f} s to end (RINGFLOW_TIMEOUT was 600 s): it hung"
    assert {p.name: p.read_bytes() for p in ckpt.iterdir()} == saved  # the user's checkpoints are untouched
