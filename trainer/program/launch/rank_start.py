"""Run by `ringflow run` in front of each rank's program (`python -I rank_start.py PROGRAM ARGS...`).

It starts PROGRAM as its child, passes on the signals a launcher sends (SIGTERM, SIGINT, ...), and writes two lines
to stderr, which `ringflow run` takes out of the output: `@ringflow-rank RANK PID PROGRAM_PID HOST` at the start
and `@ringflow-exit RANK signal|code N` when PROGRAM ends, before it ends the same way itself. A launcher kills the
other ranks only after the first one has ended, so the first `@ringflow-exit` that is not 0 names the rank that
failed first; a launcher's own report does not (Hydra names the lowest rank of a host among those its clean-up
killed, by pid). If rank_start is killed, PROGRAM is killed with it (PR_SET_PDEATHSIG), so no rank is left behind.

Standard library only, so it starts in milliseconds: the rank comes from allreduce/launcher.py, which imports only
os (and `import allreduce` loads nothing). `python -I` leaves the project off sys.path, so the folder holding
trainer/ and allreduce/ (the checkout, or site-packages) is put first. Where there is no prctl (not Linux) it
becomes PROGRAM (exec: the same pid), and reports only the first line.
"""
import ctypes
import os
import signal
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
from allreduce import launcher  # noqa: E402

MARKER, EXIT_MARKER = "@ringflow-rank", "@ringflow-exit"
PASSED_ON = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)
NOT_FOUND = 127  # the shell's code for a program that cannot be run
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def rank():
    try:
        found = launcher.rank()
    except ValueError:  # the program says so when it reads them; rank_start only reports
        found = None
    return "?" if found is None else found


def say(text):
    os.write(2, f"{text}\n".encode())


def die_with_parent():
    """Have the kernel SIGKILL this process when its parent dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def start(argv):
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        say(f"ringflow run: rank {rank()} cannot run {argv[0]!r}: {exc.strerror}")
    os._exit(NOT_FOUND)


def main(argv):
    """Run PROGRAM (argv) to its end as described above; returns its exit code (or ends by its signal)."""
    parent, host = os.getpid(), socket.gethostname()
    if not sys.platform.startswith("linux"):
        say(f"{MARKER} {rank()} {parent} {parent} {host}")
        start(argv)
    child = os.fork()
    if child == 0:
        die_with_parent()
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(NOT_FOUND)
        start(argv)
    for s in PASSED_ON:
        signal.signal(s, lambda signum, frame: os.kill(child, signum))
    say(f"{MARKER} {rank()} {parent} {child} {host}")
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        say(f"{EXIT_MARKER} {rank()} signal {signum}")
        if signum in PASSED_ON:
            signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    code = os.waitstatus_to_exitcode(status)
    say(f"{EXIT_MARKER} {rank()} code {code}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
