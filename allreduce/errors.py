"""Errors raised by collectives."""


class CollectiveTimeout(TimeoutError):
    """A collective waited longer than its timeout for other ranks.

    `.rank` is the rank that gave up, `.waiting_for` the ranks that never arrived (those that did not answer
    the ranks giving up), `.what` the collective's label ("step 7's gradient allreduce"). The communicator is
    unusable afterwards (messages of the abandoned collective may still arrive): create a new one. Unless
    RINGFLOW_ABORT_ON_ERROR=0, a process that ends after one aborts the MPI job, so the late rank cannot hang it.
    """

    def __init__(self, message, rank=None, waiting_for=(), what=None):
        super().__init__(message)
        self.rank = rank
        self.waiting_for = tuple(waiting_for)
        self.what = what


class RankExited(CollectiveTimeout):
    """A collective cannot complete because a rank it needs has ended its program (returned, or called
    sys.exit) instead of joining it: raised as soon as that rank's exit notice arrives (departure.py), not after
    the timeout. A CollectiveTimeout in every other respect: `.waiting_for` holds the ranks that left."""


class CollectiveMismatch(ValueError):
    """Ranks called different collectives, or the same one with a different shape, dtype, op or root: raised on
    every rank at once, before any data moves; the communicator stays usable. `.signatures[r]` is what rank r
    called, as (label, shape, dtype string, op) where op is a reduction's name, a broadcast's root rank, or the
    collective's kind; `.rank` is the rank raising it."""

    def __init__(self, message, signatures=(), rank=None):
        super().__init__(message)
        self.signatures = list(signatures)
        self.rank = rank
