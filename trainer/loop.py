"""`ringflow train` as a function: build the model graph, then run it in a tg.train.MonitoredSession.

Every rank builds the same graph and feeds its own shard of each global batch; DistributedOptimizer makes
the update the global batch's, so the ranks stay bitwise identical. Rank 0 is the chief: it alone reads and
writes checkpoints, summaries and exports. Everything around the steps is a hook (trainer/program/).
Reported metrics are means over every sample the ranks saw since the last report, weighted by shard size.
"""
import json
import os
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

import models
from . import data, datasets, program
from .distributed import DistributedOptimizer

OPTIMIZERS = {
    "sgd": lambda tg, lr: tg.train.GradientDescentOptimizer(lr),
    "momentum": lambda tg, lr: tg.train.MomentumOptimizer(lr, momentum=0.9),
    "adam": lambda tg, lr: tg.train.AdamOptimizer(lr),
}
DTYPES = ("float32", "float64")


@dataclass
class Config:
    model: str
    dataset: str
    batch_size: int = 32
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
    keep_checkpoints: int = 5
    logdir: Optional[str] = None
    timeline: Optional[str] = None
    save_final: Optional[str] = None
    metrics_json: Optional[str] = None
    log_every: Optional[int] = None
    hidden: Optional[Tuple[int, ...]] = None
    progress: bool = True


class TrainingGraph:
    """The placeholders and ops one training step needs."""

    def __init__(self, config, dataset, communicator):
        import trainer as tg
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
            self.optimizer = DistributedOptimizer(OPTIMIZERS[config.optimizer](tg, config.lr), communicator,
                                                  weight=self.shard_size)
            self.train_op = self.optimizer.minimize(self.spec.loss, global_step=self.global_step)
            self.init_op = tg.global_variables_initializer()
        self.evaluate = dict(self.spec.metrics, loss=self.spec.loss)

    def feed(self, x, y):
        return {self.features: x, self.labels: y, self.shard_size: len(x)}


def total_steps(config, num_examples):
    if config.steps is not None and config.epochs is not None:
        raise ValueError("give --steps or --epochs, not both")
    if config.steps is not None:
        return config.steps
    return data.steps_for_epochs(config.epochs if config.epochs is not None else 1, num_examples,
                                 config.batch_size)


def train(config, communicator=None):
    """Train as `config` says; returns the final metrics (the same dict on every rank)."""
    import trainer as tg
    communicator = communicator if communicator is not None else make_communicator(config)
    rank, size = communicator.rank, communicator.size
    if config.batch_size < size:
        raise ValueError(f"--batch-size {config.batch_size} is smaller than the {size} ranks: every rank "
                         "needs at least one sample of each global batch")
    dataset = datasets.load(config.dataset)
    steps = total_steps(config, len(dataset))
    g = TrainingGraph(config, dataset, communicator)
    x, y = dataset.x.astype(g.dtype, copy=False), dataset.y.astype(g.label_dtype, copy=False)
    pipeline = data.Pipeline((x, y), config.batch_size, rank, size, seed=config.seed)
    with g.graph.as_default():
        saver = tg.train.Saver(max_to_keep=config.keep_checkpoints)
        checkpoint = (program.find_checkpoint(config.checkpoint_dir, saver, tg.global_variables())
                      if rank == 0 and config.checkpoint_dir else None)
        hooks = ProgramHooks(config, dataset, communicator, g, pipeline, saver, checkpoint, steps)
        creator = program.RankSessionCreator(tg.train.Scaffold(init_op=g.init_op, saver=saver), config.device,
                                             checkpoint)
        with tg.train.MonitoredSession(session_creator=creator, hooks=hooks.ordered) as session:
            while not session.should_stop():
                session.run(g.train_op, g.feed(*pipeline.next_batch()))
    result = dict(hooks.final.metrics, step=hooks.final.step, ranks=size,
                  resumed_from_step=hooks.restore.restored_step, **hooks.timing.summary())
    if rank == 0 and config.metrics_json:
        write_json(config.metrics_json, result)
    return result


def make_communicator(config):
    import allreduce
    name = config.allreduce
    if name == "auto" and config.device == "cpu":  # host arrays: NCCL would only stage them through a GPU
        name = allreduce.auto.fastest_cpu_backend()
    return allreduce.create_communicator(name)


class ProgramHooks:
    """The program's hooks, by duty, and their order: MonitoredSession calls each method of every hook in
    list order, and the order below is what makes the run exact."""

    def __init__(self, config, dataset, communicator, g, pipeline, saver, checkpoint, steps):
        chief = communicator.rank == 0
        headline = (f"ringflow: {config.model} on {dataset.name} ({len(dataset)} examples), {communicator.size} "
                    f"rank(s), allreduce {communicator.name}, global batch {config.batch_size}, "
                    f"{config.optimizer} lr {config.lr:g}")
        progress = program.ProgressHook(headline, steps) if chief and config.progress else None
        summaries = program.ScalarSummaryHook(config.logdir) if chief and config.logdir else None
        reporters = [hook for hook in (progress, summaries) if hook is not None]
        meta = {"model": config.model, "dataset": dataset.name, "optimizer": config.optimizer}
        self.timing = program.TimingHook(g.optimizer, config.batch_size)
        self.restore = program.RestoreBroadcastHook(communicator, pipeline, checkpoint)
        self.final = program.FinalMetricsHook(g.evaluate, (g.features, g.labels), pipeline.arrays, communicator,
                                              g.spec.summarize, reporters)
        ordered = [
            self.timing,  # first: its clock spans the other hooks' before_run and the run
            self.restore,  # before any hook reads the global step: every rank then holds the chief's state
            program.StopAtStepHook(steps),
            program.TimelineHook(config.timeline, communicator, g.optimizer) if config.timeline else None,
            program.MetricsHook(g.evaluate, communicator, pipeline.shard[1] - pipeline.shard[0], steps,
                                config.log_every, g.spec.summarize, reporters),
            progress,
            # end(): the last checkpoint is saved before the final metrics, whose evaluation may draw random numbers
            program.CheckpointHook(communicator, config.checkpoint_dir, saver, pipeline, meta,
                                   config.checkpoint_every_steps) if config.checkpoint_dir else None,
            self.final,
            program.ExportHook(config.save_final) if chief and config.save_final else None,
            summaries,  # end() closes the event file: after the final metrics are written to it
        ]
        self.ordered = [hook for hook in ordered if hook is not None]


def write_json(path, value):
    """Write `value` as JSON to path atomically (a temporary file renamed into place)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=2, sort_keys=True)
    os.replace(path + ".tmp", path)
