"""Horovod's TensorFlow 1 API (horovod.tensorflow) on ringflow's communicators: `import trainer.horovod as hvd`.

hvd.init() picks the communicator as `ringflow train --allreduce auto` does on CPU (shared memory on one node,
else hierarchical: shared memory within each node, the ring across); RINGFLOW_ALLREDUCE=ring|shm|mpi|... names
another. Importing this module starts no MPI traffic.
"""
from .basics import (cross_rank, cross_size, gloo_built, gloo_enabled, init, is_initialized, local_rank, local_size,
                     mpi_built, mpi_enabled, mpi_threads_supported, nccl_built, rank, shutdown, size, start_timeline,
                     stop_timeline)
from .basics import communicator  # noqa: F401  (ringflow's addition: the allreduce.Communicator in use)
from .basics import executing_eagerly as _executing_eagerly  # noqa: F401  (the name Horovod's own tests call)
from .collectives import alltoall, grouped_allreduce, reducescatter
from .compression import Compression
from . import elastic
from .functions import allgather_object, broadcast_object, broadcast_object_fn
from .mpi_ops import (Adasum, Average, Max, Min, Product, Sum, allgather, allreduce, broadcast, local_rank_op,
                      local_size_op, rank_op, size_op)
from .optimizer import DistributedOptimizer
from .sync_batch_norm import SyncBatchNormalization
from .unsupported import join
from .variables import BroadcastGlobalVariablesHook, broadcast_global_variables, broadcast_variables
from .unsupported import MISSING
from ..unsupported import missing_names

__all__ = ["Adasum", "Average", "BroadcastGlobalVariablesHook", "Compression", "DistributedOptimizer", "Max", "Min",
           "Product", "Sum", "SyncBatchNormalization", "allgather", "allgather_object", "allreduce", "alltoall",
           "broadcast", "broadcast_global_variables", "broadcast_object", "broadcast_object_fn", "broadcast_variables",
           "cross_rank", "cross_size", "elastic", "gloo_built", "gloo_enabled", "grouped_allreduce", "init",
           "is_initialized", "join", "local_rank", "local_rank_op", "local_size", "local_size_op", "mpi_built",
           "mpi_enabled", "mpi_threads_supported", "nccl_built", "rank", "rank_op", "reducescatter", "shutdown", "size",
           "size_op", "start_timeline", "stop_timeline"]

# Horovod names ringflow lacks (process sets) fail saying why (unsupported.py)
__getattr__ = missing_names(__name__, reasons=MISSING, have="see README, \"Horovod's API\"")
