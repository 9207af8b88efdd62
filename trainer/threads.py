"""One BLAS thread pool per core, not per rank: several ranks on a node must not oversubscribe it.

Runs before numpy is imported (BLAS reads these variables once, at load). Like torchrun, when the launcher
says several ranks share this node and the user set no thread count, each rank gets cores // local ranks.
"""
import os

_LOCAL_SIZE_VARIABLES = ("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "MV2_COMM_WORLD_LOCAL_SIZE",
                         "SLURM_NTASKS_PER_NODE")
_LOCAL_RANK_VARIABLES = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID")
_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def local_ranks():
    for name in _LOCAL_SIZE_VARIABLES:
        value = os.environ.get(name, "").split("(")[0]
        if value.isdigit():
            return int(value)
    return 1


def local_rank():
    """This rank's index among the ranks on its node, as the launcher says (0 when launched alone)."""
    for name in _LOCAL_RANK_VARIABLES:
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return 0


def limit_blas_threads():
    """Set the BLAS thread variables for this rank unless the user chose them; returns the count set or None."""
    ranks = local_ranks()
    if ranks <= 1 or any(name in os.environ for name in _THREAD_VARIABLES):
        return None
    threads = max(1, (os.cpu_count() or 1) // ranks)
    for name in _THREAD_VARIABLES:
        os.environ[name] = str(threads)
    return threads
