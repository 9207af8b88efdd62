"""The parameter-server cluster over MPI: peers found by (job, task), the ps service loop, and the worker
sessions whose ps-placed variables live on the ps tasks. MPI is the only transport.

Importing this package plugs it into the engine through two public doors: the "mpi://" session target
(client/session.py's register_target) and tg.train.Server's runtime (train/server_lib.py's register_runtime).
"""
from ...client.session import register_target
from ...train.server_lib import register_runtime
from . import task
from .remote_store import CLUSTER_TARGET_PREFIX, cluster_plans

register_target(CLUSTER_TARGET_PREFIX, cluster_plans)
register_runtime(task)
