"""`ringflow train` fails before the work, not after; one job per checkpoint directory; SIGTERM saves; the ranks
agree before step 1; a configuration error is printed once. Real processes: `.venv/bin/ringflow` alone and
under `mpiexec`. Each job's time to exit is printed (pytest -s)."""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

from trainer.train import checkpoint
from trainer.program import DirectoryLock, name_the_flag
from trainer.program.outputs.dir_lock import LOCK_NAME

from .mpirun import ROOT, find_mpiexec, mpi_env

SMALL = ["--model", "mlp", "--hidden", "16", "--dataset", "synthetic-classes", "--batch-size", "32",
         "--optimizer", "adam", "--seed", "3"]
FOREVER = 10**9  # --steps of a run that must never reach its first write: the test would time out first
JOB_TIMEOUT_S = 60
EARLY_S = 5  # "before step 1": ~0.4 s alone on an idle machine; margin for 2 shared cores


def command():
    exe = os.path.join(os.path.dirname(sys.executable), "ringflow")
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "trainer"]


def env():
    environ = mpi_env(PYTHONUNBUFFERED="1")
    for name in ("PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"):
        environ.pop(name, None)  # under an outer mpiexec these would make the job look like one of its ranks
    return environ


def ringflow(*args, cwd=ROOT):
    start = time.monotonic()
    out = subprocess.run(command() + ["train", *map(str, args)], capture_output=True, text=True,
                         timeout=JOB_TIMEOUT_S, cwd=cwd, env=env())
    out.seconds = time.monotonic() - start
    print(f"[ringflow {' '.join(map(str, args[-3:]))}] exit {out.returncode} after {out.seconds:.2f} s")
    return out


def mpiexec(*parts, cwd=ROOT):
    """An mpiexec job; `parts` are its arguments, "ringflow" standing for the command."""
    launcher = find_mpiexec()
    if launcher is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    cmd = [launcher] + [piece for part in parts for piece in (command() + ["train"] if part == "ringflow"
                                                              else [str(part)])]
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=JOB_TIMEOUT_S, cwd=cwd, env=env())
    out.seconds = time.monotonic() - start
    print(f"[mpiexec job] exit {out.returncode} after {out.seconds:.2f} s")
    return out


def load(path):
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files if k != checkpoint.META}


def assert_same(a_path, b_path):
    a, b = load(a_path), load(b_path)
    assert sorted(a) == sorted(b)
    for key in a:
        assert a[key].tobytes() == b[key].tobytes(), key


def dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# --- outputs are checked before step 1 ------------------------------------------------------------------------
@pytest.mark.parametrize("flag", ["--checkpoint-dir", "--logdir", "--save-final", "--metrics-json", "--timeline"])
def test_an_output_that_cannot_be_created_fails_before_step_1_naming_the_flag(tmp_path, flag):
    (tmp_path / "file").write_text("a regular file: nothing can be created under it, not even by root")
    bad = tmp_path / "file" / "sub" / "out"
    out = ringflow(*SMALL, "--steps", FOREVER, "--no-progress", flag, bad)
    assert out.returncode == 1, out.stderr
    assert f"ringflow: error: {flag} '{bad}'" in out.stderr and "Not a directory" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and out.seconds < EARLY_S


def test_an_output_in_a_directory_nobody_can_write_names_the_flag(tmp_path):
    out = ringflow(*SMALL, "--steps", FOREVER, "--no-progress", "--save-final", "/proc/ringflow-weights.npz")
    assert out.returncode == 1 and "--save-final '/proc/ringflow-weights.npz'" in out.stderr, out.stderr
    assert "cannot write in its directory '/proc'" in out.stderr and out.seconds < EARLY_S


