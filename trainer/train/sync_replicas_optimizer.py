"""tf.train.SyncReplicasOptimizer: the ps averages `replicas_to_aggregate` gradients per variable, then
applies them once, so N workers on batches of B train like one process on a batch of N*B.

TF1 does this with an accumulator per variable and a token queue on the ps; ringflow's ps service does
the same bookkeeping in its loop (trainer/parallel/ps/ps_service.py): each apply op built here is registered
in the graph collection SYNC_REPLICAS with the number of replicas, its updates wait on the ps until that
many workers sent them, and each worker's run returns once its round is applied. The global step, updated
in the same round, moves once per aggregated update.
"""
from ..ops.core_ops import no_op
from ..framework.registry import op_def
from .session_run_hook import SessionRunHook

SYNC_REPLICAS = "ringflow_sync_replicas"  # graph collection of (apply op, replicas_to_aggregate): the ps reads it


class SyncReplicasOptimizer:
    """Wraps an optimizer so its updates on ps variables are aggregated over replicas_to_aggregate workers."""

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
                 variables_to_average=None, use_locking=False, name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        if replicas_to_aggregate < 1 or total_num_replicas < 1:
            raise ValueError(f"replicas_to_aggregate ({replicas_to_aggregate!r}) and total_num_replicas "
                             f"({total_num_replicas!r}) must be positive")
        if variable_averages is not None:
            raise NotImplementedError("SyncReplicasOptimizer(variable_averages=...): moving averages of the "
                                      "variables on the chief are not implemented")
        self._opt, self._name = opt, name
        self._replicas_to_aggregate, self._total_num_replicas = replicas_to_aggregate, total_num_replicas
        self._gradients_applied = False

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The wrapped optimizer's update, its variable updates aggregated on the ps across replicas."""
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        graph = grads_and_vars[0][1].graph
        first = len(graph.get_operations())
        train_op = self._opt.apply_gradients(grads_and_vars, global_step=global_step, name=name)
        initializers = {v.initializer for v in graph.get_collection("variables")}  # slots' are run once, by the chief
        for op in graph.get_operations()[first:]:
            if op_def(op.type).ref_inputs and op not in initializers:
                graph.add_to_collection(SYNC_REPLICAS, (op, self._replicas_to_aggregate))
        self._gradients_applied = True
        return train_op

    def minimize(self, loss, global_step=None, var_list=None, name=None, **kwargs):
        return self.apply_gradients(self.compute_gradients(loss, var_list=var_list, **kwargs),
                                    global_step=global_step, name=name)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self):
        return self._opt.variables()

    def get_init_tokens_op(self, num_tokens=-1):
        """A no-op: the ps releases each round's workers itself, there is no token queue to fill."""
        self._check_applied("get_init_tokens_op")
        return no_op(name="sync_token_init")

    def get_chief_queue_runner(self):
        raise NotImplementedError("SyncReplicasOptimizer.get_chief_queue_runner: ringflow's ps aggregates and "
                                  "releases each round itself, there is no chief queue runner; use "
                                  "make_session_run_hook(is_chief) (or nothing) instead")

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        """The hook TF1 needs to start the token queue; here it checks apply_gradients was called first."""
        return _SyncReplicasHook(self, is_chief)

    def _check_applied(self, what):
        if not self._gradients_applied:
            raise ValueError(f"SyncReplicasOptimizer.apply_gradients should be called before {what}")


class _SyncReplicasHook(SessionRunHook):
    def __init__(self, opt, is_chief):
        self._opt, self._is_chief = opt, is_chief

    def begin(self):
        self._opt._check_applied("using the hook")
