"""`ringflow run`'s command line and the launch line it builds for each family: Hydra's mpiexec, Open MPI's
mpirun and srun, from the same request. The expected lines are written out by hand from each launcher's manual
(mpiexec -help, mpirun(1), srun(1)); real runs of these lines are in tests/test_launcher.py."""
import os
import stat
import sys

import pytest

from trainer.program import launch
from trainer.program.launch import launch_lines, options, program
from trainer.program.launch.setup import Setup

PY = sys.executable
RANK_START = os.path.abspath(launch.rank_start.__file__)
THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def line(family, argv, environ=None, executable="/opt/mpi/bin/launcher", library="hydra"):
    environ = {"PATH": "/usr/bin"} if environ is None else environ
    request = options.parse(argv)
    setup = Setup(request, family, executable, library, environ)
    plan = setup.plan(setup.pool, setup.np)
    return launch_lines.launch_line(family, plan, environ)[0], plan


def test_horovods_line_on_each_family():
    words = ["-np", "4", "-H", "a:2,b:2", "--bind-to", "none", "--map-by", "slot", "-x", "NCCL_DEBUG=INFO",
             "python", "train.py", "--lr", "0.1"]
    program_words = [PY, "-I", RANK_START, "python", "train.py", "--lr", "0.1"]
    hydra, _ = line("hydra", words)
    assert hydra == ["/opt/mpi/bin/launcher", "-n", "4", "-hosts", "a:2,b:2", "-genv", "OMP_NUM_THREADS", "1",
                     "-genv", "OPENBLAS_NUM_THREADS", "1", "-genv", "MKL_NUM_THREADS", "1", "-genv", "NCCL_DEBUG",
                     "INFO", "-bind-to", "none", *program_words]
    openmpi, _ = line("openmpi", words, environ={"PATH": "/usr/bin", "HOME": "/root", "RINGFLOW_TIMEOUT": "30"})
    assert openmpi == ["/opt/mpi/bin/launcher", "-np", "4", "-H", "a:2,b:2", "-x", "OMP_NUM_THREADS=1",
                       "-x", "OPENBLAS_NUM_THREADS=1", "-x", "MKL_NUM_THREADS=1", "-x", "NCCL_DEBUG=INFO",
                       "-x", "PATH", "-x", "RINGFLOW_TIMEOUT", "--bind-to", "none", "--map-by", "slot",
                       *program_words]
    slurm, plan = line("slurm", words, environ={"PATH": "/usr/bin", "SLURM_MPI_TYPE": "pmix"})
    assert slurm == ["/opt/mpi/bin/launcher", "--ntasks=4", "--kill-on-bad-exit=1", "--nodes=2", "--nodelist=a,b",
                     "--cpu-bind=none", "--distribution=block", *program_words]
    shown = launch_lines.shown("slurm", slurm, plan)
    assert shown.startswith("OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NCCL_DEBUG=INFO "
                            "/opt/mpi/bin/launcher --ntasks=4"), "srun passes its own environment on"


def test_one_rank_per_host_and_cyclic_placement():
    hydra, plan = line("hydra", ["-H", "a:1,b:1", "--map-by", "node", "-x", "HOME", "train", "--steps", "3"],
                       environ={"HOME": "/root"})
    assert plan.np == 2 and plan.env == {}, "no -np: the slots; one rank per host: thread counts left alone"
    assert hydra == ["/opt/mpi/bin/launcher", "-n", "2", "-hosts", "a:1,b:1", "-genvlist", "HOME", "-ppn", "1",
                     PY, "-I", RANK_START, PY, "-m", "trainer", "train", "--steps", "3"]
    openmpi, _ = line("openmpi", ["-np", "2", "-H", "a:2,b:2", "--map-by", "node", "true"], environ={})
    assert "-x" not in openmpi, "cyclic over two hosts: one rank each, no thread variables"


def test_this_machine_and_the_users_thread_count():
    hydra, plan = line("hydra", ["-np", "3", "-x", "OMP_NUM_THREADS=4", "true"], environ={"MKL_NUM_THREADS": "2"})
    assert plan.env == {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "4"}, "the user's choices stand"
    assert hydra[:3] == ["/opt/mpi/bin/launcher", "-n", "3"] and "-hosts" not in hydra
    _, plan = line("hydra", ["true"], environ={})
    assert plan.np == len(os.sched_getaffinity(0)), "no -np and no hosts: one rank per core this process may use"
    openmpi, _ = line("openmpi", ["-np", str(plan.np + 1), "true"], environ={})
    assert "--oversubscribe" in openmpi, "Open MPI refuses more ranks than cores without it"


