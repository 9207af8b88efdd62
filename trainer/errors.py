"""Errors raised while running a graph."""


class FailedPreconditionError(RuntimeError):
    """The graph cannot run yet, e.g. a variable is read before it was initialized."""
