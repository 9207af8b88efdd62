"""Momentum, TF1's formulation: accum = momentum * accum + grad; var -= lr * accum (Nesterov: see apply). A sparse
gradient updates only the rows it names: the others keep their accumulator undecayed and do not move."""
from .optimizer import Optimizer


class MomentumOptimizer(Optimizer):
    """accum = momentum * accum + grad; var -= lr * accum, or lr * (grad + momentum * accum) with Nesterov."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate, self._momentum, self._use_nesterov = learning_rate, momentum, bool(use_nesterov)

    def _create_slots(self, var_list):
        for var in var_list:
            self._zeros_slot(var, "momentum", self._name)

    def _apply_dense(self, grad, var):
        accum = self.get_slot(var, "momentum")
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        momentum = self._hyper(self._momentum, var, "momentum")
        return self._update("ApplyMomentum", [var, accum, lr, grad, momentum], f"update_{var.op.name}",
                            use_nesterov=self._use_nesterov)

    def _apply_sparse(self, grad, var):
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        momentum = self._hyper(self._momentum, var, "momentum")
        return self._sparse_update("SparseApplyMomentum", [var, self.get_slot(var, "momentum"), lr, grad.values,
                                                           grad.indices, momentum], use_nesterov=self._use_nesterov)
