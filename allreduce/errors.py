"""Errors raised by collectives."""


class CollectiveTimeout(TimeoutError):
    """A collective waited longer than its timeout for other ranks.

    `.rank` is the rank that gave up, `.waiting_for` the ranks it was still waiting for. The communicator
    is unusable afterwards (messages of the abandoned collective may still arrive): create a new one.
    """

    def __init__(self, message, rank=None, waiting_for=()):
        super().__init__(message)
        self.rank = rank
        self.waiting_for = tuple(waiting_for)
