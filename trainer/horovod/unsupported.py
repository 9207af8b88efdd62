"""Horovod names ringflow does not have, with why and what to do instead.

hvd.join() needs ranks that run different numbers of steps (so would hvd.elastic's ranks joining and leaving; its
state objects are in elastic.py). ringflow's collectives are
synchronous ops without Horovod's background negotiation: each one runs when Session.run reaches it and waits
for the same collective on every rank, so a rank that has stopped cannot stand in for the others' reductions.
"""
from ..unsupported import NotInRingflow  # noqa: F401  (its public name here too: one class for tf and hvd)

_EVEN = ("every rank must run the same steps with the same collectives: give every rank the same number of "
         "batches (trainer.data.Pipeline splits each global batch evenly over the ranks, so they do)")
_PROCESS_SETS = "process sets: run the Horovod API on a subset of the ranks with hvd.init(comm=[ranks])"
MISSING = {
    "ProcessSet": _PROCESS_SETS, "add_process_set": _PROCESS_SETS, "remove_process_set": _PROCESS_SETS,
    "global_process_set": _PROCESS_SETS,
}


def join():
    """Horovod's join(): not implemented (ringflow's collectives are synchronous); raises NotImplementedError."""
    raise NotImplementedError(f"hvd.join() is not implemented: ringflow's collectives are synchronous (each waits "
                              f"for the same collective on every rank, with no rank standing in for one that "
                              f"has joined), so {_EVEN}")
