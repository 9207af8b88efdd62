"""Nothing hangs: real `mpiexec` jobs running a user's own training script (a library loop with
tg.DistributedOptimizer, no CLI) where one rank raises, stalls, dies, ends early or runs an extra step. Each job
must end, with the reason in its output, well within the subprocess timeout. Measured times are printed (pytest -s)."""
import re
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from .mpirun import ROOT, find_mpiexec, mpi_env

JOB_TIMEOUT_S = 60  # a job still running by then has hung: the test fails instead of waiting forever
SLOW_S = 20  # targets on 2 busy cores are 5 s (a raising rank) and 15 s (a 5 s timeout): this adds margin

LOOP = """
import os, sys, threading, time
import numpy as np
import allreduce
import trainer as tg
from mpi4py import MPI

rank = MPI.COMM_WORLD.Get_rank()
x = tg.placeholder(tg.float32, [None, 1])
w = tg.Variable(np.zeros((1, 1), np.float32))
loss = tg.reduce_mean(tg.square(tg.matmul(x, w) - 2 * x))
backend = allreduce.create_communicator(os.environ.get("TEST_BACKEND", "ring"))
opt = tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1), communicator=backend)
train = opt.minimize(loss)
sess = tg.Session()
sess.run(tg.global_variables_initializer())
tg.broadcast_variables(sess, communicator=opt.communicator)
batch = np.linspace(-1, 1, 8, dtype=np.float32).reshape(-1, 1)

def step():
    return sess.run([train, loss], {x: batch})[1]
"""


