"""Which rank and host `ringflow run` blames for a failed job, from launcher and ringflow output (the Hydra texts
are copied from real mpich-wheel runs; Open MPI's and srun's from their messages), and what it does next: which
failures are restarted, and which host is left out."""
import textwrap

import pytest

from trainer.program.launch import failures, restarts
from trainer.program.launch.job import Outcome, RankExit, RankRecord

RANKS = {0: RankRecord(4100, "vm", 4000), 1: RankRecord(4101, "vm", 4001), 2: RankRecord(4102, "vm", 4002)}


def lines(text):
    return textwrap.dedent(text).strip("\n").splitlines()


HYDRA_KILLED_ONE_HOST = lines("""
    ===================================================================================
    =   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
    =   PID 4001 RUNNING AT vm
    =   EXIT CODE: 9
    =   CLEANING UP REMAINING PROCESSES
    =   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES
    ===================================================================================
    YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)
    This typically refers to a problem with your application.
""")
HYDRA_KILLED_THREE_HOSTS = lines("""
    =   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
    =   PID 4002 RUNNING AT 127.0.0.1
    =   EXIT CODE: 9
    [proxy:2@vm] HYD_pmcd_pmip_control_cmd_cb (pmip_cb.c:490): assert (!closed) failed
    [mpiexec@vm] HYDT_bscu_wait_for_completion (bscu_wait.c:109): one of the processes terminated badly; aborting
""")
RINGFLOW_TIMEOUT = [
    "ringflow: error on rank 1: CollectiveTimeout: AllreduceGradients op 'AllreduceGradients' failed: step 21's "
    "gradient allreduce timed out at rank 1 after 5 s waiting for rank 2 (rank 0 gave up on it too): is it stuck?"]


def test_hydra_names_a_pid_which_the_records_make_a_rank():  # rank_start's pid, the program's is shown
    f = failures.diagnose(HYDRA_KILLED_ONE_HOST, RANKS, 9)
    assert (f.kind, f.rank, f.pid, f.host, f.signal) == ("killed", 1, 4101, "vm", 9)
    assert f.describe() == "rank 1 (pid 4101, on vm) was killed by signal 9 (SIGKILL)"
    f = failures.diagnose(HYDRA_KILLED_THREE_HOSTS, RANKS, 255, placed=["localhost", "vm", "127.0.0.1"])
    assert (f.rank, f.host) == (2, "127.0.0.1"), "the host as the host list names it"


def test_a_timeout_blames_the_rank_waited_for():
    f = failures.diagnose(["some output", *RINGFLOW_TIMEOUT], RANKS, 1, placed=["node0", "node1", "node2"])
    assert (f.kind, f.rank, f.host) == ("stalled", 2, "node2")
    assert "rank 2 (pid 4102, on node2) stopped answering" in f.describe()


def test_strongest_evidence_wins():
    cleanup = ["=   PID 4100 RUNNING AT vm", "=   EXIT CODE: 15"]  # Hydra's SIGTERM to a bystander
    error = ["ringflow: error on rank 2 (thread 'loader'): ValueError: bad batch 7"]
    f = failures.diagnose(cleanup + error, RANKS, 1)
    assert (f.kind, f.rank, f.detail) == ("error", 2, "ValueError: bad batch 7")
    f = failures.diagnose(error + HYDRA_KILLED_ONE_HOST, RANKS, 9)
    assert (f.kind, f.rank) == ("killed", 1), "a SIGKILL outranks the errors it causes in the others"
    f = failures.diagnose(error + RINGFLOW_TIMEOUT, RANKS, 1)
    assert (f.kind, f.rank) == ("stalled", 2)
    # Hydra's block names the lowest rank of a host among those its clean-up killed; rank_start saw who went first
    f = failures.diagnose(["=   PID 4000 RUNNING AT vm", "=   EXIT CODE: 9"], RANKS, 9, exits=[RankExit(2, 9, 0)])
    assert (f.kind, f.rank, f.pid, f.signal) == ("killed", 2, 4102, 9)
    f = failures.diagnose(RINGFLOW_TIMEOUT, RANKS, 1, exits=[RankExit(0, 0, 1), RankExit(1, 15, 0)])
    assert (f.kind, f.rank) == ("stalled", 2), "a rank that gave up waiting is not the culprit"
    f = failures.diagnose([], RANKS, 1, exits=[RankExit(0, 0, 0), RankExit(1, 0, 3), RankExit(2, 0, 1)])
    assert (f.kind, f.rank, f.code) == ("exit", 1, 3), "the first to exit with an error code"