def test_a_read_only_checkpoint_dir_is_refused(tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root writes into a directory whatever its mode: only a read-only mount would stop it")
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir(mode=0o500)
    out = ringflow(*SMALL, "--steps", FOREVER, "--no-progress", "--checkpoint-dir", ckpt)
    assert out.returncode == 1 and f"--checkpoint-dir '{ckpt}': cannot write in the directory" in out.stderr


def test_an_output_path_that_is_a_directory_or_empty_is_refused(tmp_path):
    out = ringflow(*SMALL, "--steps", FOREVER, "--no-progress", "--metrics-json", tmp_path)
    assert out.returncode == 1 and f"--metrics-json '{tmp_path}' is a directory" in out.stderr
    out = ringflow(*SMALL, "--steps", 1, "--checkpoint-dir", "")
    assert out.returncode == 2 and "--checkpoint-dir '': an empty path" in out.stderr


def test_a_failed_write_leaves_no_temp_file_and_names_the_flag(tmp_path):
    from trainer.program.loop import Config, write_json
    path = tmp_path / "m.json"
    with pytest.raises(TypeError):
        write_json(str(path), {"not JSON": object()})
    assert os.listdir(tmp_path) == []
    config = Config(model="mlp", dataset="synthetic-classes", metrics_json=str(path))
    failed = OSError(28, "No space left on device", f"{path}.tmp-1234")
    assert str(name_the_flag(failed, config)) == (f"--metrics-json '{path}': writing '{path}' failed "
                                                  "(No space left on device)")
    assert name_the_flag(OSError(28, "No space", "/elsewhere"), config) is None


def tf_files(*steps):
    """The files of TF's checkpoints model.ckpt-<step> (the graph in .meta, as TF's Saver writes it), sorted."""
    return sorted(f"model.ckpt-{step}{ext}" for step in steps for ext in (".index", ".data-00000-of-00001", ".meta"))


def test_stale_temp_files_of_a_killed_run_are_removed_and_reported(tmp_path):
    ckpt, pid = tmp_path / "ckpt", dead_pid()
    ckpt.mkdir()
    (ckpt / f"model.ckpt-20.data-00000-of-00001.tmp-{pid}").write_bytes(b"\0" * 3000)  # killed mid-write
    (ckpt / f"checkpoint.tmp-{pid}").write_text("half")
    (tmp_path / f"m.json.tmp-{pid}").write_text("{")
    (tmp_path / f"m.json.tmp-{os.getpid()}").write_text("{")  # a live writer's file is left alone
    out = ringflow(*SMALL, "--steps", 2, "--no-progress", "--checkpoint-dir", ckpt, "--metrics-json",
                   tmp_path / "m.json")
    assert out.returncode == 0, out.stderr
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(2)
    assert sorted(os.listdir(tmp_path)) == ["ckpt", "m.json", f"m.json.tmp-{os.getpid()}"]
    for name in (f"model.ckpt-20.data-00000-of-00001.tmp-{pid}", f"checkpoint.tmp-{pid}", f"m.json.tmp-{pid}"):
        assert f"ringflow: removed '{tmp_path}" in out.stderr and name in out.stderr, out.stderr
    assert "(2.9 KiB), a temporary file of --checkpoint-dir left by an interrupted run" in out.stderr


# --- one job per checkpoint directory -------------------------------------------------------------------------
def test_a_second_job_on_a_locked_checkpoint_dir_fails_naming_the_holder(tmp_path):
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    with DirectoryLock(str(ckpt)):  # this test process is the other job
        out = ringflow(*SMALL, "--steps", FOREVER, "--no-progress", "--checkpoint-dir", ckpt)
    assert out.returncode == 1 and out.seconds < EARLY_S
    assert (f"--checkpoint-dir '{ckpt}' is in use by another job (pid {os.getpid()} on host "
            f"{socket.gethostname()!r}") in out.stderr, out.stderr
    assert os.listdir(ckpt) == []  # the holder released it; the refused job wrote nothing


def test_a_lock_left_by_a_dead_job_is_taken_over(tmp_path):
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    pid = dead_pid()
    (ckpt / LOCK_NAME).write_text(json.dumps({"host": socket.gethostname(), "pid": pid, "since": "then"}))
    out = ringflow(*SMALL, "--steps", 2, "--no-progress", "--checkpoint-dir", ckpt)
    assert out.returncode == 0, out.stderr
    assert f"took over '{ckpt / LOCK_NAME}', left by a job that ended without releasing it (pid {pid}" in out.stderr
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(2)  # released at the end


# --- SIGTERM / SIGINT: finish the step, save, exit 128 + N ------------------------------------------------------
def start_and_signal(cmd, signum, pick_pid=None):
    """Start cmd, wait for the chief's headline (the session is running), signal it, return (proc, out, err)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env())
    try:
        headline = proc.stdout.readline()
        assert headline.startswith("ringflow: "), headline + proc.stderr.read()
        time.sleep(0.5)  # a few hundred steps
        os.kill(pick_pid(proc.pid) if pick_pid else proc.pid, signum)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=JOB_TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    print(f"[signal {signum}] started {sent - start:.2f} s, exit {proc.returncode} {time.monotonic() - sent:.2f} s "
          "after the signal")
    return proc, headline + out, err


def stopped_step(err, name):
    line = [line for line in err.splitlines() if f"stopped by {name} at step " in line]
    assert len(line) == 1, err
    return int(line[0].split(" at step ")[1].split(";")[0])


def test_sigterm_saves_the_step_it_stopped_at_and_a_resume_continues_bitwise(tmp_path):
    ckpt = tmp_path / "ckpt"
    cmd = command() + ["train", *SMALL, "--steps", str(FOREVER), "--log-every", "100", "--checkpoint-dir",
                       str(ckpt), "--save-final", str(tmp_path / "never.npz")]
    proc, out, err = start_and_signal(cmd, signal.SIGTERM)
    assert proc.returncode == 128 + signal.SIGTERM, err
    step = stopped_step(err, "SIGTERM")
    assert f"checkpoint written to '{ckpt / f'model.ckpt-{step}'}'" in err
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(step)
    assert not (tmp_path / "never.npz").exists()  # a stopped run is not finished: no --save-final
    resumed = ringflow(*SMALL, "--steps", step + 7, "--no-progress", "--checkpoint-dir", ckpt, "--save-final",
                       tmp_path / "resumed.npz")
    whole = ringflow(*SMALL, "--steps", step + 7, "--no-progress", "--save-final", tmp_path / "whole.npz")
    assert resumed.returncode == 0 and whole.returncode == 0, resumed.stderr + whole.stderr
    assert_same(tmp_path / "whole.npz", tmp_path / "resumed.npz")


def test_sigint_alone_without_a_checkpoint_dir_says_so(tmp_path):
    cmd = command() + ["train", *SMALL, "--steps", str(FOREVER)]
    proc, out, err = start_and_signal(cmd, signal.SIGINT)
    assert proc.returncode == 130, err
    stopped_step(err, "SIGINT")
    assert "no checkpoint written (give --checkpoint-dir" in err and "Traceback" not in err


def descendant_with_rank(pid, rank):
    """The pid of the process below `pid` (mpiexec) whose launcher environment says it is `rank`."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        try:
            with open(f"/proc/{child}/environ", "rb") as f:
                if f"PMI_RANK={rank}".encode() in f.read().split(b"\0"):
                    return child
        except OSError:
            pass
        todo += children.get(child, [])
    raise AssertionError(f"no rank {rank} below pid {pid}")


def test_sigterm_to_one_rank_stops_every_rank_after_the_same_step(tmp_path):
    launcher = find_mpiexec()
    if launcher is None or not os.path.isdir("/proc"):
        pytest.skip("needs mpiexec and /proc")
    ckpt = tmp_path / "ckpt"
    cmd = [launcher, "-n", "2"] + command() + ["train", *SMALL, "--steps", str(FOREVER), "--log-every", "100",
                                               "--checkpoint-dir", str(ckpt)]
    proc, out, err = start_and_signal(cmd, signal.SIGTERM, lambda pid: descendant_with_rank(pid, 1))
    assert proc.returncode == 143, out + err
    step = stopped_step(err, "SIGTERM")  # printed once, by rank 0, which never got the signal
    assert sorted(os.listdir(ckpt)) == ["checkpoint"] + tf_files(step)
    assert "error" not in err


# --- the ranks agree before step 1; a configuration error is printed once ------------------------------------
def test_ranks_started_with_different_steps_are_told_which_flag_and_ranks():
    out = mpiexec("-n", 1, "ringflow", *SMALL, "--steps", 10, ":", "-n", 1, "ringflow", *SMALL, "--steps", 11)
    assert out.returncode == 1
    assert out.stderr.count("ringflow: ") == 1, out.stderr
    assert "ringflow: error: the ranks disagree on --steps: 10 on rank 0, 11 on rank 1;" in out.stderr


def test_nodes_with_different_copies_of_a_dataset_are_told_apart(tmp_path):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((100, 3)).astype(np.float32), rng.integers(0, 2, 100)
    for node, (xs, ys) in {"a": (x, y), "b": (x[:90], y[:90]), "c": (x + 1, y)}.items():
        (tmp_path / node).mkdir()
        np.savez(tmp_path / node / "d.npz", x=xs, y=ys)  # the same relative path, other contents per "node"
    args = ["--model", "logistic", "--dataset", "npz:d.npz", "--batch-size", 10, "--steps", 5]
    out = mpiexec("-n", 1, "-wdir", tmp_path / "a", "ringflow", *args, ":", "-n", 1, "-wdir", tmp_path / "b",
                  "ringflow", *args)
    assert out.returncode == 1 and out.stderr.count("ringflow: ") == 1, out.stderr
    assert "the number of examples in --dataset 'npz:d.npz': 100 on rank 0, 90 on rank 1" in out.stderr
    out = mpiexec("-n", 1, "-wdir", tmp_path / "a", "ringflow", *args, ":", "-n", 1, "-wdir", tmp_path / "c",
                  "ringflow", *args)
    assert out.returncode == 1 and "the contents of --dataset 'npz:d.npz'" in out.stderr, out.stderr


@pytest.mark.parametrize("args,code,message", [
    (["--batch-size", 5000], 1, "--batch-size 5000 is larger than the 2048 examples"),  # found on each rank
    (["--model", "linear"], 2, "model 'linear' has no 'hidden' (--hidden)"),  # found before MPI starts
    (["--epochs", "inf"], 2, "--epochs 'inf': must be a finite number > 0"),  # argparse's usage error
])
def test_a_configuration_error_under_two_ranks_is_printed_once(args, code, message):
    out = mpiexec("-n", 2, "ringflow", *SMALL, *args)
    assert out.returncode == code, out.stderr
    assert out.stderr.count(message) == 1 and "on rank" not in out.stderr, out.stderr


def test_checkpoint_metadata_missing_a_key_is_one_line_naming_the_file_and_key(tmp_path):
    ckpt = tmp_path / "ckpt"
    assert ringflow(*SMALL, "--steps", 3, "--no-progress", "--checkpoint-dir", ckpt).returncode == 0
    path = ckpt / "model.ckpt-3.index"
    arrays, record = checkpoint.read(str(path))
    del record["meta"]["data"]["position"]
    checkpoint.write(str(ckpt / "model.ckpt-3"), arrays, record)
    out = ringflow(*SMALL, "--steps", 6, "--no-progress", "--checkpoint-dir", ckpt)
    assert out.returncode == 1 and "Traceback" not in out.stderr and "KeyError" not in out.stderr
    assert out.stderr.strip() == (f"ringflow: error: checkpoint '{path}': the data position has no 'position' key "
                                  "(it has ['num_examples', 'seed', 'shuffle']): it is damaged or was not written "
                                  f"by `ringflow train`; move it out of --checkpoint-dir '{ckpt}' to resume from "
                                  "an older one, or use another --checkpoint-dir")
