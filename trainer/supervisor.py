"""The chief's duties (TF1 Supervisor / MonitoredTrainingSession): restore on start, checkpoint, export.

Rank 0 is the chief. It alone reads and writes checkpoint files; the others receive what it restored
through broadcasts, so the ranks need not share a file system.
"""
import json
import os
import warnings

import numpy as np

from . import checkpoint
from .distributed import broadcast_variables
from .variables import GLOBAL_VARIABLES


class Supervisor:
    def __init__(self, session, communicator, checkpoint_dir=None, every_steps=None, keep=5, meta=None):
        self.session, self.communicator = session, communicator
        self.checkpoint_dir, self.every_steps, self.keep = checkpoint_dir, every_steps, keep
        self.meta = dict(meta or {})
        self.variables = session.graph.get_collection(GLOBAL_VARIABLES)
        self.is_chief = communicator.rank == 0
        self.last_saved = None
        self.restored_step = None  # the step of the checkpoint restored, known on every rank
        self._random = []  # the restored checkpoint's random-stream states, one entry per rank (chief only)

    def prepare(self, init_op, pipeline):
        """Initialize, restore the latest checkpoint if there is one, and make every rank hold rank 0's state."""
        self.session.run(init_op)
        data = np.array([-1, pipeline.seed, pipeline.position], dtype=np.int64)
        if self.is_chief and self.checkpoint_dir:
            path = checkpoint.latest_checkpoint(self.checkpoint_dir)
            if path is not None:
                state = self._restore(path)
                pipeline.restore(state)
                data[:] = [state["step"], pipeline.seed, pipeline.position]
        broadcast_variables(self.session, 0, self.communicator, self.variables)
        if self.communicator.size > 1:
            data = self.communicator.broadcast(data, root=0)
        if data[0] >= 0:
            self.last_saved = self.restored_step = int(data[0])
            pipeline.seed, pipeline.position = int(data[1]), int(data[2])
            self._restore_random_streams()

    def _restore_random_streams(self):
        """Every rank continues its own random streams (dropout masks) from the checkpoint's states."""
        saved = _broadcast_json(self.communicator, self._random if self.is_chief else None)
        if not saved:
            return
        if len(saved) != self.communicator.size:
            if self.is_chief:
                warnings.warn(f"the checkpoint's random streams come from {len(saved)} rank(s), this run has "
                              f"{self.communicator.size}: random ops (dropout) restart from their seeds")
            return
        self.session.set_random_state(saved[self.communicator.rank])

    def _restore(self, path):
        arrays, meta = checkpoint.read_npz(path)
        wanted = {v.name: v for v in self.variables}
        missing = sorted(set(wanted) - set(arrays))
        extra = sorted(set(arrays) - set(wanted))
        if missing or extra:
            raise ValueError(f"checkpoint {path!r} does not fit this model: missing {missing!r}, unexpected "
                             f"{extra!r}. It was written by another --model/--optimizer: use another "
                             "--checkpoint-dir (or move its files away) to start afresh")
        for name, var in wanted.items():
            if tuple(arrays[name].shape) != tuple(var.shape):
                raise ValueError(f"checkpoint {path!r}: variable {name!r} has shape {arrays[name].shape}, the "
                                 f"model's is {var.shape}: it was written by another model configuration")
            var.load(arrays[name], self.session)
        self._random = meta.get("random", [])
        return dict(meta["data"], step=meta["step"])

    def state_arrays(self):
        """Every global variable by graph name (weights, optimizer slots, global step)."""
        values = self.session.run(self.variables)
        return {v.name: np.asarray(value) for v, value in zip(self.variables, values)}

    def after_step(self, step, pipeline):
        if self.every_steps and step % self.every_steps == 0:
            self.save(step, pipeline)

    def save(self, step, pipeline):
        """Checkpoint (chief only); a step already on disk is not written twice."""
        if not self.checkpoint_dir or step == self.last_saved:
            return
        random = _gather_json(self.communicator, self.session.random_state())
        if self.is_chief:
            checkpoint.save(self.checkpoint_dir, step, self.state_arrays(),
                            dict(self.meta, data=pipeline.state(), random=random), keep=self.keep)
        self.last_saved = step

    def export(self, path):
        """Write every variable by graph name to path (chief only)."""
        if self.is_chief and path:
            directory = os.path.dirname(os.path.abspath(path))
            os.makedirs(directory, exist_ok=True)
            checkpoint.write_npz(path, self.state_arrays())


def _gather_json(communicator, obj):
    """Every rank's JSON-able `obj`, in rank order, on every rank (collective)."""
    if communicator.size == 1:
        return [obj]
    data = np.frombuffer(json.dumps(obj).encode(), np.uint8)
    lengths = communicator.allgather(np.array([data.size], np.int64))[:, 0]
    padded = np.zeros(int(lengths.max()), np.uint8)
    padded[:data.size] = data
    rows = communicator.allgather(padded)
    return [json.loads(row[:n].tobytes()) for row, n in zip(rows, lengths)]


def _broadcast_json(communicator, obj, root=0):
    """Root's JSON-able `obj` on every rank (collective)."""
    if communicator.size == 1:
        return obj
    data = np.frombuffer(json.dumps(obj).encode(), np.uint8) if communicator.rank == root else None
    length = communicator.broadcast(np.array([0 if data is None else data.size], np.int64), root)[0]
    buffer = data if data is not None else np.zeros(int(length), np.uint8)
    return json.loads(communicator.broadcast(buffer, root).tobytes())
