"""The `ringflow` command: `ringflow train [flags]`, alone or under mpiexec/mpirun/srun.

A rank that fails on its own prints the reason with its rank and aborts the whole MPI job, so no rank is left
waiting in a collective for a partner that is gone. What every rank finds alike (a bad flag, environment
variable or dataset, ranks that disagree, a SIGTERM) is printed once, by rank 0, and every rank exits with
the same code: 2 for the command line and environment, 1 for other errors, 128 + N after signal N.
"""
import argparse
import os
import sys
import traceback

import allreduce
import models
from allreduce import launcher
from . import config_checks, launch
from .agreement import JobError
from .config_checks import ConfigError
from .datasets import specs as datasets
from .loop import DTYPES, OPTIMIZERS, Config, train
from ..platform.version import RINGFLOW_VERSION, TF_API_VERSION


def launcher_rank():
    """This process's rank as the launcher set it (allreduce/launcher.py), read without starting MPI (0 alone)."""
    return launcher.rank() or 0


def checked(check, flag):
    """An argparse type= running config_checks.`check` (positive_int, ...): a bad value is a usage error."""
    return config_checks.argument_type(getattr(config_checks, check), flag)


def path(flag):
    """An argparse type= for an output path: an empty one would silently write nothing, so it is refused."""
    def parse(text):
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{flag} {text!r}: an empty path; give a path, or leave {flag} out")
        return text
    parse.__name__ = flag
    return parse


