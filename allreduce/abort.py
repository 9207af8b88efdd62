"""Nothing hangs: once ringflow talks to other ranks, a rank that fails ends the whole MPI job.

An uncaught exception ends only its own process, and mpiexec does not end a job when one process exits with an
error (it does when one is killed by a signal): the other ranks would wait forever in their next collective.
So `install()`, called when a communicator of more than one rank is created, chains sys.excepthook and
threading.excepthook as `python -m mpi4py` does for its scripts: the failing rank prints one line,
`ringflow: error on rank R: Type: message` (after the traceback with RINGFLOW_TRACEBACK=1), and calls MPI_Abort.

A collective abandoned after a timeout is remembered: a program that catches CollectiveTimeout and then ends
normally would leave the late rank, and so mpiexec, waiting; it aborts the job at exit instead.
RINGFLOW_ABORT_ON_ERROR=0 turns all of this off (read when it matters, so a test can switch it for one call).

mpi4py is imported when a rank aborts, not with this module: early_abort.py, which `import trainer` loads, aborts
through abort_job() and must not start MPI before a rank has failed.
"""
import atexit
import fcntl
import os
import struct
import sys
import termios
import threading
import time

from . import sentinel

ENV = "RINGFLOW_ABORT_ON_ERROR"
SWITCH = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}
EXIT_CODE, INTERRUPTED_CODE = 1, 130  # the CLI's codes: an error, and Ctrl-C (128 + SIGINT)
# mpiexec forwards a rank's output asynchronously and drops what it has not forwarded yet when the job is
# aborted. A fixed 0.2 s pause lost the line in 2 of 15 aborts without it, 0 of 40 with it (mpich wheel, idle
# machine), but on 2 busy cores `ringflow train` still lost it in 1 of 30: so the rank first waits until the
# launcher's proxy has read everything from its stdout/stderr pipes (FIONREAD: bytes still in the pipe), for
# at most DRAIN_MAX_S, and then pauses FORWARD_S for the proxy to pass it on to mpiexec.
FORWARD_S = 0.2
DRAIN_MAX_S, DRAIN_POLL_S = 10.0, 0.01

_installed = False
_abandoned = []  # what each abandoned collective was, for the message at exit


def enabled():
    """Whether a failing rank aborts the job: $RINGFLOW_ABORT_ON_ERROR, on unless set to 0/false/no/off."""
    text = os.environ.get(ENV, "1")
    if text.strip().lower() not in SWITCH:
        raise ValueError(f"{ENV}={text!r} is not understood: set it to 1 (a failing rank aborts the MPI job, the "
                         f"default) or 0 (it does not: the other ranks may wait until their timeout or forever)")
    return SWITCH[text.strip().lower()]


def install():
    """Chain the exception hooks and the exit check (once per process; checks the switch now)."""
    global _installed
    if _installed or not enabled():
        return
    _installed = True
    previous, previous_thread = sys.excepthook, threading.excepthook
    # early_abort.py's hooks (a rank failing before MPI started) step aside for these
    previous = getattr(previous, "ringflow_previous", previous)
    previous_thread = getattr(previous_thread, "ringflow_previous", previous_thread)

    def excepthook(kind, value, tb):
        _fail(kind, value, tb, lambda: previous(kind, value, tb), previous is sys.__excepthook__, "")

    def thread_excepthook(args):
        if args.exc_type is SystemExit:  # threading ignores it too
            return previous_thread(args)
        name = getattr(args.thread, "name", "?")
        _fail(args.exc_type, args.exc_value, args.exc_traceback, lambda: previous_thread(args),
              previous_thread is threading.__excepthook__, f" (thread {name!r})")

    sys.excepthook, threading.excepthook = excepthook, thread_excepthook
    atexit.register(_at_exit)


def abandoned(what):
    """Record that a collective was given up on: the job cannot end cleanly any more."""
    if _installed and enabled():
        _abandoned.append(what)


def _fail(kind, value, tb, previous, previous_is_default, where):
    if not (_job_running() and _switched_on()):
        return previous()
    if not previous_is_default or os.environ.get("RINGFLOW_TRACEBACK"):
        previous()  # the user's own hook still runs; Python's default one only prints the traceback
    if issubclass(kind, KeyboardInterrupt):
        message, code = "interrupted", INTERRUPTED_CODE
    else:
        message, code = f"{kind.__name__}: {value}", EXIT_CODE
    _abort(f"ringflow: error on rank {_mpi().COMM_WORLD.Get_rank()}{where}: {message}", code)


def _at_exit():
    if not (_abandoned and _job_running() and _switched_on()):
        return
    _abort(f"ringflow: rank {_mpi().COMM_WORLD.Get_rank()} ends with {_abandoned[0]} abandoned after a timeout: "
           f"aborting the job so that no rank is left waiting in it (set {ENV}=0 to end normally instead)",
           EXIT_CODE)


def abort_job(code, line=None):
    """Abort the whole MPI job with this exit code, as a failing rank does (no-op in a job of one rank), once
    `line` (if given) written to stderr has reached the launcher; for a program that reports its own failure
    (`ringflow train`) or a rank that failed before MPI started (early_abort.py)."""
    if _job_running():
        _abort(line, code)


def _abort(line, code):
    sentinel.leaving(sentinel.ABORT)  # this rank says why itself: the others' ends that follow are no news
    sys.stdout.flush()
    if line is not None:
        sys.stderr.write(line + "\n")
    sys.stderr.flush()
    wait_forwarded()
    _mpi().COMM_WORLD.Abort(code)
    os._exit(code)  # MPICH's MPI_Abort may return while mpiexec is still killing the job


def wait_forwarded(fds=(1, 2), limit=DRAIN_MAX_S):
    """Return once the reader of each pipe in fds (the launcher's proxy) has taken what was written to it, or
    after `limit` seconds, plus FORWARD_S for the proxy to send it on. A file or terminal needs no wait."""
    deadline = time.monotonic() + limit
    for fd in fds:
        while _unread(fd) and time.monotonic() < deadline:
            time.sleep(DRAIN_POLL_S)
    time.sleep(FORWARD_S)


def _unread(fd):
    """Bytes written to pipe fd that its reader has not read yet (0 for anything that is not a pipe)."""
    try:
        if not os.path.exists(f"/proc/self/fd/{fd}") or not os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
            return 0
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
    except OSError:
        return 0


def _job_running():
    MPI = _mpi()
    return MPI.Is_initialized() and not MPI.Is_finalized() and MPI.COMM_WORLD.Get_size() > 1


def _mpi():
    from mpi4py import MPI  # starts MPI: see the module's docstring
    return MPI


def _switched_on():
    try:
        return enabled()
    except ValueError:  # checked at install: someone changed it since; failing loudly beats hanging
        return True
