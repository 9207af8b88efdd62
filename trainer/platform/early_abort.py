"""A rank that fails before MPI has started still ends the whole job.

Once a communicator exists, a rank's uncaught exception aborts the MPI job (allreduce/abort.py). Before that,
while a script loads its data or builds its graph, MPI is not even initialized on the failing rank, and the
other ranks, reaching their own MPI_Init (hvd.init(), DistributedOptimizer), wait in it for every process of
the job: one rank's missing data file left the job hanging for ever.

So `import trainer`, in a process that a launcher started as one of several ranks, chains sys.excepthook and
threading.excepthook. A failing rank prints one line, `ringflow: error on rank R: Type: message` (after the
traceback with RINGFLOW_TRACEBACK=1), then starts MPI itself so that the others' MPI_Init can complete, and
aborts the job. If the others do not start MPI within $RINGFLOW_TIMEOUT seconds (300 by default; a script
that does not use MPI at all), it exits alone with code 1, as it would have without ringflow.
Nothing here imports MPI until a rank fails: `import trainer` stays free of MPI.

When allreduce/abort.py installs its own hooks, these step aside (abort.py chains to `ringflow_previous`).
RINGFLOW_ABORT_ON_ERROR=0 turns this off as it does abort.py.
"""
import faulthandler
import os
import sys
import threading

import allreduce

SIZE_VARIABLES = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE")  # MPICH/hydra, Open MPI, MVAPICH
RANK_VARIABLES = ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK")
OFF = {"0", "false", "no", "off"}
EXIT_CODE, INTERRUPTED_CODE = 1, 130  # abort.py's codes
DEFAULT_WAIT_S = 300.0  # allreduce.waiting's default timeout: a rank that never starts MPI is "late" as long


def launched_ranks():
    """How many ranks the launcher started, read from its environment without starting MPI (1 if alone)."""
    for name in SIZE_VARIABLES:
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return 1


def install():
    """Chain the hooks if this process is one rank of several and aborting is not switched off."""
    if launched_ranks() < 2 or os.environ.get("RINGFLOW_ABORT_ON_ERROR", "1").strip().lower() in OFF:
        return
    if getattr(sys.excepthook, "ringflow_previous", None) is not None:
        return  # installed already
    previous, previous_thread = sys.excepthook, threading.excepthook

    def excepthook(kind, value, tb):
        _fail(kind, value, lambda: previous(kind, value, tb), "")

    def thread_excepthook(args):
        if args.exc_type is SystemExit:
            return previous_thread(args)
        where = f" (thread {getattr(args.thread, 'name', '?')!r})"
        _fail(args.exc_type, args.exc_value, lambda: previous_thread(args), where)

    excepthook.ringflow_previous, thread_excepthook.ringflow_previous = previous, previous_thread
    sys.excepthook, threading.excepthook = excepthook, thread_excepthook


def _fail(kind, value, previous, where):
    if os.environ.get("RINGFLOW_TRACEBACK"):
        previous()
    interrupted = issubclass(kind, KeyboardInterrupt)
    message, code = ("interrupted", INTERRUPTED_CODE) if interrupted else (f"{kind.__name__}: {value}", EXIT_CODE)
    sys.stdout.flush()
    sys.stderr.write(f"ringflow: error on rank {_rank()}{where}: {message}\n")
    sys.stderr.flush()
    # MPI_Init holds the GIL while it waits for the other ranks: only faulthandler's C watchdog can end the wait
    faulthandler.dump_traceback_later(_wait_s(), exit=True, file=open(os.devnull, "w"))
    allreduce.abort.abort_job(code)  # loads abort.py, which starts MPI: the others' MPI_Init completes with ours  # waits for mpiexec to forward the line, then MPI_Abort
    os._exit(code)  # a job of one rank after all


def _rank():
    for name in RANK_VARIABLES:
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return "?"


def _wait_s():
    try:
        value = float(os.environ.get("RINGFLOW_TIMEOUT", "") or DEFAULT_WAIT_S)
    except ValueError:
        return DEFAULT_WAIT_S
    return value if 0 < value < float("inf") else DEFAULT_WAIT_S
