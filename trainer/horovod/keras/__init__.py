"""Horovod's Keras API (horovod.keras, horovod.tensorflow.keras) on tg.keras: `import trainer.horovod.keras as hvd`.

DistributedOptimizer wraps a Keras optimizer so that its gradients are averaged over ranks through parallel's
gradient-averaging core; the callbacks broadcast root's variables, average metrics and warm the learning rate
up; allreduce, allgather and broadcast take and return numpy values, run in Keras' session.
"""
from ..basics import init, is_initialized, local_rank, local_size, mpi_threads_supported, rank, shutdown, size
from ..compression import Compression
from . import callbacks, elastic
from .optimizer import DistributedOptimizer, load_model
from .values import allgather, allreduce, broadcast, broadcast_global_variables
from ..unsupported import MISSING
from ...unsupported import missing_names

__all__ = ["Compression", "DistributedOptimizer", "allgather", "allreduce", "broadcast",
           "broadcast_global_variables", "callbacks", "elastic", "init", "is_initialized", "load_model", "local_rank",
           "local_size", "mpi_threads_supported", "rank", "shutdown", "size"]

# Horovod's Keras names ringflow lacks (process sets) fail saying why, as horovod.tensorflow's do
__getattr__ = missing_names(__name__, reasons=MISSING, have="see README, \"Horovod's API\"")
