"""`ringflow run` launching real jobs: a rank killed with SIGKILL mid-run is named and the job restarted from its
newest checkpoint, ending bitwise where an uninterrupted run ends (the reference run by plain mpiexec); a host left
out of the restart (3 ranks, then 2) ends within the rounding a 2-rank run differs from a 3-rank one by; a usage
error and a program failing the same way twice are not restarted; Open MPI's and srun's launch lines run through
stand-ins that record them; --as-tensorflow; and on the simulated cluster a node whose link is cut is left out.
Measured times are printed (pytest -s)."""
import json
import os
import re
import socket
import stat
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from .mpirun import ROOT, find_mpiexec, mpi_env

sys.path.insert(0, str(ROOT / "scripts"))
import simcluster  # noqa: E402

JOB_S = 120  # the longest of these runs takes ~15 s on 2 busy cores; beyond this it has hung
STEPS, EVERY = 60, 5
MODEL = ["--model", "mlp", "--hidden", "8", "--dataset", "synthetic-classes", "--batch-size", "12", "--dtype",
         "float64", "--optimizer", "adam", "--seed", "4"]
TRAIN = ["train", *MODEL, "--steps", str(STEPS), "--log-every", "1"]  # a step line each step: steps lost are seen
MPIEXEC = find_mpiexec()
pytestmark = pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec: install the 'mpich' extra or a system MPI")

# Loaded by every rank's Python through PYTHONPATH: rank CHAOS_RANK kills itself with SIGKILL as soon as the file
# CHAOS_AFTER exists, once per test (CHAOS_MARKER records that it happened, and when).
CHAOS = """
import os, signal, threading, time
def _watch():
    rank = os.environ.get("PMI_RANK") or os.environ.get("OMPI_COMM_WORLD_RANK")
    if rank != os.environ.get("CHAOS_RANK"):
        return
    while not os.path.exists(os.environ["CHAOS_AFTER"]):
        time.sleep(0.002)
    if not os.path.exists(os.environ["CHAOS_MARKER"]):
        with open(os.environ["CHAOS_MARKER"], "w") as f:
            f.write(repr(time.time()))
        os.kill(os.getpid(), signal.SIGKILL)
if os.environ.get("CHAOS_AFTER"):
    threading.Thread(target=_watch, daemon=True).start()
"""


def chaos_env(tmp_path, rank, after, **extra):
    site = tmp_path / "chaos"
    site.mkdir()
    (site / "sitecustomize.py").write_text(CHAOS)
    return dict(PYTHONPATH=f"{site}{os.pathsep}{ROOT}", CHAOS_RANK=str(rank), CHAOS_AFTER=str(after),
                CHAOS_MARKER=str(tmp_path / "killed"), **extra)


