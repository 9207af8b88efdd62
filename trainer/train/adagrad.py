"""Adagrad, TF1's formulation: accum += grad^2; var -= lr * grad / sqrt(accum) (no epsilon; accum starts > 0)."""
import numpy as np

from .apply_ops import filled_slot
from .sparse_training_ops import register_sparse_apply
from .training_ops import register_apply
from .optimizer import Optimizer


def apply_adagrad(var, accum, lr, grad):
    accum += grad * grad
    var -= lr * grad / np.sqrt(accum)


register_apply("ApplyAdagrad", apply_adagrad, 2)


def sparse_adagrad(var, accum, lr, grad):
    # TF's sparse kernel multiplies by 1 / sqrt(accum) where the dense one divides
    accum += grad * grad
    var -= lr * grad * (1 / np.sqrt(accum))


register_sparse_apply("SparseApplyAdagrad", sparse_adagrad, 2, grad_at=3)


class AdagradOptimizer(Optimizer):
    """Adagrad with TF1's "accumulator" slot, filled with initial_accumulator_value (which must be positive)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value!r}")
        super().__init__(name)
        self._learning_rate, self._initial_accumulator_value = learning_rate, initial_accumulator_value

    def _create_slots(self, var_list):
        for var in var_list:
            filled_slot(self, var, "accumulator", self._name, self._initial_accumulator_value)

    def _apply_dense(self, grad, var):
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        return self._update("ApplyAdagrad", [var, self.get_slot(var, "accumulator"), lr, grad],
                            f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        return self._sparse_update("SparseApplyAdagrad", [var, self.get_slot(var, "accumulator"), lr, grad.values,
                                                          grad.indices])