def test_slurm_allocation(tmp_path):
    srun = tmp_path / "srun"
    srun.write_text("#!/bin/sh\nprintf 'MPI plugin types are...\\n\\tnone\\n\\tpmi2\\n\\tpmix\\n"
                    "specific pmix plugin versions available: pmix_v4\\n'\n")
    srun.chmod(srun.stat().st_mode | stat.S_IEXEC)
    environ = {"SLURM_JOB_ID": "7", "SLURM_JOB_NODELIST": "n[1-2]", "SLURM_TASKS_PER_NODE": "2(x2)",
               "SLURM_NTASKS": "4"}
    argv, plan = line("slurm", ["python", "x.py"], environ=environ, executable=str(srun), library="hydra")
    assert argv == [str(srun), "--ntasks=4", "--kill-on-bad-exit=1", "--mpi=pmi2", PY, "-I", RANK_START,
                    "python", "x.py"], "the allocation's hosts are srun's default: not named"
    assert plan.env == THREADS
    argv, _ = line("slurm", ["python", "x.py"], environ=environ, executable=str(srun), library="openmpi")
    assert "--mpi=pmix" in argv, "Open MPI's ranks talk PMIx"
    setup = Setup(options.parse(["python", "x.py"]), "slurm", str(srun), "hydra", environ)
    fewer = setup.plan([("n1", 2)], 2)
    assert launch_lines.srun(fewer, environ)[1:5] == ["--ntasks=2", "--kill-on-bad-exit=1", "--nodes=1",
                                                      "--nodelist=n1"], "a host left out: the rest are named"


@pytest.mark.parametrize("argv, message", [
    ([], "give the PROGRAM to run"),
    (["-np", "2"], "give the PROGRAM to run"),
    (["-np", "0", "true"], "-np '0': give a whole number of ranks >= 1"),
    (["-np", "5", "-H", "a:2,b:2", "true"], "-np 5 is more than the 4 slots of a:2,b:2"),
    (["-H", "a:2", "--hostfile", "f", "true"], "not allowed with argument"),
    (["--min-np", "2", "true"], "--min-np 2 without --restarts"),
    (["-np", "2", "--restarts", "1", "--min-np", "3", "true"], "--min-np 3 is more than -np 2"),
    (["--restarts", "-1", "true"], "--restarts -1"),
    (["--bogus", "true"], "unknown option '--bogus'"),
    (["--bind-to", "board", "true"], "invalid choice: 'board'"),
    (["-x", "1X=2", "true"], "'1X' is not an environment variable name"),
    (["-x", "RINGFLOW_SURELY_UNSET_VARIABLE", "true"], "RINGFLOW_SURELY_UNSET_VARIABLE is not set here"),
    (["--as-tensorflow", "train", "--steps", "1"], "--as-tensorflow is for your own TF1 program"),
    (["--as-tensorflow", "ls"], "--as-tensorflow runs a Python program"),
    (["-H", "a:x", "true"], "'a:x' is not HOST or HOST:SLOTS"),
])
def test_refused_command_lines_say_why_in_one_line(capsys, argv, message):
    code = launch.main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("ringflow run: error: ") and message in err, err


def test_program_forms():
    assert program.rank_command(["train", "--steps", "3"], python="py") == [
        "py", "-I", RANK_START, "py", "-m", "trainer", "train", "--steps", "3"]
    tf = program.as_tensorflow_command
    assert tf(["python3", "-u", "-W", "ignore", "x.py", "--a"], "py") == [
        "python3", "-u", "-W", "ignore", "-m", "trainer.as_tensorflow", "x.py", "--a"]
    assert tf(["/usr/bin/python3.11", "-m", "pkg.main"], "py") == [
        "/usr/bin/python3.11", "-m", "trainer.as_tensorflow", "-m", "pkg.main"]
    assert tf(["x.py", "--a"], "py") == ["py", "-m", "trainer.as_tensorflow", "x.py", "--a"]
    with pytest.raises(ValueError, match="not `python -c`"):
        tf(["python", "-c", "print(1)"], "py")
    assert program.checkpoint_dir(["train", "--checkpoint-dir", "d", "--checkpoint-dir=e"]) == "e"
    assert program.checkpoint_dir(["python", "x.py", "--checkpoint-dir", "d"]) is None


def test_version_and_help(capsys):
    from trainer.platform.version import RINGFLOW_VERSION
    from trainer.program import cli
    with pytest.raises(SystemExit) as exit:
        cli.main(["--version"])
    assert exit.value.code == 0 and capsys.readouterr().out == f"ringflow {RINGFLOW_VERSION} (TensorFlow 1.15.0 API)\n"
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "    run " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    assert capsys.readouterr().out.startswith("usage: ringflow run [-np N]")
