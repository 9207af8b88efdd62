"""A rank that fails before MPI has started still ends the whole job.

Once a communicator exists, a rank's uncaught exception aborts the MPI job (allreduce/abort.py). Before that,
while a script loads its data or builds its graph, MPI is not even initialized on the failing rank, and the
other ranks, reaching their own MPI_Init (hvd.init(), DistributedOptimizer), wait in it for every process of
the job: one rank's missing data file left the job hanging for ever.

So `import trainer` calls install(): in a process that a launcher started as one of several ranks (or gave a rank
without the job's size, as PMIx may: launcher.py), it chains sys.excepthook and threading.excepthook. A failing
rank prints one line, `ringflow: error on rank R: Type: message` (after the traceback with RINGFLOW_TRACEBACK=1),
then starts MPI itself so that the others' MPI_Init can complete, and aborts the job (abort.abort_job). If the
others do not start MPI within $RINGFLOW_TIMEOUT seconds (300 by default, waiting.py's; a script that does not
use MPI at all), it exits alone with code 1, as it would have without ringflow. Nothing here starts MPI until a rank fails: `import trainer` stays free of MPI.

When abort.py installs its own hooks, these step aside (abort.py chains to `ringflow_previous`).
RINGFLOW_ABORT_ON_ERROR=0 turns this off as it does abort.py.
"""
import faulthandler
import os
import sys
import threading

from . import abort, launcher
from .abort import EXIT_CODE, INTERRUPTED_CODE
from .waiting import DEFAULT_TIMEOUT_S


def launched_ranks():
    """How many ranks the launcher started, read from its environment without starting MPI: 1 when run alone,
    None when a launcher gave this process a rank but not the job's size (PMIx)."""
    if launcher.launcher() is None:
        return 1
    return launcher.size()


def install():
    """Chain the hooks if this process is one rank of several and aborting is not switched off."""
    ranks = launched_ranks()
    switch = os.environ.get(abort.ENV, "1").strip().lower()
    if (ranks is not None and ranks < 2) or abort.SWITCH.get(switch, True) is False:
        return  # abort.py refuses a value it does not understand; failing here would break `import trainer`
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
    # starts MPI, so the others' MPI_Init completes with ours; waits for mpiexec to forward the line, then aborts
    abort.abort_job(code)
    os._exit(code)  # a job of one rank after all


def _rank():
    try:
        rank = launcher.rank()
    except ValueError:  # install() read them fine: someone changed them since; the failure matters more
        rank = None
    return "?" if rank is None else rank


def _wait_s():
    # a rank that never starts MPI is "late" as long as a collective's partner would be
    try:
        value = float(os.environ.get("RINGFLOW_TIMEOUT", "") or DEFAULT_TIMEOUT_S)
    except ValueError:
        return DEFAULT_TIMEOUT_S
    return value if 0 < value < float("inf") else DEFAULT_TIMEOUT_S
