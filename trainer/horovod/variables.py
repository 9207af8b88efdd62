"""Horovod's way to start every rank from the same weights: an op assigning root's values to the variables."""
from ..framework.graph import get_default_graph
from ..ops.core_ops import group
from ..train.session_run_hook import SessionRunHook
from ..ops.variables import global_variables
from .mpi_ops import broadcast


def broadcast_variables(variables, root_rank):
    """An op that assigns root_rank's value of each variable to it on every rank (run it on every rank).

    The broadcasts go in the order of the variables' names: Horovod pairs the ranks' tensors by name, and ranks may
    have made the same variables in another order (a model loaded from a file on root, built in code elsewhere)."""
    ordered = sorted(variables, key=lambda v: v.name)
    return group(*[v.assign(broadcast(v, root_rank)) for v in ordered], name="HorovodBroadcastVariables")


def broadcast_global_variables(root_rank):
    """broadcast_variables of every global variable: weights, optimizer slots and the global step."""
    return broadcast_variables(global_variables(), root_rank)


class BroadcastGlobalVariablesHook(SessionRunHook):
    """Broadcasts root_rank's global variables once the monitored session has initialized or restored them.

    `device` is accepted and ignored: the broadcast runs where the session runs.
    """

    def __init__(self, root_rank, device=""):
        self.root_rank, self.device = root_rank, device
        self.bcast_op = None

    def begin(self):
        if self.bcast_op is None or self.bcast_op.graph is not get_default_graph():
            self.bcast_op = broadcast_global_variables(self.root_rank)

    def after_create_session(self, session, coord):
        session.run(self.bcast_op)
