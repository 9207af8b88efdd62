"""tg.config.threading: the thread-pool sizes TF keeps (see settings.py)."""
from .settings import (get_inter_op_parallelism_threads, get_intra_op_parallelism_threads,
                       set_inter_op_parallelism_threads, set_intra_op_parallelism_threads)

__all__ = ["get_inter_op_parallelism_threads", "get_intra_op_parallelism_threads", "set_inter_op_parallelism_threads",
           "set_intra_op_parallelism_threads"]
