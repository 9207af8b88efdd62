"""`ringflow train` as a function: build the model graph, then run it in a tg.train.MonitoredSession.

Every rank builds the same graph and feeds its own shard of each global batch; DistributedOptimizer makes
the update the global batch's, so the ranks stay bitwise identical. Rank 0 is the chief: it alone reads and
writes checkpoints, summaries and exports. Everything around the steps is a hook (trainer/program/).
Reported metrics are means over every sample the ranks saw since the last report, weighted by shard size.
"""
import contextlib
import dataclasses
import json
import sys
import warnings
from dataclasses import dataclass
from typing import NamedTuple, Optional, Tuple

import numpy as np

import allreduce
import models
import trainer as tg
from . import config_checks
from .. import data, program
from .datasets import specs as datasets
from ..platform.atomic_file import atomic_write
from ..parallel.distributed import DistributedOptimizer

OPTIMIZERS = {
    "sgd": lambda lr: tg.train.GradientDescentOptimizer(lr),
    "momentum": lambda lr: tg.train.MomentumOptimizer(lr, momentum=0.9),
    "adam": lambda lr: tg.train.AdamOptimizer(lr),
}
DTYPES = ("float32", "float64")
CHECKPOINT_EVERY_SECS = 600  # TF1's MonitoredTrainingSession saves every 600 s by default: so does --checkpoint-dir


@dataclass
class Config:
    model: str
    dataset: str
    batch_size: int = 32
    accumulate: int = 1  # backward passes of --batch-size each per step, one allreduce (hooks/accumulation_hook.py)
    steps: Optional[int] = None
    epochs: Optional[float] = None
    optimizer: str = "sgd"
    lr: float = 0.01
    seed: int = 0
    dtype: str = "float32"
    allreduce: str = "auto"
    device: str = "cpu"
    checkpoint_dir: Optional[str] = None
    checkpoint_every_steps: Optional[int] = None
    checkpoint_every_secs: Optional[float] = None  # None: CHECKPOINT_EVERY_SECS; 0: no timed checkpoints
    keep_checkpoints: int = 5
    logdir: Optional[str] = None
    timeline: Optional[str] = None
    save_final: Optional[str] = None
    metrics_json: Optional[str] = None
    log_every: Optional[int] = None
    hidden: Optional[Tuple[int, ...]] = None
    progress: bool = True
    allow_nonfinite_data: bool = False  # NaN/inf in the dataset's features or targets are refused unless True
    nonfinite: str = "raise"  # a step with a NaN/inf averaged gradient: "raise" or "skip" (trainer/parallel/nonfinite.py)


class TrainingGraph:
    """The placeholders and ops one training step needs: the model first (no rank communicates while it is
    built, so a model that refuses the data fails before the ranks agree), then add_optimizer()."""

    def __init__(self, config, dataset):
        if config.optimizer not in OPTIMIZERS:
            raise ValueError(f"unknown optimizer {config.optimizer!r}; known: {', '.join(sorted(OPTIMIZERS))}")
        if config.dtype not in DTYPES:
            raise ValueError(f"unknown dtype {config.dtype!r}; known: {', '.join(DTYPES)}")
        build = models.get(config.model)
        self.dtype = np.dtype(config.dtype)
        self.label_dtype = np.dtype(np.int64) if dataset.task == "classes" else self.dtype
        self.graph = tg.Graph()
        with self.graph.as_default():
            tg.set_random_seed(config.seed)
            self.features = tg.placeholder(self.dtype, (None,) + dataset.x.shape[1:], name="features")
            self.labels = tg.placeholder(self.label_dtype, (None,) + dataset.y.shape[1:], name="labels")
            self.shard_size = tg.placeholder(self.dtype, (), name="shard_size")
            hparams = {"hidden": tuple(config.hidden)} if config.hidden is not None else {}
            self.spec = build(self.features, self.labels, models.Task(dataset.task, dataset.num_outputs),
                              seed=config.seed, **hparams)
            self.global_step = tg.train.get_or_create_global_step()
        self.evaluate = dict(self.spec.metrics, loss=self.spec.loss)

    def add_optimizer(self, config, communicator):
        """The distributed update (its construction is a collective: every rank checks the same model)."""
        with self.graph.as_default():
            self.optimizer = DistributedOptimizer(OPTIMIZERS[config.optimizer](config.lr), communicator,
                                                  weight=self.shard_size, nonfinite=config.nonfinite,
                                                  backward_passes_per_step=config.accumulate)
            self.train_op = self.optimizer.minimize(self.spec.loss, global_step=self.global_step)
            self.init_op = tg.global_variables_initializer()

    def feed(self, x, y):
        return {self.features: x, self.labels: y, self.shard_size: len(x)}


def total_steps(config, num_examples):
    if config.steps is not None and config.epochs is not None:
        raise ValueError("give --steps or --epochs, not both")
    if config.steps is not None:
        return config.steps
    return config_checks.steps_for_epochs(config.epochs if config.epochs is not None else 1, num_examples,
                                          step_batch(config))


