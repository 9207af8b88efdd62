"""`ringflow run`'s command line: the flags, read into a Request, and every conflict refused in one line (exit 2).

The flags are those of horovodrun and mpirun that a data-parallel job needs, so `horovodrun -np 4 -H a:2,b:2
python train.py` becomes `ringflow run -np 4 -H a:2,b:2 python train.py`.
"""
import argparse
import os
import re
from typing import List, NamedTuple, Optional

from . import hosts as hostlists

BIND_TO = ("none", "core", "socket", "numa", "hwthread")
MAP_BY = ("slot", "node")
LAUNCHERS = ("auto", "hydra", "openmpi", "slurm")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

DESCRIPTION = """Run PROGRAM on N ranks with the MPI launcher that matches mpi4py's MPI (MPICH's Hydra mpiexec or Open
MPI's mpirun), or with srun inside a Slurm allocation. PROGRAM is `train FLAGS` (ringflow train on every rank) or
any command (python train.py ...). Without -H/--hostfile the ranks run on this machine, -np of them (default: one
per core this process may use, as mpirun does); in Slurm the allocation's nodes and tasks are the default. The
launch line is printed first. --restarts K relaunches a failed job up to K times; a `train` PROGRAM with
--checkpoint-dir resumes from its newest checkpoint."""


class UsageError(ValueError):
    """A command line `ringflow run` refuses: printed as one line, exit code 2."""


class Request(NamedTuple):
    np: Optional[int]
    hosts: Optional[list]  # [(name, slots)] from -H or --hostfile; None: this machine, or the Slurm allocation
    restarts: int
    min_np: Optional[int]
    env: dict  # -x VAR=VALUE
    passed: List[str]  # -x VAR: passed with its value here
    bind_to: Optional[str]
    map_by: Optional[str]
    as_tensorflow: bool
    launcher: str
    dry_run: bool
    program: List[str]


class RunParser(argparse.ArgumentParser):
    def error(self, message):
        unknown = message.partition("unrecognized arguments: ")[2]
        if unknown:
            message = (f"unknown option {unknown!r}: see `ringflow run --help`; PROGRAM's own flags go after "
                       "PROGRAM")
        raise UsageError(message)


def count(flag):
    def parse(text):
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(f"{flag} {text!r}: give a whole number of ranks >= 1")
        return int(text)
    parse.__name__ = flag
    return parse


def build_parser():
    p = RunParser(prog="ringflow run", description=DESCRIPTION, allow_abbrev=False,
                  usage="ringflow run [-np N] [-H host:slots,... | --hostfile F] [--restarts K] [--min-np M] "
                        "[-x VAR[=VAL]]... [--] PROGRAM ARGS...")
    p.add_argument("-np", "-n", dest="np", type=count("-np"), metavar="N",
                   help="number of ranks (default: the slots of -H/--hostfile, SLURM_NTASKS in Slurm, else one "
                        "per core this process may use)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("-H", "--hosts", dest="host_list", metavar="HOST:SLOTS,...", help="hosts and their slots")
    where.add_argument("--hostfile", "-hostfile", "-f", metavar="FILE",
                       help="a host file: lines `host slots=N` (Open MPI, Horovod), `host:N` (Hydra) or `host`")
    p.add_argument("--restarts", type=int, default=0, metavar="K",
                   help="relaunch a failed job up to K times (default 0), leaving a failed host out while "
                        "--min-np ranks remain")
    p.add_argument("--min-np", type=count("--min-np"), metavar="M",
                   help="the fewest ranks a restart may use when hosts are left out (default: -np)")
    p.add_argument("-x", dest="exports", action="append", default=[], metavar="VAR[=VAL]",
                   help="set VAR on every rank (to VAL, or to its value here); repeatable")
    p.add_argument("--bind-to", "-bind-to", choices=BIND_TO, help="process binding, as mpirun's --bind-to")
    p.add_argument("--map-by", "-map-by", choices=MAP_BY,
                   help="slot: fill each host's slots in turn (the default); node: one rank per host in turn")
    p.add_argument("--as-tensorflow", action="store_true",
                   help="run a Python PROGRAM with `import tensorflow` meaning ringflow (python -m "
                        "trainer.as_tensorflow)")
    p.add_argument("--launcher", choices=LAUNCHERS, default="auto",
                   help="hydra (MPICH, Intel MPI), openmpi or slurm (srun); default: srun in a Slurm allocation, "
                        "else the family of the MPI mpi4py uses")
    p.add_argument("--dry-run", action="store_true", help="print the launch line and exit")
    p.add_argument("program", nargs=argparse.REMAINDER, metavar="PROGRAM ARGS")
    return p


def parse(argv):
    """The Request for `ringflow run ARGV`; raises UsageError naming the flag."""
    args = build_parser().parse_args(argv)  # -h/--help: prints the help and exits
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        raise UsageError("give the PROGRAM to run, e.g. `ringflow run -np 2 train --model mlp ...` or "
                         "`ringflow run -np 2 python train.py`")
    if program[0].startswith("-"):
        raise UsageError(f"unknown option {program[0]!r} (a PROGRAM cannot start with '-'; put -- before it)")
    if args.restarts < 0:
        raise UsageError(f"--restarts {args.restarts}: give a number of restarts >= 0")
    hosts = _hosts(args)
    np = args.np
    if hosts is not None and np is not None and np > hostlists.slots(hosts):
        raise UsageError(f"-np {np} is more than the {hostlists.slots(hosts)} slots of {hostlists.render(hosts)}: "
                         "give more slots or fewer ranks")
    if args.min_np is not None:
        if not args.restarts:
            raise UsageError(f"--min-np {args.min_np} without --restarts: it bounds how few ranks a restart uses")
        if np is not None and args.min_np > np:
            raise UsageError(f"--min-np {args.min_np} is more than -np {np}")
    env, passed = _exports(args.exports)
    if args.as_tensorflow and program[0] == "train":
        raise UsageError("--as-tensorflow is for your own TF1 program; `train` is ringflow's, which needs no "
                         "tensorflow: leave --as-tensorflow out")
    return Request(np, hosts, args.restarts, args.min_np, env, passed, args.bind_to, args.map_by,
                   args.as_tensorflow, args.launcher, args.dry_run, program)


def _hosts(args):
    try:
        if args.host_list is not None:
            return hostlists.parse_host_list(args.host_list)
        if args.hostfile is not None:
            return hostlists.read_hostfile(args.hostfile)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return None


def _exports(items):
    env, passed = {}, []
    for item in items:
        name, eq, value = item.partition("=")
        if not _NAME.match(name):
            raise UsageError(f"-x {item!r}: {name!r} is not an environment variable name")
        if eq:
            env[name] = value
        elif name in os.environ:
            passed.append(name)
        else:
            raise UsageError(f"-x {name}: {name} is not set here; set it, or give -x {name}=VALUE")
    return env, passed
