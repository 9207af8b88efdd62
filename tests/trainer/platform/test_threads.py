"""BLAS threads are split between the ranks a launcher puts on one node."""
import trainer.platform.threads as threads


def clear(monkeypatch):
    for name in threads._LOCAL_SIZE_VARIABLES + threads._THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_ranks_sharing_a_node_split_its_cores(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: set(range(16)))
    monkeypatch.setenv("MPI_LOCALNRANKS", "4")
    assert threads.limit_blas_threads() == 4
    assert threads.os.environ["OPENBLAS_NUM_THREADS"] == "4" and threads.os.environ["OMP_NUM_THREADS"] == "4"


def test_cores_come_from_the_affinity_not_the_machine(monkeypatch):
    """A cpuset of 4 cores on a 64-core machine, 2 ranks: 2 threads each, not 32."""
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {8, 9, 10, 11})
    monkeypatch.setenv("MPI_LOCALNRANKS", "2")
    assert threads.limit_blas_threads() == 2


def test_more_ranks_than_cores_get_one_thread(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "3")
    assert threads.limit_blas_threads() == 1


def test_user_choice_and_single_rank_are_left_alone(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setenv("MPI_LOCALNRANKS", "2")
    monkeypatch.setenv("OMP_NUM_THREADS", "7")
    assert threads.limit_blas_threads() is None
    assert threads.os.environ["OMP_NUM_THREADS"] == "7"
    clear(monkeypatch)
    assert threads.limit_blas_threads() is None
    assert "OPENBLAS_NUM_THREADS" not in threads.os.environ
