"""`ringflow run`: one launcher for every MPI and for Slurm, with restarts that survive a lost rank or node.

options.py reads the command line; detect.py picks the launcher (srun in a Slurm allocation, else Hydra's
mpiexec or Open MPI's mpirun, matching mpi4py's MPI); setup.py and launch_lines.py build the launch line;
job.py runs it, passing its output through; failures.py says which rank and host failed; restarts.py decides
whether and where to launch again.
"""
import os
import sys

from .detect import LaunchEnvironmentError, choose
from .options import UsageError, parse
from .restarts import supervise
from .setup import Setup

HELP = "launch PROGRAM (`train ...` or any command) on N ranks with this MPI's launcher or srun, with restarts"


def main(argv):
    """`ringflow run ARGV`; returns the exit code: the job's, or 2 for a refused command line or environment."""
    try:
        request = parse(argv)
        family, executable, library = choose(request.launcher, os.environ)
        setup = Setup(request, family, executable, library, os.environ)
    except (UsageError, LaunchEnvironmentError, ValueError) as exc:
        sys.stderr.write(f"ringflow run: error: {exc}\n")
        return 2
    return supervise(request, family, setup, dict(os.environ))
