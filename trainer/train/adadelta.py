"""Adadelta, TF1's formulation (Zeiler 2012, with a learning rate on top):

    accum        = rho * accum + (1 - rho) * grad^2
    update       = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad
    accum_update = rho * accum_update + (1 - rho) * update^2
    var         -= lr * update
"""
import numpy as np

from .sparse_training_ops import register_sparse_apply
from .training_ops import register_apply
from .optimizer import Optimizer


def apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad):
    accum *= rho
    accum += (1 - rho) * grad * grad
    update = np.sqrt(accum_update + epsilon) / np.sqrt(accum + epsilon) * grad
    accum_update *= rho
    accum_update += (1 - rho) * update * update
    var -= lr * update


register_apply("ApplyAdadelta", apply_adadelta, 3)


def sparse_adadelta(var, accum, accum_update, lr, rho, epsilon, grad):
    # TF's sparse kernel rounds in its own order: accum * rho + grad^2 * (1 - rho), and 1 / sqrt(accum + epsilon)
    accum *= rho
    accum += grad * grad * (1 - rho)
    update = np.sqrt(accum_update + epsilon) * (1 / np.sqrt(accum + epsilon)) * grad
    accum_update *= rho
    accum_update += update * update * (1 - rho)
    var -= lr * update


register_sparse_apply("SparseApplyAdadelta", sparse_adadelta, 3, grad_at=6)


class AdadeltaOptimizer(Optimizer):
    """Adadelta with TF1's slots "accum" and "accum_update" (both start at zero)."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-08, use_locking=False, name="Adadelta"):
        super().__init__(name)
        self._learning_rate, self._rho, self._epsilon = learning_rate, rho, epsilon

    def _create_slots(self, var_list):
        for var in var_list:
            self._zeros_slot(var, "accum", self._name)
            self._zeros_slot(var, "accum_update", self._name)

    def _apply_dense(self, grad, var):
        return self._update("ApplyAdadelta", [*self._operands(var), grad], f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        return self._sparse_update("SparseApplyAdadelta", [*self._operands(var), grad.values, grad.indices])

    def _operands(self, var):
        hyper = [self._hyper(value, var, name) for value, name in
                 [(self._learning_rate, "learning_rate"), (self._rho, "rho"), (self._epsilon, "epsilon")]]
        return [var, self.get_slot(var, "accum"), self.get_slot(var, "accum_update"), *hyper]
