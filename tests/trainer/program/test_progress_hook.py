"""What `ringflow train` prints: one stream, a bar only on a terminal, plain lines in a batch log, rank 0 alone."""
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import trainer as tg
from trainer.platform.version import RINGFLOW_VERSION, TF_API_VERSION
from trainer.program import ProgressHook, StopAtStepHook

from tests.mpirun import find_mpiexec, mpi_env
from tests.trainer.program.test_cli import ROOT, SMALL, ringflow

LOUD = [a for a in SMALL if a != "--no-progress"]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def run_hook(stream, last_step=6, reports=(3, 6), verbose=True):
    """A ProgressHook on `stream` over `last_step` steps, reported at `reports`; what it printed."""
    graph = tg.Graph()
    with graph.as_default():
        step = tg.train.get_or_create_global_step().assign_add(1)
        hook = ProgressHook("ringflow: headline", last_step, verbose=verbose, stream=stream)
        with tg.train.MonitoredSession(hooks=[StopAtStepHook(last_step), hook]) as sess:
            while not sess.should_stop():
                value = sess.run(step)
                if value in reports:
                    hook.report(int(value), {"loss": 1.0 / value})
            hook.report(last_step, {"loss": 0.125}, final=True)
    return stream.getvalue()


def test_a_batch_log_gets_one_plain_line_per_report_and_no_carriage_return():
    out = run_hook(io.StringIO())
    assert "\r" not in out
    assert out.splitlines() == ["ringflow: headline", "steps 1..6", "step 3/6  loss 0.3333", "step 6/6  loss 0.1667",
                                "final (whole training set): loss 0.1250"]


def test_a_terminal_gets_the_bar_on_the_same_stream_with_whole_report_lines():
    out = run_hook(Terminal())
    assert "\r" in out and "train:" in out  # tqdm's bar redraws
    lines = out.replace("\r", "\n").splitlines()
    for line in ("step 3/6  loss 0.3333", "step 6/6  loss 0.1667", "final (whole training set): loss 0.1250"):
        assert line in lines  # never glued to a bar fragment


def test_quiet_keeps_the_final_line_only():
    assert run_hook(Terminal(), verbose=False) == "final (whole training set): loss 0.1250\n"


def without_cadence(stdout):
    """The lines of a run's output without the one saying when checkpoints are written."""
    return [line for line in stdout.splitlines() if not line.startswith("ringflow: checkpoints to ")]


def test_the_cli_prints_one_line_per_report_resumes_by_name_and_has_nothing_to_do_at_the_end(tmp_path):
    ckpt = tmp_path / "c"
    first = ringflow("train", *LOUD, "--steps", 10, "--log-every", 5, "--checkpoint-dir", ckpt)
    assert first.returncode == 0, first.stderr
    cadence = [line for line in first.stdout.splitlines() if line.startswith("ringflow: checkpoints to ")]
    assert len(cadence) == 1 and "every 600 s (the next at about " in cadence[0]
    lines = without_cadence(first.stdout)
    assert "\r" not in first.stdout and "\r" not in first.stderr
    assert lines[0].startswith("ringflow: mlp on synthetic-classes") and lines[1] == "steps 1..10"
    assert [line.split("  ")[0] for line in lines[2:4]] == ["step 5/10", "step 10/10"]
    assert lines[4].startswith("final (whole training set): ") and len(lines) == 5
    assert "steps/s" in lines[2]
    resumed = ringflow("train", *LOUD, "--steps", 15, "--log-every", 5, "--checkpoint-dir", ckpt)
    assert resumed.returncode == 0, resumed.stderr
    assert without_cadence(resumed.stdout)[1:3] == ["restored from model.ckpt-10 at step 10", "steps 11..15"]
    done = ringflow("train", *LOUD, "--steps", 15, "--checkpoint-dir", ckpt)
    assert done.returncode == 0, done.stderr
    lines = without_cadence(done.stdout)
    assert lines[1:3] == ["restored from model.ckpt-15 at step 15", "nothing to do: already at step 15"]
    assert "steps 16..15" not in done.stdout and lines[3].startswith("final (whole training set): ")


def test_no_progress_prints_the_final_metrics_alone():
    out = ringflow("train", *SMALL, "--steps", 4)
    assert out.returncode == 0, out.stderr
    (line,) = out.stdout.splitlines()
    assert line.startswith("final (whole training set): loss ") or line.startswith("final (whole training set): ")
    assert "loss" in line and out.stderr == ""


def test_version_names_ringflow_and_the_tf1_api():
    out = ringflow("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"ringflow {RINGFLOW_VERSION} (TensorFlow {TF_API_VERSION} API)"
    assert TF_API_VERSION.startswith("1.")


# Each rank's stdout and stderr to files of their own: the launcher would merge them.
PER_RANK = """
import os, sys
from trainer.program.cli import launcher_rank, main
rank = launcher_rank()
for fd, name in ((1, "out"), (2, "err")):
    os.dup2(os.open(os.path.join(sys.argv[1], f"{name}.{rank}"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
sys.exit(main(sys.argv[2:]))
"""


def test_under_mpiexec_rank_0_alone_prints_and_a_log_gets_plain_lines(tmp_path):
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec")
    cmd = [mpiexec, "-n", "2", sys.executable, "-c", PER_RANK, str(tmp_path), "train", *map(str, LOUD),
           "--steps", "6", "--log-every", "2"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT, env=mpi_env())
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    read = {name: (tmp_path / name).read_text() for name in ("out.0", "err.0", "out.1", "err.1")}
    assert read["out.1"] == read["err.1"] == "" and read["err.0"] == ""
    lines = read["out.0"].splitlines()
    assert "\r" not in read["out.0"] and "2 rank(s)" in lines[0] and lines[1] == "steps 1..6"
    assert [line.split("  ")[0] for line in lines[2:5]] == ["step 2/6", "step 4/6", "step 6/6"]
    assert lines[5].startswith("final (whole training set): ") and len(lines) == 6
