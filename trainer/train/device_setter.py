"""tf.train.replica_device_setter: variables on the ps tasks (round-robin), every other op on the worker."""
from ..framework.device_spec import canonical_device, merge_device
from .server_lib import ClusterSpec

# TF1's list of the op types that live on a ps; ringflow's variables are all VariableV2.
STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
                   "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp")


class _RoundRobinStrategy:
    """The next ps task for each variable, in turn (TF1's default ps_strategy)."""

    def __init__(self, num_tasks):
        self._num_tasks, self._next = num_tasks, 0

    def __call__(self, op):
        task, self._next = self._next, (self._next + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
        self._ps_tasks, self._ps_device, self._worker_device = ps_tasks, ps_device, worker_device
        self._merge_devices, self._ps_ops, self._ps_strategy = merge_devices, set(ps_ops), ps_strategy
        self._placed = {}

    def _primary(self, name):
        parts = name.split("/")
        for n in range(len(parts) - 1, 0, -1):
            device = self._placed.get("/".join(parts[:n]))
            if device is not None:
                return device
        return None

    def device_function(self, op):
        current = op.device or ""
        if self._ps_tasks and self._ps_device and op.type in self._ps_ops:
            if not self._merge_devices and current:
                return current
            primary = self._primary(op.name)
            if primary is not None:  # an optimizer slot ("w/Momentum") lives with its variable, as TF1 colocates it
                return primary
            ps = merge_device(self._ps_device, f"/task:{self._ps_strategy(op)}") if "/task:" not in current else self._ps_device
            self._placed[op.name] = device = merge_device(ps, current)
            return device
        if not self._merge_devices and current:
            return current
        return merge_device(self._worker_device or "", current)


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker", merge_devices=True,
                          cluster=None, ps_ops=None, ps_strategy=None):
    """A device function for tg.device: ps_ops (variables) go to the ps tasks, the rest to worker_device.

    With `cluster` (a ClusterSpec or dict), ps_tasks is its number of ps tasks; with no ps tasks it returns
    None (no placement), as TF1 does. `ps_strategy(op) -> task index` replaces round-robin.
    """
    if cluster is not None:
        cluster = ClusterSpec(cluster)
        ps_job = canonical_device(ps_device).split("/")[1].partition(":")[2] if ps_device else "ps"
        ps_tasks = cluster.num_tasks(ps_job) if ps_job in cluster.jobs else 0
    if ps_tasks == 0:
        return None
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError(f"ps_strategy must be callable (op -> ps task index), got {ps_strategy!r}")
    chooser = _ReplicaDeviceChooser(ps_tasks, canonical_device(ps_device) if ps_device else "",
                                    canonical_device(worker_device) if worker_device else "", merge_devices,
                                    STANDARD_PS_OPS if ps_ops is None else ps_ops, ps_strategy)
    return chooser.device_function
