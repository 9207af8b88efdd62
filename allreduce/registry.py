"""Communicators by name: each backend module registers its class here."""
BACKENDS = {}


def register(name):
    def deco(cls):
        cls.name = name
        BACKENDS[name] = cls
        return cls
    return deco


def create_communicator(name="ring", comm=None, timeout=None):
    """A communicator of backend `name` over `comm` (None: MPI.COMM_WORLD); timeout in seconds
    (None: $RINGFLOW_TIMEOUT, else 300). Collective over comm: every rank must call it."""
    if name not in BACKENDS:
        raise ValueError(f"Unknown communicator {name!r}: known ones are {sorted(BACKENDS)}")
    return BACKENDS[name](comm=comm, timeout=timeout)
