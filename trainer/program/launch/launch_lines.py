"""The launch line of each launcher family, from one Plan: MPICH's Hydra `mpiexec`, Open MPI's `mpirun`, and
Slurm's `srun`. One function per family, found by name in LINES.

| Plan             | Hydra mpiexec        | Open MPI mpirun          | srun                               |
|------------------|----------------------|--------------------------|------------------------------------|
| np, hosts        | -n N -hosts a:2,b:2  | -np N -H a:2,b:2         | --ntasks=N --nodes=2 --nodelist=a,b |
| env VAR=VAL      | -genv VAR VAL        | -x VAR=VAL               | in srun's environment (--export=ALL) |
| passed VAR       | -genvlist VAR,...    | -x VAR                   | in srun's environment              |
| bind_to core     | -bind-to core        | --bind-to core           | --cpu-bind=cores                   |
| map_by node      | -ppn 1               | --map-by node            | --distribution=cyclic              |
"""
import shlex
from typing import List, NamedTuple, Optional

from . import hosts as hostlists

BIND = {"none": ("none", "none", "none"), "core": ("core", "core", "cores"), "socket": ("socket", "socket", "sockets"),
        "numa": ("numa", "numa", "ldoms"), "hwthread": ("hwthread", "hwthread", "threads")}  # hydra, openmpi, srun
# Open MPI passes to remote ranks only what -x names (Hydra and srun pass the whole environment): these too, as
# horovodrun does, so a rank finds the same python, libraries and settings as this shell.
OPENMPI_FORWARDED = ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "VIRTUAL_ENV")


class Plan(NamedTuple):
    executable: str
    np: int
    hosts: Optional[list]  # [(name, slots)]; None: this machine (Hydra, Open MPI) or the whole allocation (srun)
    program: List[str]
    env: dict  # VAR -> value on every rank
    passed: List[str]  # variables every rank gets with their value here
    bind_to: Optional[str] = None
    map_by: Optional[str] = None
    mpi_type: Optional[str] = None  # srun --mpi=
    oversubscribe: bool = False  # more ranks than cores on this machine (Open MPI refuses them without the flag)


def hydra(plan, environ):
    argv = [plan.executable, "-n", str(plan.np)]
    if plan.hosts:
        argv += ["-hosts", hostlists.render(plan.hosts)]
    for name, value in plan.env.items():
        argv += ["-genv", name, value]
    if plan.passed:
        argv += ["-genvlist", ",".join(plan.passed)]
    if plan.bind_to:
        argv += ["-bind-to", BIND[plan.bind_to][0]]
    if plan.map_by == "node":
        argv += ["-ppn", "1"]
    return argv + plan.program


def openmpi(plan, environ):
    argv = [plan.executable, "-np", str(plan.np)]
    if plan.hosts:
        argv += ["-H", hostlists.render(plan.hosts)]
    elif plan.oversubscribe:
        argv += ["--oversubscribe"]
    for name, value in plan.env.items():
        argv += ["-x", f"{name}={value}"]
    forwarded = [n for n in environ if n in OPENMPI_FORWARDED or n.startswith("RINGFLOW_")]
    for name in dict.fromkeys(plan.passed + sorted(forwarded)):
        if name not in plan.env:
            argv += ["-x", name]
    if plan.bind_to:
        argv += ["--bind-to", BIND[plan.bind_to][1]]
    if plan.map_by:
        argv += ["--map-by", plan.map_by]
    return argv + plan.program


def srun(plan, environ):
    argv = [plan.executable, f"--ntasks={plan.np}", "--kill-on-bad-exit=1"]
    if plan.hosts:
        argv += [f"--nodes={len(plan.hosts)}", f"--nodelist={','.join(name for name, _ in plan.hosts)}"]
    if plan.mpi_type:
        argv += [f"--mpi={plan.mpi_type}"]
    if plan.bind_to:
        argv += [f"--cpu-bind={BIND[plan.bind_to][2]}"]
    if plan.map_by:
        argv += [f"--distribution={'cyclic' if plan.map_by == 'node' else 'block'}"]
    return argv + plan.program


LINES = {"hydra": hydra, "openmpi": openmpi, "slurm": srun}


def launch_line(family, plan, environ):
    """(argv, env) that start the job: env is `environ` with the plan's variables set (srun passes them on)."""
    env = dict(environ, **plan.env)
    return LINES[family](plan, environ), env


def shown(family, argv, plan):
    """The launch line as a shell would take it; srun's variables, which it passes from its environment, in front."""
    prefix = [f"{k}={shlex.quote(v)}" for k, v in plan.env.items()] if family == "slurm" else []
    return " ".join(prefix + [shlex.join(argv)])