def ringflow_run(args, cwd=ROOT, **env):
    """Run `ringflow run ARGS`: (exit code, [(time.time(), line)] of its merged output)."""
    cmd = [sys.executable, "-m", "trainer", "run", *map(str, args)]
    proc = subprocess.Popen(cmd, cwd=cwd, env=mpi_env(PYTHONUNBUFFERED="1", **env), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend((time.time(), line) for line in proc.stdout))
    reader.start()
    try:
        code = proc.wait(timeout=JOB_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = None
    reader.join()
    text = "".join(line for _, line in lines)
    print(f"\n$ ringflow run {' '.join(map(str, args))}\n{text[-3000:]}")
    assert code is not None, f"ringflow run hung: still running after {JOB_S} s"
    return code, lines


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """uninterrupted(N): the final weights of TRAIN on N ranks under plain mpiexec, run once per N."""
    done = {}

    def weights(nranks):
        if nranks not in done:
            out = tmp_path_factory.mktemp("uninterrupted") / f"{nranks}.npz"
            proc = subprocess.run([MPIEXEC, "-n", str(nranks), sys.executable, "-m", "trainer", *TRAIN,
                                   "--no-progress", "--save-final", str(out)], cwd=ROOT, env=mpi_env(),
                                  capture_output=True, text=True, timeout=JOB_S)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            done[nranks] = np.load(out)
        return done[nranks]
    return weights


def said(lines, pattern):
    """The time and match of the first line matching `pattern`."""
    for t, line in lines:
        m = re.search(pattern, line)
        if m:
            return t, m
    raise AssertionError(f"no line matches {pattern!r}")


def report_times(lines, tmp_path, ckpt, resumed_step):
    """Time to detect (kill -> failure line), to restart (failure line -> the restarted job's first checkpoint) and
    steps lost (the last step the first attempt reported, less the step resumed from)."""
    killed = float((tmp_path / "killed").read_text())
    failed, _ = said(lines, r"ringflow run: attempt 1 of \d+ failed")
    first_new = min(os.path.getmtime(ckpt / f) for f in os.listdir(ckpt)
                    if (m := re.match(r"model\.ckpt-(\d+)\.index$", f)) and int(m.group(1)) > resumed_step)
    before = [int(m.group(1)) for t, line in lines if t <= failed for m in [re.search(rf"step (\d+)/{STEPS}", line)]
              if m]
    lost = max(before) - resumed_step if before else "unknown"
    print(f"[figures] detected {failed - killed:.2f} s after the kill; the restarted job wrote its first checkpoint "
          f"{first_new - failed:.2f} s after that ({EVERY} steps); steps lost: {lost}")


def test_a_killed_rank_is_named_and_the_restarted_job_ends_bitwise_as_an_uninterrupted_one(tmp_path, uninterrupted):
    ckpt = tmp_path / "ckpt"
    code, lines = ringflow_run(["-np", 3, "--restarts", 2, *TRAIN, "--checkpoint-dir", ckpt,
                                "--checkpoint-every-steps", EVERY, "--save-final", tmp_path / "resumed.npz"],
                               **chaos_env(tmp_path, rank=1, after=ckpt / "model.ckpt-10.index"))
    assert code == 0
    said(lines, r"ringflow run: attempt 1 of 3 failed after [\d.]+ s: rank 1 \(pid \d+, on \S+\) was killed by "
                r"signal 9 \(SIGKILL\)")
    _, m = said(lines, r"restarting \(1 restart\(s\) left\) on 3 rank\(s\): ringflow train resumes from "
                       r"'.*model\.ckpt-(\d+)' \(step (\d+)\)")
    assert m.group(1) == m.group(2) and int(m.group(2)) >= 10
    said(lines, r"ringflow run: the job finished after 1 restart\(s\)")
    report_times(lines, tmp_path, ckpt, int(m.group(2)))
    resumed, straight = np.load(tmp_path / "resumed.npz"), uninterrupted(3)
    assert sorted(resumed.files) == sorted(straight.files) and len(straight.files) > 1
    for name in straight.files:
        assert resumed[name].tobytes() == straight[name].tobytes(), f"{name} differs from the uninterrupted run's"


def local_aliases():
    """Three names Hydra takes for this machine, so a "host" can be left out without a second machine."""
    hosts = f"localhost:1,127.0.0.1:1,{socket.gethostname()}:1"
    probe = subprocess.run([MPIEXEC, "-hosts", hosts, "-n", "3", "true"], capture_output=True, timeout=30,
                           env=mpi_env())
    if probe.returncode != 0 or "HYDRA" not in subprocess.run([MPIEXEC, "--version"], capture_output=True,
                                                               text=True).stdout:
        pytest.skip(f"Hydra cannot run -hosts {hosts} on this machine alone")
    return hosts


def test_a_failed_host_is_left_out_and_the_job_ends_on_fewer_ranks(tmp_path, uninterrupted):
    hosts, ckpt = local_aliases(), tmp_path / "ckpt"
    code, lines = ringflow_run(["-np", 3, "-H", hosts, "--min-np", 2, "--restarts", 1, *TRAIN, "--checkpoint-dir",
                                ckpt, "--checkpoint-every-steps", EVERY, "--save-final", tmp_path / "resumed.npz"],
                               **chaos_env(tmp_path, rank=1, after=ckpt / "model.ckpt-10.index"))
    assert code == 0
    said(lines, r"attempt 1 of 2 failed after [\d.]+ s: rank 1 \(pid \d+, on 127\.0\.0\.1\) was killed by signal 9")
    said(lines, rf"leaving host 127\.0\.0\.1 out: localhost:1,{re.escape(socket.gethostname())}:1 remain")
    _, m = said(lines, r"on 2 rank\(s\): ringflow train resumes from .* \(step (\d+)\)")
    said(lines, rf"ringflow run: \S+ -n 2 -hosts localhost:1,{re.escape(socket.gethostname())}:1 ")
    report_times(lines, tmp_path, ckpt, int(m.group(1)))
    resumed = np.load(tmp_path / "resumed.npz")
    two, three = uninterrupted(2), uninterrupted(3)
    for name in two.files:
        rounding = np.max(np.abs(three[name] - two[name]))  # how far rank counts alone take the same training
        gap = np.max(np.abs(resumed[name] - two[name]))
        assert gap <= 10 * rounding + 1e-13, f"{name}: {gap:.3g} from the 2-rank run (3 vs 2 ranks: {rounding:.3g})"


def test_a_usage_error_is_not_restarted(tmp_path):
    code, lines = ringflow_run(["-np", 2, "--restarts", 3, "train", "--model", "mlp", "--dataset",
                                "synthetic-classes", "--lr", "-1"])
    text = "".join(line for _, line in lines)
    assert code == 2 and text.count("ringflow run: /") == 1, "launched once"
    assert "--lr" in text and "not restarting: exit code 2 is a usage or configuration error" in text


def test_a_program_failing_the_same_way_twice_is_not_restarted_again(tmp_path):
    code, lines = ringflow_run(["-np", 2, "--restarts", 5, sys.executable, "-c", "import sys; sys.exit(3)"])
    text = "".join(line for _, line in lines)
    assert code == 3 and text.count("ringflow run: /") == 2, "launched twice"
    assert re.search(r"attempt 2 of 6 failed after [\d.]+ s: rank \d \(pid \d+, on \S+\) exited with code 3", text)
    assert "not restarting: it failed the same way twice in a row" in text


PROBE = ("import os, sys; from mpi4py import MPI; c = MPI.COMM_WORLD; sys.stdout.write(f'rank {c.rank} of {c.size} "
         "{os.environ.get(\"FOO\")} {os.environ.get(\"MKL_NUM_THREADS\")}\\n')")  # one write: lines stay whole

# Stand-ins for Open MPI's mpirun and Slurm's srun: each records its argv (one JSON line per call) and runs the
# ranks with this machine's Hydra mpiexec, so the launch line is checked and the job really runs.
STAND_IN = """#!{python}
import json, os, sys
args = sys.argv[1:]
if args == ["--version"]:
    print({version!r}); sys.exit(0)
if args == ["--mpi=list"]:
    print("MPI plugin types are...\\n\\tnone\\n\\tpmi2\\n\\tpmix"); sys.exit(0)
with open({log!r}, "a") as f:
    f.write(json.dumps(args) + "\\n")
n, i = None, 0
while i < len(args) and args[i].startswith("-"):
    word = args[i]
    if word in ("-np", "--ntasks"):
        n = args[i + 1]
    elif word.startswith("--ntasks="):
        n = word.split("=")[1]
    i += 2 if word in ("-np", "-H", "-x", "--bind-to", "--map-by") else 1
os.execv({mpiexec!r}, [{mpiexec!r}, "-n", n, *args[i:]])
"""


def stand_in(tmp_path, name, version):
    path, log = tmp_path / "bin" / name, tmp_path / f"{name}.log"
    path.parent.mkdir(exist_ok=True)
    path.write_text(STAND_IN.format(python=sys.executable, version=version, log=str(log), mpiexec=MPIEXEC))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path, log


def calls(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_open_mpi_launch_line(tmp_path):
    mpirun, log = stand_in(tmp_path, "mpirun", "mpirun (Open MPI) 4.1.6")
    code, lines = ringflow_run(["--launcher", "openmpi", "-np", 2, "-x", "FOO=bar", "--bind-to", "core",
                                sys.executable, "-c", PROBE], RINGFLOW_MPIEXEC=str(mpirun))
    text = "".join(line for _, line in lines)
    assert code == 0 and "rank 0 of 2 bar 1" in text and "rank 1 of 2 bar 1" in text, text
    [argv] = calls(log)
    # the tests' environment sets OMP_NUM_THREADS and OPENBLAS_NUM_THREADS: only MKL's is added
    assert argv[:6] == ["-np", "2", "-x", "MKL_NUM_THREADS=1", "-x", "FOO=bar"], argv
    assert {"PATH", "PYTHONPATH", "RINGFLOW_MPIEXEC"} <= {argv[i + 1] for i, w in enumerate(argv) if w == "-x"}
    assert argv[argv.index("--bind-to") + 1] == "core" and argv[-3:] == [sys.executable, "-c", PROBE]


def test_a_real_open_mpi():
    from trainer.program.launch import detect
    if detect.classify(detect.mpi_library(), detect.LIBRARIES) != "openmpi":
        pytest.skip("mpi4py does not use Open MPI here")
    code, lines = ringflow_run(["-np", 2, "-x", "FOO=bar", sys.executable, "-c", PROBE])
    text = "".join(line for _, line in lines)
    assert code == 0 and "rank 0 of 2 bar 1" in text and "rank 1 of 2 bar 1" in text, text
    assert re.search(r"ringflow run: \S*mpirun -np 2 ", text), text


def test_the_launcher_must_match_mpi4pys_mpi(tmp_path):
    import mpi4py
    from trainer.program.launch import detect
    if detect.classify(detect.mpi_library(), detect.LIBRARIES) != "hydra":
        pytest.skip(f"mpi4py {mpi4py.__version__} does not use an MPICH-family MPI here")
    mpirun, _ = stand_in(tmp_path, "mpiexec", "mpiexec (Open MPI) 5.0.3")
    code, lines = ringflow_run(["-np", 2, "true"], RINGFLOW_MPIEXEC=str(mpirun))
    text = "".join(line for _, line in lines)
    assert code == 2 and "is Open MPI's launcher but mpi4py uses an MPICH-family MPI" in text, text


SLURM = dict(SLURM_JOB_ID="77", SLURM_JOB_NODELIST="n[1-2]", SLURM_TASKS_PER_NODE="1(x2)", SLURM_NTASKS="2")


def test_srun_in_a_slurm_allocation_and_a_node_left_out(tmp_path):
    srun, log = stand_in(tmp_path, "srun", "slurm 23.11.4")
    path = f"{srun.parent}{os.pathsep}{os.environ['PATH']}"
    code, lines = ringflow_run([sys.executable, "-c", PROBE], PATH=path, **SLURM)
    text = "".join(line for _, line in lines)
    assert code == 0 and "rank 1 of 2 None None" in text, "one task per node: thread counts left alone"
    assert calls(log) == [["--ntasks=2", "--kill-on-bad-exit=1", "--mpi=pmi2", sys.executable, "-I",
                           str(ROOT / "trainer/program/launch/rank_start.py"), sys.executable, "-c", PROBE]]
    log.unlink()
    code, lines = ringflow_run(["--restarts", 1, "--min-np", 1, sys.executable, "-c", "import time; time.sleep(3)"],
                               PATH=path, **SLURM, **chaos_env(tmp_path, rank=1, after=tmp_path))
    text = "".join(line for _, line in lines)
    assert "rank 1 (pid" in text and "on n2) was killed by signal 9" in text and "leaving host n2 out" in text
    first, second = calls(log)
    assert "--nodelist=n1" not in first and second[:4] == ["--ntasks=1", "--kill-on-bad-exit=1", "--nodes=1",
                                                           "--nodelist=n1"], second


TF1_PROGRAM = """
import sys
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
total = hvd.allreduce(tf.constant(float(hvd.rank() + 1)), op=hvd.Sum)
with tf.Session() as sess:
    sys.stdout.write(f"rank {hvd.rank()} of {hvd.size()} sum {sess.run(total)}\\n")
"""


def test_as_tensorflow(tmp_path):
    script = tmp_path / "tf1.py"
    script.write_text(TF1_PROGRAM)
    code, lines = ringflow_run(["-np", 2, "--as-tensorflow", sys.executable, script])
    text = "".join(line for _, line in lines)
    assert code == 0 and "rank 0 of 2 sum 3.0" in text and "rank 1 of 2 sum 3.0" in text, text
    assert "-m trainer.as_tensorflow" in text


SIM = simcluster.available() if sys.platform.startswith("linux") else "simulated clusters need Linux"


@pytest.mark.skipif(SIM is not None, reason=str(SIM))
def test_a_node_whose_link_is_cut_is_left_out(tmp_path):
    steps, every, timeout_s = 200, 10, 5
    ckpt = tmp_path / "ckpt"
    args = ["train", *MODEL, "--steps", steps, "--no-progress", "--checkpoint-dir", ckpt, "--checkpoint-every-steps",
            every, "--save-final", tmp_path / "resumed.npz"]
    run = [sys.executable, "-m", "trainer", "run", "-np", "3", "-H", "node0:1,node1:1,node2:1", "--min-np", "2",
           "--restarts", "1", *map(str, args)]
    env = mpi_env(PYTHONUNBUFFERED="1", RINGFLOW_TIMEOUT=str(timeout_s), HYDRA_LAUNCHER="ssh",
                  HYDRA_LAUNCHER_EXEC=simcluster.ENTER)
    with simcluster.SimCluster(3) as cluster:
        job = subprocess.Popen([simcluster.ENTER, simcluster.HEAD, f"cd {ROOT} && {subprocess.list2cmdline(run)}"],
                               env=cluster.env(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        reader = threading.Thread(target=lambda: lines.extend((time.time(), line) for line in job.stdout))
        reader.start()
        try:
            while not (ckpt / f"model.ckpt-{2 * every}.index").exists() and job.poll() is None:
                time.sleep(0.01)
            cluster.cut("node2")
            cut = time.time()
            job.wait(timeout=JOB_S)
        finally:
            if job.poll() is None:
                job.kill()
            reader.join()
    output = "".join(line for _, line in lines)
    print(output[-3000:])
    assert job.returncode == 0, output
    failed, _ = said(lines, r"rank 2 \(pid \d+, on node2\) stopped answering: the other ranks timed out waiting")
    said(lines, r"leaving host node2 out: node0:1,node1:1 remain")
    done, _ = said(lines, r"the job finished after 1 restart")
    _, m = said(lines, r"on 2 rank\(s\): ringflow train resumes from .* \(step (\d+)\)")
    assert int(m.group(1)) >= 2 * every, output
    print(f"[figures] link cut: detected {failed - cut:.1f} s after the cut (RINGFLOW_TIMEOUT={timeout_s}); the "
          f"restarted job did its {steps - int(m.group(1))} remaining steps and ended {done - failed:.1f} s later")
    resumed = np.load(tmp_path / "resumed.npz")
    assert int(resumed["global_step:0"]) == steps
