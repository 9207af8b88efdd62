"""Horovod's collectives on Python objects: allgather_object, broadcast_object, broadcast_object_fn.

An object travels pickled, as Horovod sends it, and as bytes through the communicator's variable-length
collectives directly (the communicator itself never pickles): unlike tensors these need no graph, so they work
with or without a Session (Horovod's `session` argument is accepted and not needed). Like Horovod's, they
unpickle what the other ranks of the job send.
"""
import pickle

import numpy as np

from .basics import communicator


def _dumps(obj):
    return np.frombuffer(pickle.dumps(obj), np.uint8)


def allgather_object(obj, session=None, name=None):
    """Every rank's picklable `obj` as a list in rank order."""
    parts = communicator().allgatherv_list(_dumps(obj), what=f"hvd.allgather_object {name or 'allgather_object'!r}")
    return [pickle.loads(part.tobytes()) for part in parts]


def broadcast_object(obj, root_rank=0, session=None, name=None):
    """Root's picklable `obj` on every rank (the other ranks' obj is ignored)."""
    comm = communicator()
    data = _dumps(obj) if comm.rank == root_rank else None
    return pickle.loads(comm.broadcast_bytes(data, root_rank, f"hvd.broadcast_object {name or 'broadcast_object'!r}"))


def broadcast_object_fn(root_rank=0, session=None, name=None):
    """A function obj -> broadcast_object(obj, root_rank): Horovod's way to broadcast many objects in TF1."""
    def broadcast(obj):
        return broadcast_object(obj, root_rank, session, name)
    return broadcast