def run_job(tmp_path, body, nranks=3, prelude=LOOP, **env):
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    script = tmp_path / "train.py"
    script.write_text(prelude + textwrap.dedent(body))
    start = time.monotonic()
    try:
        proc = subprocess.run([mpiexec, "-n", str(nranks), sys.executable, str(script)], cwd=ROOT,
                              env=mpi_env(**env), capture_output=True, text=True, timeout=JOB_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        pytest.fail(f"the job hung: still running after {JOB_TIMEOUT_S} s\n{out[-4000:]}")
    seconds = time.monotonic() - start
    output = proc.stdout + proc.stderr
    print(f"\n[{nranks} ranks] exit code {proc.returncode} after {seconds:.1f} s\n{output[-1500:]}")
    return proc.returncode, output, seconds


def test_a_raising_rank_ends_the_job_and_says_so_once(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        for i in range(3):
            if rank == 1 and i == 2:
                raise ValueError("bad batch 7")
            step()
        print(f"rank {rank} finished", flush=True)
    """)
    assert code != 0 and seconds < SLOW_S
    assert out.count("ringflow: error on rank 1: ValueError: bad batch 7") == 1, out
    assert "Traceback" not in out and "finished" not in out
    assert "died from a signal" not in out, out  # an aborting rank says why itself: the others' ends are no news


def test_traceback_on_request_and_a_raising_thread(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        def load():
            raise RuntimeError("loader died")
        if rank == 1:
            threading.Thread(target=load, name="loader").start()
        for i in range(1000):
            step()
            time.sleep(0.01)
    """, RINGFLOW_TRACEBACK="1")
    assert code != 0 and seconds < SLOW_S
    assert out.count("ringflow: error on rank 1 (thread 'loader'): RuntimeError: loader died") == 1, out
    assert "Traceback" in out and "in load" in out


def test_a_stalled_rank_times_out_naming_it_and_what_was_reduced(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        for i in range(5):
            if rank == 2 and i == 3:
                time.sleep(120)
            step()
    """, RINGFLOW_TIMEOUT="5")
    assert code != 0 and seconds < SLOW_S
    assert "CollectiveTimeout: " in out, out  # the session puts the op's name before the communicator's message
    assert re.search(r"step 3's gradient allreduce timed out at rank [01] after 5 s waiting for rank 2\b", out)
    assert out.count("ringflow: ") == out.count("ringflow: error on rank "), "one line per failing rank"


def test_a_caught_timeout_still_ends_the_job_at_exit(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        import allreduce
        try:
            for i in range(5):
                if rank == 2 and i == 1:
                    time.sleep(120)
                step()
        except allreduce.CollectiveTimeout as exc:
            print(f"rank {rank} caught: {exc.what} waiting for {list(exc.waiting_for)}", flush=True)
    """, RINGFLOW_TIMEOUT="2")
    assert code != 0 and seconds < SLOW_S
    assert "caught: step 1's gradient allreduce waiting for [2]" in out, out
    assert "ends with step 1's gradient allreduce abandoned after a timeout: aborting the job" in out


def test_a_killed_rank_ends_the_job(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        import signal
        step()
        if rank == 1:  # killed while it waits in step 1's allreduce for the others
            threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGKILL)).start()
        else:
            time.sleep(1.5)
        step()
        time.sleep(30)
    """)
    assert code != 0 and seconds < SLOW_S
    assert "signal 9" in out or "killed" in out.lower(), out


WHO = """
os.write(1, f"rank {rank} is pid {os.getpid()}\\n".encode())  # one write: mpiexec interleaves the ranks' output
"""


@pytest.mark.parametrize("nranks, victim", [(2, 1), (3, 1), (3, 0)])
def test_a_rank_killed_under_plain_mpiexec_is_named_by_rank_and_pid(tmp_path, nranks, victim):
    # Hydra itself names the pid of whichever process it reaped first, often a survivor's
    code, out, seconds = run_job(tmp_path, f"""
        import signal
        deadline, i = time.monotonic() + 60, 0  # train until killed: a fixed step count can end before the kill
        while time.monotonic() < deadline:
            if rank == {victim} and i == 3:  # killed while training, in or between its collectives
                threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGKILL)).start()
            step()
            i += 1
        print(f"rank {{rank}} finished", flush=True)
    """, nranks=nranks, prelude=LOOP + WHO)
    assert code != 0 and seconds < SLOW_S, out
    pid = re.search(rf"rank {victim} is pid (\d+)\n", out).group(1)
    line = f"ringflow: rank {victim} (pid {pid} on host {socket.gethostname()}) died from a signal; the job is ending"
    assert out.count("died from a signal") == 1 and line in out, out
    assert "finished" not in out


@pytest.mark.parametrize("nranks", [2, 3])
def test_a_rank_ending_early_on_purpose_is_not_reported_dead(tmp_path, nranks):
    code, out, seconds = run_job(tmp_path, """
        for i in range(2):
            step()
        if rank == 1:
            sys.exit(0)
        time.sleep(1)  # still running, and watching, when rank 1 has ended
        print(f"rank {rank} finished", flush=True)
    """, nranks=nranks, prelude=LOOP + WHO)
    assert code == 0 and seconds < SLOW_S, out
    assert "died" not in out and out.count("finished") == nranks - 1, out


def test_an_extra_step_is_named_against_the_collective_the_others_are_in(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        for i in range(4 if rank == 1 else 3):
            value = step()
        opt.communicator.allreduce(np.float64(value), op="mean", what="metric allreduce")
    """)
    assert code != 0 and seconds < SLOW_S
    assert ("rank 1 is in step 3's gradient allreduce while ranks 0 and 2 are in metric allreduce") in out, out
    assert "does not match" not in out


@pytest.mark.parametrize("leave", ["sys.exit(3)", "break"])  # an exit code, and a loop that ends early
@pytest.mark.parametrize("backend, nodes", [("shm", ""), ("ring", ""), ("mpi", ""), ("hierarchical", "a,a,b")])
def test_a_rank_that_ends_early_ends_the_job_in_seconds(tmp_path, leave, backend, nodes):
    # no exception to hook and no signal for mpiexec: only the rank's exit notice can end this before the timeout
    code, out, seconds = run_job(tmp_path, f"""
        print(f"rank {{rank}} reduces with {{opt.communicator.name}}", flush=True)
        for i in range(5):
            if rank == 1 and i == 2:
                {leave}
            step()
        print(f"rank {{rank}} finished", flush=True)
    """, RINGFLOW_TIMEOUT="120", TEST_BACKEND=backend, RINGFLOW_FAKE_NODES=nodes)
    assert code != 0 and seconds < SLOW_S, out
    assert f"rank 0 reduces with {backend}" in out, out
    for waiting in (0, 2):
        assert (f"ringflow: error on rank {waiting}: RankExited: " in out
                and f"step 2's gradient allreduce cannot complete at rank {waiting}" in out), out
    assert "rank 1 ended its program after its collective" in out and "step 1's gradient allreduce" in out
    assert "rank 0 finished" not in out and "rank 2 finished" not in out


