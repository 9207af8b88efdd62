"""Collectives between MPI ranks: `create_communicator(name)` with name in "ring", "mpi", "ps", "shm",
"hierarchical", "nccl", "auto". Imports only numpy and mpi4py (CuPy lazily, when "nccl" or "auto" asks for it).

`import allreduce` itself loads nothing: mpi4py starts MPI when it is imported, so the backends (and MPI) load
when a name below or a submodule is first used. A program can import allreduce (trainer does) before it knows
whether a launcher started it, and `import trainer` never starts MPI.

Once a communicator of more than one rank exists, a rank's uncaught exception aborts the whole MPI job
(abort.py; RINGFLOW_ABORT_ON_ERROR=0 turns that off), so no rank is left waiting in a collective."""
import importlib

__all__ = ["BACKENDS", "CollectiveMismatch", "CollectiveTimeout", "Communicator", "FusedAllreduce", "RankExited",
           "create_communicator", "register"]
_HOMES = {"CollectiveTimeout": "errors", "RankExited": "errors", "Communicator": "communicator",
          "BACKENDS": "registry", "create_communicator": "registry", "register": "registry",
          "FusedAllreduce": "fusion", "CollectiveMismatch": "errors"}
_BACKENDS = ("ring", "mpi", "ps", "shm", "hierarchical", "nccl", "auto")  # each registers itself when imported


def _load():
    for backend in _BACKENDS:
        importlib.import_module(f"{__name__}.{backend}")
    for name, home in _HOMES.items():
        globals()[name] = getattr(importlib.import_module(f"{__name__}.{home}"), name)


def __getattr__(name):
    if name in _HOMES:
        _load()
        return globals()[name]
    if not name.startswith("_"):  # a submodule, imported on first use as `allreduce.NAME`
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__) | set(_BACKENDS))