@pytest.mark.parametrize("text, expected", [
    ("mpirun noticed that process rank 1 with PID 777 on node nodeB exited on signal 9 (Killed).",
     ("killed", 1, "nodeB", 777, 9, None)),
    ("prterun noticed that process rank 3 with PID 0 on node c7 exited on signal 6 (Aborted).",
     ("killed", 3, "c7", None, 6, None)),  # PRRTE may print PID 0: no pid known
    ("srun: error: nodeB: task 1: Killed", ("killed", 1, "nodeB", None, None, None)),
    ("srun: error: n4: tasks 2-3: Exited with exit code 3", ("exit", 2, "n4", None, None, 3)),
    ("ringflow: error on rank 0: RankExited: step 2's gradient allreduce cannot complete at rank 0 (its collective "
     "#4): rank 1 ended its program after its collective #3, step 1's gradient allreduce",
     ("ended", 1, None, None, None, None)),
])
def test_open_mpi_srun_and_ringflow_reports(text, expected):
    f = failures.diagnose([text], {}, 1)
    assert (f.kind, f.rank, f.host, f.pid, f.signal, f.code) == expected


def test_open_mpi_exit_report_and_nothing_to_go_on():
    report = lines("""
        mpirun detected that one or more processes exited with non-zero status, thus causing
        the job to be terminated. The first process to do so was:

          Process name: [[35172,1],2]
          Exit code:    3
    """)
    f = failures.diagnose(report, {}, 3)
    assert (f.kind, f.rank, f.code) == ("exit", 2, 3)
    f = failures.diagnose(["hello"], {}, 4)
    assert f.describe() == "the job exited with code 4"


def outcome(code, text=(), signalled=0):
    return Outcome(code, 1.0, {}, [], list(text), signalled)


def test_what_is_restarted():
    killed = failures.Failure("killed", rank=1, signal=9)
    error = failures.Failure("error", rank=1, detail="ValueError: bad")
    why = restarts.why_not_restart
    assert why(outcome(9), killed, True, None, left=1) is None
    assert why(outcome(9), killed, True, None, left=0) == "no restarts left (--restarts)"
    assert "configuration error" in why(outcome(2), error, None, None, 3)
    assert why(outcome(2), killed._replace(signal=2), None, None, 3) is None, "SIGINT's 2 is not a usage error"
    assert "could not be started" in why(outcome(127), failures.Failure("unknown", code=127), None, None, 3)
    assert "sent SIGTERM" in why(outcome(143, signalled=15), killed, None, None, 3)
    stopped = outcome(143, ["ringflow: stopped by SIGTERM at step 8; checkpoint written to 'c/model.ckpt-8'"])
    assert "stopped by SIGTERM, not by a fault" in why(stopped, killed, True, None, 3)
    assert "twice without writing a checkpoint" in why(outcome(1), error, False, error.signature(), 3)
    assert "twice in a row" in why(outcome(1), error, None, error.signature(), 3)
    assert why(outcome(1), error, True, error.signature(), 3) is None, "progress since: a new fault"
    other = error._replace(rank=0, pid=5, host="b")
    assert other.signature() == error.signature(), "ranks, pids and hosts do not make a failure another"
    assert killed._replace(signal=6).signature() != killed.signature()


def test_which_host_is_left_out():
    pool = [("a", 2), ("b", 2), ("c", 2)]
    dead_b = failures.Failure("killed", rank=2, host="b")
    assert restarts.leave_out(pool, 6, 6, dead_b, 4) == ([("a", 2), ("c", 2)], 4, "leaving host b out: a:2,c:2 remain")
    same, np, note = restarts.leave_out(pool, 6, 6, dead_b, 5)
    assert (same, np) == (pool, 6) and "fewer than --min-np 5" in note
    assert restarts.leave_out(pool, 3, 3, dead_b, 3)[:2] == ([("a", 2), ("c", 2)], 3), "spare slots keep -np"
    assert restarts.leave_out(None, 3, 3, dead_b, 1) == (None, 3, None), "this machine: nothing to leave out"
    assert restarts.leave_out(pool, 6, 6, dead_b._replace(host=None), 1) == (pool, 6, None)
