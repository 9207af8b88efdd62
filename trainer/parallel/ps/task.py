"""The cluster runtime behind tg.train.Server (registered with train/server_lib.py by this package's __init__):
a task finds its peers over MPI; a worker links to the ps tasks; a ps serves them in join()."""
import atexit

import allreduce
from . import remote_store
from .peers import find_peers
from .ps_service import serve  # noqa: F401  (a ps task's loop: serve the workers until every one has finished)

target_prefix = remote_store.CLUSTER_TARGET_PREFIX


def start(cluster, job_name, task_index):
    """This process's task of `cluster`: its peers, found by an allgather over MPI.COMM_WORLD."""
    from mpi4py import MPI  # here: importing it starts MPI, and only a Server needs it
    if remote_store.current_client() is not None:
        raise RuntimeError("This process already has a tg.train.Server: one task per process")
    if MPI.COMM_WORLD.Get_size() > 1:  # from here ranks wait on each other: a failing one ends the job
        allreduce.abort.install()
    peers = find_peers(cluster, job_name, task_index)
    if job_name != "ps":
        remote_store.set_client(remote_store.Client(peers))
        atexit.register(remote_store.current_client().done)
    return peers

