"""The parameter-server cluster over MPI: peers found by (job, task), the ps service loop, and the
worker sessions whose ps-placed variables live on the ps tasks. MPI is the only transport."""
from .peers import Peers, find_peers
from .ps_service import serve
from .remote_store import CLUSTER_TARGET_PREFIX, attach, current_client

__all__ = ["CLUSTER_TARGET_PREFIX", "Peers", "attach", "current_client", "find_peers", "serve"]
