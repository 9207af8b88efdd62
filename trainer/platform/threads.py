"""One BLAS thread pool per core, not per rank: several ranks on a node must not oversubscribe it.

Runs before numpy is imported (BLAS reads these variables once, at load). Like torchrun, when the launcher
says several ranks share this node and the user set no thread count, each rank gets cores // local ranks, where
cores are those this process may run on (its affinity: a Slurm cpuset or a launcher's binding), not the machine's.
The caller (`import trainer`) passes the local size it read from the launcher's environment (allreduce/launcher.py).
"""
import os

_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def available_cores():
    """The cores this process may run on (os.sched_getaffinity), which a cpuset or binding makes fewer than
    os.cpu_count(). allreduce.topology.cores says the same, but that module loads numpy, which must come after."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform (macOS)
        return os.cpu_count() or 1


def limit_blas_threads(local_ranks):
    """Set the BLAS thread variables for one of `local_ranks` ranks on this node (None: the launcher did not say)
    unless the user chose them; returns the count set or None."""
    if local_ranks is None or local_ranks <= 1 or any(name in os.environ for name in _THREAD_VARIABLES):
        return None
    threads = max(1, available_cores() // local_ranks)
    for name in _THREAD_VARIABLES:
        os.environ[name] = str(threads)
    return threads