def layer_sizes(text):
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers such as 512,512, got {text!r}") from None
    if not sizes:  # a model without hidden layers is --model logistic (or linear), not an mlp
        raise argparse.ArgumentTypeError(f"{text!r} gives no layer sizes; give at least one, such as 512,512, or "
                                         "leave --hidden out for the model's default")
    if any(s <= 0 for s in sizes):
        raise argparse.ArgumentTypeError(f"layer sizes must be positive, got {text!r}")
    return sizes


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are printed by rank 0 only (every rank parses the same argv)."""

    def error(self, message):
        if launcher_rank() == 0:
            self.print_usage(sys.stderr)
            sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(2)

    def _print_message(self, message, file=None):
        if launcher_rank() == 0:
            super()._print_message(message, file)


def build_parser():
    parser = Parser(prog="ringflow", description="Data-parallel training over MPI ranks with ring all-reduce. "
                    "Launch N ranks with `mpiexec -n N ringflow train ...` (or mpirun/srun), or run alone.")
    parser.add_argument("--version", action="version",
                        version=f"ringflow {RINGFLOW_VERSION} (TensorFlow {TF_API_VERSION} API)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    commands.add_parser("run", help=launch.HELP, add_help=False)  # its own parser reads the rest: see main
    t = commands.add_parser("train", help="train a model, data-parallel over every rank of the job",
                            description="Train a model; every rank takes its share of each global batch and the "
                            "gradients are averaged with an allreduce before every step.")
    t.add_argument("--model", required=True, choices=models.names(), help="model to train")
    t.add_argument("--dataset", required=True, metavar="SPEC",
                   help="training data: " + ", ".join(datasets.usage(n) for n in datasets.names()))
    t.add_argument("--batch-size", type=checked("positive_int", "--batch-size"), default=32, metavar="N",
                   help="global batch size, split as evenly as possible over the ranks (default 32)")
    t.add_argument("--accumulate", type=checked("positive_int", "--accumulate"), default=1, metavar="K",
                   help="backward passes per step, each on --batch-size samples, summed on each rank and "
                        "allreduced once: one step on a K-times larger batch in the memory of one (default 1)")
    length = t.add_mutually_exclusive_group()
    length.add_argument("--steps", type=checked("non_negative_int", "--steps"), metavar="N",
                        help="total optimizer steps, counted from step 0 even when resuming")
    length.add_argument("--epochs", type=checked("positive_number", "--epochs"), metavar="N",
                        help="total passes over the data, counted from the start (default 1)")
    t.add_argument("--optimizer", choices=sorted(OPTIMIZERS), default="sgd", help="default sgd")
    t.add_argument("--lr", type=checked("positive_number", "--lr"), default=0.01, metavar="X",
                   help="learning rate (default 0.01)")
    t.add_argument("--seed", type=checked("non_negative_int", "--seed"), default=0, metavar="S",
                   help="seed of the initial weights and the shuffle (default 0)")
    t.add_argument("--dtype", choices=DTYPES, default="float32", help="float type of weights and data")
    t.add_argument("--allreduce", default="auto", metavar="NAME",
                   help="communicator: auto (default: nccl for --device gpu with a GPU per rank, else shm on "
                        "one node, else hierarchical), ring, hierarchical, mpi, ps, shm or nccl")
    t.add_argument("--device", choices=("cpu", "gpu"), default="cpu", help="where the graph runs (default cpu)")
    t.add_argument("--hidden", type=layer_sizes, metavar="N,N,...",
                   help="hidden layer sizes of mlp / multilabel (default 512,512 / 64)")
    t.add_argument("--checkpoint-dir", type=path("--checkpoint-dir"), metavar="DIR",
                   help="write checkpoints here (TF's model.ckpt-<step>.index and .data-00000-of-00001, and TF1's "
                        "`checkpoint` file, by rank 0); "
                        "a run resumes from the latest intact one automatically; one job at a time (a lock file "
                        "names its host and pid)")
    t.add_argument("--checkpoint-every-steps", type=checked("positive_int", "--checkpoint-every-steps"),
                   metavar="K", help="checkpoint every K steps (always at the end, and after SIGTERM/SIGINT, when "
                                     "--checkpoint-dir is given)")
    t.add_argument("--checkpoint-every-secs", type=checked("non_negative_number", "--checkpoint-every-secs"),
                   metavar="S", help="checkpoint every S seconds too, by rank 0's clock (default 600, as TF1's "
                                     "MonitoredTrainingSession; 0: none)")
    t.add_argument("--keep-checkpoints", type=checked("positive_int", "--keep-checkpoints"), default=5,
                   metavar="N", help="how many of the newest checkpoints to keep (default 5)")
    t.add_argument("--logdir", type=path("--logdir"), metavar="DIR",
                   help="TensorBoard event files of the reported metrics (rank 0)")
    t.add_argument("--log-every", type=checked("positive_int", "--log-every"), metavar="K",
                   help="report metrics averaged over ranks every K steps (default: 10 reports per run)")
    t.add_argument("--timeline", type=path("--timeline"), metavar="FILE",
                   help="Chrome-trace JSON of every rank's compute and allreduce")
    t.add_argument("--save-final", type=path("--save-final"), metavar="FILE.npz",
                   help="write every variable by graph name at the end (not when stopped by a signal)")
    t.add_argument("--metrics-json", type=path("--metrics-json"), metavar="FILE",
                   help="write the final metrics as JSON")
    t.add_argument("--allow-nonfinite-data", action="store_true",
                   help="train on a dataset holding NaN or inf features or targets (refused by default)")
    t.add_argument("--no-progress", dest="progress", action="store_false",
                   help="print only the final metrics: no headline, progress bar or report lines")
    t.add_argument("--nonfinite", choices=("raise", "skip"), default="raise",
                   help="a step whose averaged gradient holds NaN/inf: raise (stop with an error naming the step "
                        "and variable, before any update; default) or skip (leave its update out on every rank, "
                        "counted as nonfinite_skips in --metrics-json)")
    return parser


def config_from(args):
    fields = {k: v for k, v in vars(args).items() if k != "command"}
    return Config(**fields)


def check_settings(args):
    """The checks that need neither data nor other ranks: the environment and the model's hyper-parameters.
    Every rank finds the same, so a failure is printed once, by rank 0 (as argparse's usage errors are)."""
    config_checks.check_environment()
    if allreduce.torchrun.problem():
        raise config_checks.ConfigError(allreduce.torchrun.problem())
    if args.allreduce != "auto" and args.allreduce not in allreduce.BACKENDS:
        raise config_checks.ConfigError(f"--allreduce {args.allreduce!r}: unknown communicator; known: auto, "
                                        f"{', '.join(sorted(allreduce.BACKENDS))}")
    args.hidden = config_checks.check_hparams(args.model, hidden=args.hidden).get("hidden", args.hidden)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["run"]:  # PROGRAM's own flags follow: `ringflow run` reads its command line itself
        return launch.main(argv[1:])
    args = build_parser().parse_args(argv)
    rank = launcher_rank()
    try:
        check_settings(args)
    except ConfigError as exc:
        return _once(rank, [f"error: {exc}"], code=2)
    try:
        from mpi4py import MPI
        world = MPI.COMM_WORLD
        rank = world.Get_rank()
        train(config_from(args))
    except JobError as exc:  # every rank raised it at the same point: one message, one exit code, no abort
        if os.environ.get("RINGFLOW_TRACEBACK") and exc.__cause__ is not None:
            traceback.print_exception(exc.__cause__)
        return _once(rank, exc.lines, exc.code)
    except KeyboardInterrupt:
        _fail(rank, "interrupted", code=130)
    except Exception as exc:  # every failure, so that no rank is left hanging
        if os.environ.get("RINGFLOW_TRACEBACK"):
            traceback.print_exc()
        _fail(rank, f"{type(exc).__name__}: {exc}")
    return 0


def _once(rank, lines, code):
    """Print `lines` (each after "ringflow: ") on rank 0 only and exit with `code`: every rank calls this."""
    sys.stdout.flush()
    if rank == 0:
        sys.stderr.write("".join(f"ringflow: {line}\n" for line in lines))
        sys.stderr.flush()
    sys.exit(code)


def _fail(rank, message, code=1):
    """Say why on stderr and end the whole job: in a job of several ranks, MPI_Abort once the line has
    reached mpiexec (allreduce.abort.abort_job), so the reason is never lost to the abort."""
    line = f"ringflow: error on rank {rank}: {message}"
    try:
        allreduce.abort.abort_job(code, line)
    except ImportError:
        pass
    sys.stdout.flush()
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    sys.exit(code)


if __name__ == "__main__":
    sys.exit(main())
