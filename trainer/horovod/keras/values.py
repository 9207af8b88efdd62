"""Horovod's Keras collectives: numpy values in, numpy values out, run as Horovod ops in Keras' session."""
from ...framework.graph_wrappers import name_scope
from ...keras import backend as K
from ...ops.core_ops import constant
from ..mpi_ops import Average, Sum, allgather as allgather_op, allreduce as allreduce_op, broadcast as broadcast_op
from ..variables import broadcast_global_variables as broadcast_op_of_globals


def allreduce(value, name=None, average=True):
    """The average (average=False: sum) of `value` over all ranks, as a numpy array."""
    with name_scope(name or "HorovodAllreduce"):
        return K.get_session().run(allreduce_op(constant(value), op=Average if average else Sum))


def allgather(value, name=None):
    """Every rank's `value` concatenated along axis 0 in rank order (first dimensions may differ)."""
    with name_scope(name or "HorovodAllgather"):
        return K.get_session().run(allgather_op(constant(value)))


def broadcast(value, root_rank, name=None):
    """root_rank's `value` on every rank."""
    with name_scope(name or "HorovodBroadcast"):
        return K.get_session().run(broadcast_op(constant(value), root_rank))


def broadcast_global_variables(root_rank):
    """Give every global variable root_rank's value, in Keras' session (collective: call it on every rank)."""
    K.get_session().run(broadcast_op_of_globals(root_rank))
