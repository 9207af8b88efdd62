"""`--restarts K`: run the job, and when it fails, say which rank and host failed and how, leave that host out
(Horovod elastic's blacklist) while at least --min-np ranks remain, and launch again, up to K times.

A `train` PROGRAM with --checkpoint-dir resumes from its newest checkpoint (ringflow train splits the global
batch over the ranks, so a resume on fewer ranks continues the same optimization). Not restarted: a job that
exits with code 2 (a usage or configuration error), a program that cannot be started, a job stopped by a signal
on purpose, and one that fails the same way twice without progress (no new checkpoint, or, where there are
no checkpoints to tell, twice in a row): a restart would only repeat it.
"""
import re
import signal
import sys

from ..outputs.resume import latest_legacy_checkpoint, newest_usable_checkpoint
from . import failures, job, program
from . import hosts as hostlists
from .launch_lines import launch_line, shown

NOT_STARTED = {126, 127}  # rank_start.py: the program does not exist or may not run
CONFIGURATION_ERROR = 2  # ringflow train, argparse and python itself exit 2 for a bad command line
STOPPED = re.compile(r"^ringflow: stopped by (SIG\w+)")


def say(text):
    sys.stderr.write(f"ringflow run: {text}\n")
    sys.stderr.flush()


def newest_checkpoint(directory):
    """(path, step) of the checkpoint `ringflow train --checkpoint-dir directory` resumes from, or None."""
    path = newest_usable_checkpoint(directory) or latest_legacy_checkpoint(directory)
    m = path and re.search(r"-(\d+)(?:\.npz)?$", path)
    return (path, int(m.group(1))) if m else None


def supervise(request, family, setup, environ):
    """Launch until the job succeeds or may not be restarted; the exit code. `setup` builds each attempt's Plan
    from (pool, np): the hosts to use (None: this machine or the whole allocation) and the rank count."""
    pool, np = setup.pool, setup.np
    min_np = request.min_np or np
    directory = program.checkpoint_dir(request.program)
    previous = None  # how the last attempt that made no progress failed
    for attempt in range(request.restarts + 1):
        plan = setup.plan(pool, np)
        argv, env = launch_line(family, plan, environ)
        say(shown(family, argv, plan))
        if request.dry_run:
            return 0
        before = newest_checkpoint(directory) if directory else None
        outcome = job.run(argv, env)
        if outcome.code == 0:
            if attempt:
                say(f"the job finished after {attempt} restart(s)")
            return 0
        placed = hostlists.placement(pool, np, cyclic=request.map_by == "node") if pool else None
        failure = failures.diagnose(outcome.lines, outcome.ranks, outcome.code, placed, outcome.exits)
        say(f"attempt {attempt + 1} of {request.restarts + 1} failed after {outcome.seconds:.1f} s: "
            f"{failure.describe()}")
        progress = None if not directory else newest_checkpoint(directory) != before
        why = why_not_restart(outcome, failure, progress, previous, request.restarts - attempt)
        if why:
            say(f"not restarting: {why}")
            return outcome.code or 1
        previous = None if progress else failure.signature()
        pool, np, note = leave_out(pool, np, setup.np, failure, min_np)
        if note:
            say(note)
        say(f"restarting ({request.restarts - attempt - 1} restart(s) left) on {np} rank(s): "
            f"{resume_point(request.program, directory)}")
    raise AssertionError("unreachable: the last attempt returns")


def why_not_restart(outcome, failure, progress, previous, left):
    """Why the job must not be launched again (None: restart it)."""
    stopped = next((m.group(1) for m in map(STOPPED.match, outcome.lines) if m), None)
    if outcome.signalled:
        return f"ringflow run was sent {signal.Signals(outcome.signalled).name}"
    if stopped:
        return f"the job was stopped by {stopped}, not by a fault; run the same command again to resume"
    if outcome.code in NOT_STARTED:
        return "the program could not be started"
    if outcome.code == CONFIGURATION_ERROR and failure.kind != "killed":
        return "exit code 2 is a usage or configuration error, which a restart would repeat"
    if previous is not None and not progress and failure.signature() == previous:
        since = "twice in a row" if progress is None else "twice without writing a checkpoint"
        return f"it failed the same way {since}: a configuration or program error, not a lost rank"
    if left == 0:
        return "no restarts left (--restarts)"
    return None


def leave_out(pool, np, wanted, failure, min_np):
    """(pool, np, note) for the next attempt: the failed host left out while min_np ranks remain."""
    names = [name for name, _ in pool or ()]
    if failure.host not in names or len(names) < 2:
        return pool, np, None
    rest = [(name, n) for name, n in pool if name != failure.host]
    fewer = min(wanted, hostlists.slots(rest))
    if fewer < min_np:
        return pool, np, (f"keeping host {failure.host} in: without it {fewer} rank(s) would remain, fewer than "
                          f"--min-np {min_np}")
    return rest, fewer, f"leaving host {failure.host} out: {hostlists.render(rest)} remain"


def resume_point(words, directory):
    if words[0] != "train":
        return f"{words[0]!r} starts again from the beginning"
    if not directory:
        return "ringflow train starts again from step 0 (no --checkpoint-dir to resume from)"
    found = newest_checkpoint(directory)
    if found is None:
        return f"ringflow train starts again from step 0 (no checkpoint in {directory!r} yet)"
    return f"ringflow train resumes from {found[0]!r} (step {found[1]})"