def step_batch(config):
    """Samples of one optimizer step over all ranks: --batch-size for each of the --accumulate passes."""
    return config.batch_size * config.accumulate


def train(config, communicator=None):
    """Train as `config` says; returns the final metrics (the same dict on every rank).

    Raises program.JobError on every rank together when a rank's configuration, data or output paths are
    wrong or the ranks disagree on them (before step 1), and program.StoppedBySignal after SIGTERM/SIGINT.
    """
    world = communicator if communicator is not None else agreement_communicator()
    with contextlib.ExitStack() as held:  # the checkpoint directory's lock, released however the run ends
        prepared, error = None, None
        try:
            prepared = prepare(config, world.rank, world.size, held)
        except Exception as exc:  # noqa: BLE001 - every rank's failure is told to all: the job ends together
            error = exc
        program.agree(world, error, agreed_facts(config, prepared))
        dataset, steps, g = prepared
        communicator = communicator if communicator is not None else make_communicator(config)
        rank, size = communicator.rank, communicator.size
        g.add_optimizer(config, communicator)
        x, y = dataset.x.astype(g.dtype, copy=False), dataset.y.astype(g.label_dtype, copy=False)
        pipeline = data.Pipeline((x, y), step_batch(config), rank, size, seed=config.seed)
        with g.graph.as_default():
            # TF's checkpoint files, as tf.train.Saver writes them; resume.py also reads the .npz files of before
            saver = tg.train.Saver(max_to_keep=config.keep_checkpoints)
            checkpoint, error = None, None
            if rank == 0 and config.checkpoint_dir:
                try:
                    checkpoint = resume_from(config.checkpoint_dir, saver, len(dataset))
                except Exception as exc:  # noqa: BLE001 - told to every rank, as above
                    error = exc
            program.agree(world, error)
            hooks = ProgramHooks(config, dataset, communicator, world, g, pipeline, saver, checkpoint, steps)
            creator = program.RankSessionCreator(tg.train.Scaffold(init_op=g.init_op, saver=saver), config.device,
                                                 checkpoint)
            with program.naming_the_flag(config), \
                    tg.train.MonitoredSession(session_creator=creator, hooks=hooks.ordered) as session:
                while not session.should_stop():
                    session.run(g.train_op, g.feed(*hooks.batches.next()))
    if hooks.stopper.stopped:
        saved = (saver.last_checkpoints or [None])[-1] if rank == 0 and config.checkpoint_dir else None
        raise program.StoppedBySignal(hooks.stopper.stopped, hooks.stopper.step, saved)
    result = dict(hooks.final.metrics, step=hooks.final.step, ranks=size,
                  resumed_from_step=hooks.restore.restored_step, nonfinite_skips=g.optimizer.nonfinite_skips,
                  **hooks.timing.summary())
    if rank == 0 and config.metrics_json:
        with program.naming_the_flag(config):
            write_json(config.metrics_json, result)
    return result


class Prepared(NamedTuple):
    dataset: datasets.Dataset
    steps: int
    graph: TrainingGraph


def prepare(config, rank, size, held):
    """What each rank checks on its own before step 1, without communicating: the data, the settings against
    it, the model against the data and, on the chief (it alone writes), the outputs and the checkpoint
    directory's lock (released by the ExitStack `held`). Raises on the first problem."""
    dataset = datasets.load(config.dataset, allow_nonfinite=config.allow_nonfinite_data)
    datasets.check_fits(dataset, config.dtype)
    config_checks.check_batch_size(config.batch_size, len(dataset), size, repr(dataset.name))
    config_checks.check_accumulation(config.batch_size, config.accumulate, len(dataset), repr(dataset.name))
    config_checks.check_memory(config.batch_size, dataset.x.shape[1:], dataset.num_outputs, config.hidden or (),
                               config.dtype, size)
    steps = total_steps(config, len(dataset))
    g = TrainingGraph(config, dataset)
    if rank == 0:
        notes = program.check_outputs(config)
        if config.checkpoint_dir:
            lock = program.DirectoryLock(config.checkpoint_dir)
            left = lock.acquire()
            held.callback(lock.release)
            if left:
                notes.append(f"ringflow: took over {lock.path!r}, left by a job that ended without releasing it "
                             f"({program.dir_lock.describe(left)})")
            notes += program.remove_stale_temps("--checkpoint-dir", config.checkpoint_dir)
        for line in notes:
            print(line, file=sys.stderr, flush=True)
    return Prepared(dataset, steps, g)


# Config fields only the chief uses: ranks may differ in them. Every rank takes part in the collectives of
# checkpoints and the timeline, so whether those are given must agree, though only the chief's paths count.
CHIEF_ONLY, CHIEF_PATHS = ("progress", "logdir", "save_final", "metrics_json"), ("checkpoint_dir", "timeline")