BEFORE_MPI = """
import os, sys, time
import numpy as np
import trainer as tg
rank = int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "0")))
"""


def test_a_rank_failing_before_mpi_starts_ends_the_job(tmp_path):
    # the others block in MPI_Init (DistributedOptimizer's communicator) until the failing rank starts MPI too
    code, out, seconds = run_job(tmp_path, """
        if rank == 1:
            np.load("no_such_file.npz")
        time.sleep(2)  # loading data
        x = tg.placeholder(tg.float32, [None, 1])
        opt = tg.DistributedOptimizer(tg.train.GradientDescentOptimizer(0.1))
        print(f"rank {rank} finished", flush=True)
    """, prelude=BEFORE_MPI, RINGFLOW_TIMEOUT="120")
    assert code != 0 and seconds < SLOW_S, out
    assert out.count("ringflow: error on rank 1: FileNotFoundError: ") == 1 and "no_such_file.npz" in out, out
    assert "Traceback" not in out and "finished" not in out


def test_a_rank_failing_in_a_script_without_mpi_ends_alone(tmp_path):
    # nobody starts MPI: the failing rank gives up on the others after RINGFLOW_TIMEOUT and exits by itself
    code, out, seconds = run_job(tmp_path, """
        if rank == 1:
            raise ValueError("bad batch 7")
        print(f"rank {rank} finished", flush=True)
    """, prelude=BEFORE_MPI, RINGFLOW_TIMEOUT="2")
    assert code != 0 and seconds < SLOW_S, out
    assert "ringflow: error on rank 1: ValueError: bad batch 7" in out
    assert "rank 0 finished" in out and "rank 2 finished" in out, out


def test_opting_out_leaves_the_other_ranks_alone(tmp_path):
    code, out, seconds = run_job(tmp_path, """
        step()
        if rank == 1:
            raise ValueError("bad batch 7")
        time.sleep(1)
        print(f"rank {rank} finished", flush=True)
    """, RINGFLOW_ABORT_ON_ERROR="0")
    assert code != 0
    assert "rank 0 finished" in out and "rank 2 finished" in out, out
    assert "Traceback" in out and "ringflow: error" not in out


WAIT = """
import resource, sys, time
import numpy as np
import allreduce
from mpi4py import MPI

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

rank = MPI.COMM_WORLD.Get_rank()
for name in ["ring", "shm"]:
    c = allreduce.create_communicator(name)
    c.allreduce(np.ones(4))
    if rank == 1:
        time.sleep(3)
    wall, used = time.monotonic(), cpu()
    c.allreduce(np.ones(4), what="late allreduce")
    wall, used = time.monotonic() - wall, cpu() - used
    if rank == 0:
        print(f"{name}: waited {wall:.2f} s using {used:.3f} s of CPU", flush=True)
"""


def test_a_waiting_rank_does_not_burn_a_core(tmp_path):
    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip("no mpiexec found: install the 'mpich' extra or a system MPI")
    script = tmp_path / "wait.py"
    script.write_text(WAIT)
    proc = subprocess.run([mpiexec, "-n", "2", sys.executable, str(script)], cwd=ROOT, env=mpi_env(),
                          capture_output=True, text=True, timeout=JOB_TIMEOUT_S)
    print(proc.stdout, proc.stderr)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for line in proc.stdout.splitlines():
        name, rest = line.split(": waited ")
        wall, cpu = float(rest.split()[0]), float(rest.split()[3])
        assert wall > 2.5 and cpu < 0.3 * wall, f"{name}: a waiting rank used {cpu:.2f} s of CPU in {wall:.2f} s"
    assert proc.stdout.count("waited") == 2
