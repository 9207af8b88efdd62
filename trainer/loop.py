"""`ringflow train` as a function: build the model graph, then run the synchronized data-parallel loop.

Every rank builds the same graph and feeds its own shard of each global batch; DistributedOptimizer makes
the update the global batch's, so the ranks stay bitwise identical. Rank 0 is the chief (see supervisor.py).
Reported metrics are means over every sample the ranks saw since the last report, weighted by shard size.
"""
import json
import os
import time
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

import models
from . import data, datasets
from .distributed import DistributedOptimizer
from .supervisor import Supervisor

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


class MetricMeter:
    """Shard-size-weighted sums of metrics on this rank, averaged over every rank on demand."""

    def __init__(self, names, communicator):
        self.names, self.communicator = list(names), communicator
        self.sums = np.zeros(len(self.names) + 1)

    def add(self, values, count):
        if count:
            self.sums[:-1] += count * np.array([float(values[n]) for n in self.names])
            self.sums[-1] += count

    def average(self):
        """Means over every rank's samples since the last call (collective)."""
        total = self.communicator.allreduce(self.sums, op="sum") if self.communicator.size > 1 else self.sums
        self.sums = np.zeros_like(self.sums)
        return {n: float(v) / float(total[-1]) for n, v in zip(self.names, total[:-1])} if total[-1] else {}


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
    if communicator is None:
        import allreduce
        name = config.allreduce
        if name == "auto" and config.device == "cpu":  # host arrays: NCCL would only stage them through a GPU
            name = allreduce.auto.fastest_cpu_backend()
        communicator = allreduce.create_communicator(name)
    rank, size = communicator.rank, communicator.size
    if config.batch_size < size:
        raise ValueError(f"--batch-size {config.batch_size} is smaller than the {size} ranks: every rank "
                         "needs at least one sample of each global batch")
    dataset = datasets.load(config.dataset)
    steps = total_steps(config, len(dataset))
    g = TrainingGraph(config, dataset, communicator)
    x, y = dataset.x.astype(g.dtype, copy=False), dataset.y.astype(g.label_dtype, copy=False)
    pipeline = data.Pipeline((x, y), config.batch_size, rank, size, seed=config.seed)
    session = tg.Session(g.graph, device=config.device)
    meta = {"model": config.model, "dataset": dataset.name, "optimizer": config.optimizer}
    sv = Supervisor(session, communicator, config.checkpoint_dir, config.checkpoint_every_steps,
                    config.keep_checkpoints, meta)
    sv.prepare(g.init_op, pipeline)
    start = int(session.run(g.global_step))
    hooks = Hooks(config, rank, start, steps, g)
    meter = MetricMeter(g.evaluate, communicator)
    log_every = config.log_every or max(1, (steps - start) // 10)
    communicator.barrier()
    hooks.announce(f"ringflow: {config.model} on {dataset.name} ({len(dataset)} examples), {size} rank(s), "
                   f"allreduce {communicator.name}, global batch {config.batch_size}, {config.optimizer} "
                   f"lr {config.lr:g}, steps {start + 1}..{steps}")
    hooks.begin()
    for step in range(start + 1, steps + 1):
        bx, by = pipeline.next_batch()
        hooks.before_step(step)
        _, values = session.run([g.train_op, g.evaluate], g.feed(bx, by))
        hooks.after_step(step)
        meter.add(values, len(bx))
        if step % log_every == 0 or step == steps:
            hooks.report(step, g.spec.summarize(meter.average()))
        sv.after_step(step, pipeline)
    seconds = hooks.end()
    sv.save(steps if steps > start else start, pipeline)
    result = final_metrics(session, g, (x, y), communicator)
    hooks.final(max(steps, start), result)
    result.update(step=max(steps, start), ranks=size, resumed_from_step=sv.restored_step, **seconds)
    sv.export(config.save_final)
    hooks.close(result, communicator)
    session.close()
    return result


def final_metrics(session, g, arrays, communicator, batch=1024):
    """The model's metrics over the whole training set, each rank evaluating its even share."""
    meter = MetricMeter(g.evaluate, communicator)
    for bx, by in data.eval_batches(arrays, batch, communicator.rank, communicator.size):
        meter.add(session.run(g.evaluate, {g.features: bx, g.labels: by}), len(bx))
    return g.spec.summarize(meter.average())


class Hooks:
    """What happens around the steps: progress bar, log lines, summaries (chief), timeline, timing."""

    def __init__(self, config, rank, start, steps, g):
        self.config, self.start, self.steps = config, start, steps
        self.chief = rank == 0
        self.averager = g.optimizer.averager  # None on one rank: nothing is communicated
        self.bar = self.writer = self.timeline = None
        self.step_seconds, self.comm_seconds = [], []
        if self.chief and config.logdir:
            from .summary import ScalarWriter
            self.writer = ScalarWriter(config.logdir)
        if config.timeline:
            from .timeline import Timeline
            self.timeline = Timeline()
            if self.averager is not None:
                self.averager.timeline = self.timeline

    def announce(self, line):
        if self.chief and self.config.progress:
            print(line, flush=True)

    def begin(self):
        if self.timeline is not None:
            self.timeline.start()
        if self.chief and self.config.progress:
            from tqdm import tqdm
            self.bar = tqdm(total=self.steps, initial=self.start, desc="train", unit="step", dynamic_ncols=True)

    def before_step(self, step):
        if self.averager is not None:
            self.averager.step = step
        self._comm0 = self.averager.seconds if self.averager is not None else 0.0
        self._t0 = time.perf_counter()

    def after_step(self, step):
        t1 = time.perf_counter()
        self.step_seconds.append(t1 - self._t0)
        self.comm_seconds.append((self.averager.seconds if self.averager is not None else 0.0) - self._comm0)
        if self.timeline is not None:
            self.timeline.record("step", self._t0, t1, step)
        if self.bar is not None:
            self.bar.update(1)

    def report(self, step, metrics, prefix="train/"):
        if not self.chief:
            return
        line = f"step {step}/{self.steps}  " + "  ".join(f"{k} {v:.4f}" for k, v in metrics.items())
        if self.bar is not None:
            self.bar.set_postfix(metrics, refresh=False)
            self.bar.write(line)
        elif self.config.progress:
            print(line, flush=True)
        if self.writer is not None:
            self.writer.scalars(step, metrics, prefix)

    def final(self, step, metrics):
        if self.chief and self.config.progress:
            print("final (whole training set): " + "  ".join(f"{k} {v:.4f}" for k, v in metrics.items()),
                  flush=True)
        if self.writer is not None:
            self.writer.scalars(step, metrics, "final/")

    def end(self):
        """Timing of the steps run; the first (it compiles the plans) is left out when there are others."""
        if self.bar is not None:
            self.bar.close()
        skip = 1 if len(self.step_seconds) > 1 else 0
        steps, comms = self.step_seconds[skip:], self.comm_seconds[skip:]
        seconds, comm = sum(steps), sum(comms)
        return {"train_seconds": float(sum(self.step_seconds)),
                "samples_per_sec": len(steps) * self.config.batch_size / seconds if seconds else 0.0,
                "allreduce_fraction": comm / seconds if seconds else 0.0,
                # medians resist a noisy machine better than totals
                "step_ms_median": float(np.median(steps) * 1e3) if steps else 0.0,
                "allreduce_ms_median": float(np.median(comms) * 1e3) if comms else 0.0}

    def close(self, result, communicator):
        if self.timeline is not None:
            per_rank = self.timeline.gather(communicator)
            if self.chief:
                self.timeline.write(self.config.timeline, per_rank)
        if self.writer is not None:
            self.writer.close()
        if self.chief and self.config.metrics_json:
            path = self.config.metrics_json
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path + ".tmp", "w") as f:
                json.dump(result, f, indent=2, sort_keys=True)
            os.replace(path + ".tmp", path)