def agreed_facts(config, prepared):
    """What the ranks must agree on before step 1 ({what: value}); None when this rank could not prepare."""
    if prepared is None:
        return None
    facts = {}
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        if field.name in CHIEF_PATHS:
            facts[f"whether {program.output_paths.flag(field.name)} is given"] = value is not None
        elif field.name not in CHIEF_ONLY:
            facts[program.output_paths.flag(field.name)] = value
    name = prepared.dataset.name
    facts[f"the number of examples in --dataset {name!r}"] = len(prepared.dataset)
    facts[f"the contents of --dataset {name!r} (a hash of {data.FINGERPRINT_ROWS} rows)"] = data.fingerprint(
        (prepared.dataset.x, prepared.dataset.y))
    facts["the number of steps to run"] = prepared.steps
    return facts


def resume_from(directory, saver, num_examples):
    """The chief's checkpoint to resume from (program.find_checkpoint), its record checked; what it warns
    about (files skipped, a lost state file) is printed as `ringflow: ...` lines."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            checkpoint = program.find_checkpoint(directory, saver, tg.global_variables())
        finally:
            for warning in caught:
                print(f"ringflow: {warning.message}", file=sys.stderr, flush=True)
    if checkpoint is not None:
        program.check_record(checkpoint, directory, num_examples)
    return checkpoint


def agreement_communicator():
    """The communicator the ranks agree over before step 1 and vote on signals with: MPI's own allreduce
    ("mpi"), whatever --allreduce says, so ranks that disagree on --allreduce still meet."""
    return allreduce.create_communicator("mpi")


def make_communicator(config):
    name = config.allreduce
    if name == "auto" and config.device == "cpu":  # host arrays: NCCL would only stage them through a GPU
        name = allreduce.auto.fastest_cpu_backend()
    return allreduce.create_communicator(name)


class ProgramHooks:
    """The program's hooks, by duty, and their order: MonitoredSession calls each method of every hook in
    list order, and the order below is what makes the run exact."""

    def __init__(self, config, dataset, communicator, world, g, pipeline, saver, checkpoint, steps):
        chief = communicator.rank == 0
        passes = f" ({config.accumulate} passes of {config.batch_size})" if config.accumulate > 1 else ""
        headline = (f"ringflow: {config.model} on {dataset.name} ({len(dataset)} examples), {communicator.size} "
                    f"rank(s), allreduce {communicator.name}, global batch {step_batch(config)}{passes}, "
                    f"{config.optimizer} lr {config.lr:g}")
        self.timing = program.TimingHook(g.optimizer, step_batch(config))
        restored = checkpoint.path if checkpoint is not None else None
        progress = program.ProgressHook(headline, steps, restored, config.progress, self.timing) if chief else None
        summaries = program.ScalarSummaryHook(config.logdir, self.timing) if chief and config.logdir else None
        reporters = [hook for hook in (progress, summaries) if hook is not None]
        meta = {"model": config.model, "dataset": dataset.name, "optimizer": config.optimizer}
        self.restore = program.RestoreBroadcastHook(communicator, pipeline, checkpoint)
        self.stopper = program.StopOnSignalHook(world)
        shard = pipeline.shard[1] - pipeline.shard[0]
        metrics = program.MetricsHook(g.evaluate, communicator, program.pass_sizes(shard, config.accumulate)[-1],
                                      steps, config.log_every, g.spec.summarize, reporters)
        self.batches = program.MicroBatches(pipeline, config.accumulate, g.train_op, g.feed, g.evaluate, metrics.add)
        self.final = program.FinalMetricsHook(g.evaluate, (g.features, g.labels), pipeline.arrays, communicator,
                                              g.spec.summarize, reporters)
        ordered = [
            self.timing,  # first: its clock spans the other hooks' before_run and the run
            self.restore,  # before any hook reads the global step: every rank then holds the chief's state
            program.StopAtStepHook(steps),
            self.stopper,  # a SIGTERM/SIGINT on any rank stops every rank after the same step
            program.TimelineHook(config.timeline, communicator, g.optimizer) if config.timeline else None,
            self.batches,  # after the timing and timeline hooks: the K - 1 passes it runs are part of the step
            metrics,
            progress,
            # end(): the last checkpoint is saved before the final metrics, whose evaluation may draw random numbers
            program.CheckpointHook(communicator, config.checkpoint_dir, saver, pipeline, meta,
                                   config.checkpoint_every_steps, every_secs=checkpoint_every_secs(config),
                                   announce=config.progress) if config.checkpoint_dir else None,
            program.UnlessStopped(self.final, self.stopper),  # a stopped run is not finished: no final metrics
            program.UnlessStopped(program.ExportHook(config.save_final), self.stopper)
            if chief and config.save_final else None,
            summaries,  # end() closes the event file: after the final metrics are written to it
        ]
        self.ordered = [hook for hook in ordered if hook is not None]


def checkpoint_every_secs(config):
    """Seconds between timed checkpoints (0: none): --checkpoint-every-secs, by default TF1's 600."""
    every = config.checkpoint_every_secs
    return CHECKPOINT_EVERY_SECS if every is None else every


def write_json(path, value):
    """Write `value` as JSON to path atomically (a temporary file renamed into place)."""
    with atomic_write(path) as f:
        json.dump(program.strict_json(value), f, indent=2, sort_keys=True, allow_nan=False)
