"""Run by `ringflow run` in front of each rank's program (`python -I rank_start.py PROGRAM ARGS...`): it writes one
line, `@ringflow-rank RANK PID HOST`, to stderr and then becomes PROGRAM (exec: the same pid). `ringflow run` takes
these lines out of the output and uses them to name the rank and host of a process the MPI launcher reports dead
(Hydra names only its pid). Standard library only, so it starts in milliseconds."""
import os
import socket
import sys

MARKER = "@ringflow-rank"
RANK_VARIABLES = ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID")
NOT_FOUND, NOT_EXECUTABLE = 127, 126  # the shell's codes for a missing command and one it may not run


def rank():
    return next((os.environ[v] for v in RANK_VARIABLES if os.environ.get(v, "").isdigit()), "?")


def main(argv):
    os.write(2, f"{MARKER} {rank()} {os.getpid()} {socket.gethostname()}\n".encode())
    try:
        os.execvp(argv[0], argv)
    except FileNotFoundError:
        code, why = NOT_FOUND, "no such program"
    except PermissionError:
        code, why = NOT_EXECUTABLE, "not executable"
    sys.stderr.write(f"ringflow run: rank {rank()} cannot run {argv[0]!r}: {why}\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
