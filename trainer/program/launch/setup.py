"""What every attempt of a `ringflow run` job shares: the hosts it may use, the rank count, the program each rank
runs and its environment; `plan(pool, np)` makes one attempt's launch Plan.

Without -np: the slots of -H/--hostfile, the tasks of the Slurm allocation, else one rank per core this process
may use (os.sched_getaffinity: a cpuset or binding counts), as mpirun does. When a host runs several ranks,
each rank gets OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS=1 unless they are set (as torchrun
does), so N ranks do not start N thread pools of N threads.
"""
import collections
import os

from . import detect, program
from . import hosts as hostlists
from .launch_lines import Plan

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform (macOS)
        return os.cpu_count() or 1


def allocation(environ):
    """The Slurm allocation's hosts and task slots, or None when the variables are missing."""
    nodes, tasks = environ.get("SLURM_JOB_NODELIST"), environ.get("SLURM_TASKS_PER_NODE")
    if not nodes:
        return None
    names = hostlists.expand_nodelist(nodes)
    counts = hostlists.expand_tasks_per_node(tasks) if tasks else [1] * len(names)
    if len(counts) != len(names):
        raise ValueError(f"SLURM_TASKS_PER_NODE={tasks!r} counts {len(counts)} nodes, SLURM_JOB_NODELIST="
                         f"{nodes!r} {len(names)}")
    return list(zip(names, counts))


class Setup:
    def __init__(self, request, family, executable, library, environ):
        self.request, self.executable, self.environ = request, executable, environ
        slurm = family == "slurm"
        self.pool = request.hosts if request.hosts is not None else (allocation(environ) if slurm else None)
        if request.np:
            self.np = request.np
        elif slurm and environ.get("SLURM_NTASKS", "").isdigit():
            self.np = int(environ["SLURM_NTASKS"])
        else:
            self.np = hostlists.slots(self.pool) if self.pool else cores()
        self.command = program.rank_command(request.program, request.as_tensorflow)
        self.mpi_type = detect.srun_mpi_type(library, executable, environ) if slurm else None

    def plan(self, pool, np):
        hosts = pool if self.request.hosts is not None or pool != self.pool else None
        env = {}
        if self.crowded(pool, np):
            env = {n: "1" for n in THREAD_VARIABLES if n not in self.environ and n not in self.request.env}
        env.update(self.request.env)
        return Plan(self.executable, np, hosts, self.command, env, self.request.passed, self.request.bind_to,
                    self.request.map_by, self.mpi_type, oversubscribe=pool is None and np > cores())

    def crowded(self, pool, np):
        """Whether some host runs more than one rank."""
        if not pool:
            return np > 1
        placed = hostlists.placement(pool, np, cyclic=self.request.map_by == "node")
        return max(collections.Counter(placed).values()) > 1
