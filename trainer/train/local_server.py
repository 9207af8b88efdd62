"""The in-process server of tf.train.Server.create_local_server(): one task, job "localhost", in this process.

TF1 starts a one-task cluster in the calling process; a session on its target runs the graph right here, and
the variables it creates belong to the server (TF1's resource containers, keyed by variable name), so every
session on that target, of whatever graph, sees the same values, and closing a session keeps them. Sessions
reach a server through the "local://" target, served from the client's target registry.
"""
import itertools
import threading

from ..client.session import VariableStore, register_target
from ..platform.errors import FailedPreconditionError

TARGET_PREFIX = "local://"
_servers = {}  # address -> its ServerVariables
_addresses = itertools.count()
_lock = threading.Lock()


class ServerVariables(VariableStore):
    """A local server's variables by name: a VariableStore whose keys are the variable ops' names."""

    def __getitem__(self, op):
        return super().__getitem__(op.name)

    def __setitem__(self, op, value):
        super().__setitem__(op.name, value)

    def __contains__(self, op):
        return super().__contains__(op.name)

    def get(self, op, default=None):
        return super().get(op.name, default)

    def pop(self, op, *default):
        return super().pop(op.name, *default)

    def __missing__(self, name):
        raise FailedPreconditionError(
            f"Attempting to use uninitialized value {name!r}: run tg.global_variables_initializer() (or "
            f"{name}.initializer) in a session on this server first")


def start():
    """A new local server's address ("localhost:K", K counting this process's local servers)."""
    with _lock:
        address = f"localhost:{next(_addresses)}"
        _servers[address] = ServerVariables()
    return address


def local_plans(session):
    """Serve a session on "local://localhost:K": it keeps its variables in that server's store and runs its
    plans as they are (registered with the client's target registry below)."""
    address = session.target[len(TARGET_PREFIX):]
    if address not in _servers:
        raise ValueError(f"Session target {session.target!r} names no local server of this process (there are "
                         f"{sorted(_servers)!r}): pass the target of tg.train.Server.create_local_server()")
    session.variables = _servers[address]
    return lambda plan: plan


register_target(TARGET_PREFIX, local_plans)
