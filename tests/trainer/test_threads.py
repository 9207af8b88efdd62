"""BLAS threads are split between the ranks a launcher puts on one node."""
import trainer.threads as threads


def clear(monkeypatch):
    for name in threads._LOCAL_SIZE_VARIABLES + threads._THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_ranks_sharing_a_node_split_its_cores(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 16)
    monkeypatch.setenv("MPI_LOCALNRANKS", "4")
    assert threads.limit_blas_threads() == 4
    assert threads.os.environ["OPENBLAS_NUM_THREADS"] == "4" and threads.os.environ["OMP_NUM_THREADS"] == "4"


def test_more_ranks_than_cores_get_one_thread(monkeypatch):
    clear(monkeypatch)
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 2)
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


def test_local_rank_from_the_launcher(monkeypatch):
    for name in threads._LOCAL_RANK_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert threads.local_rank() == 0
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3")
    assert threads.local_rank() == 3
