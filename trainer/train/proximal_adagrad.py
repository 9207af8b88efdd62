"""Proximal Adagrad and Adagrad dual averaging, TF1's formulations (training_ops' ApplyProximalAdagrad and
ApplyAdagradDA):

    ProximalAdagrad: accum += grad^2;  step = lr / sqrt(accum);  prox = var - step * grad
                     var = sign(prox) * max(|prox| - step * l1, 0) / (1 + step * l2)
    AdagradDA:       g += grad;  gg += grad^2;  t = the global step + 1
                     var = -lr * sign(g) * max(|g| - l1 * t, 0) / (l2 * t * lr + sqrt(gg))
"""
import numpy as np

from .apply_ops import filled_slot
from .optimizer import Optimizer
from .training_ops import register_apply
from .sparse_training_ops import register_sparse_apply
from ..ops.array_ops import cast
from ..ops.core_ops import identity


def _shrink(value, threshold):
    return np.sign(value) * np.maximum(np.abs(value) - threshold, 0)


def apply_proximal_adagrad(var, accum, lr, l1, l2, grad):
    accum += grad * grad
    step = lr / np.sqrt(accum)
    var[...] = _shrink(var - step * grad, step * l1) / (1 + step * l2)


def apply_adagrad_da(var, gradient_accum, gradient_squared_accum, grad, lr, l1, l2, global_step):
    gradient_accum += grad
    gradient_squared_accum += grad * grad
    var[...] = -lr * _shrink(gradient_accum, l1 * global_step) / (l2 * global_step * lr +
                                                                  np.sqrt(gradient_squared_accum))


def sparse_proximal_adagrad(var, accum, lr, l1, l2, grad):
    # TF's sparse kernel: the step is lr times 1 / sqrt(accum), where the dense one divides
    accum += grad * grad
    step = lr * (1 / np.sqrt(accum))
    var[...] = _shrink(var - step * grad, step * l1) / (1 + step * l2)


register_apply("ApplyProximalAdagrad", apply_proximal_adagrad, 2)
register_apply("ApplyAdagradDA", apply_adagrad_da, 3)
register_sparse_apply("SparseApplyProximalAdagrad", sparse_proximal_adagrad, 2, grad_at=5)
register_sparse_apply("SparseApplyAdagradDA", apply_adagrad_da, 3, grad_at=3)


def _positive(value, name):
    if not isinstance(value, (int, float)) or value <= 0.0:
        raise ValueError(f"{name} must be positive: {value!r}")


class ProximalAdagradOptimizer(Optimizer):
    """Adagrad's step followed by L1 soft-thresholding and L2 shrinkage, with TF1's "accumulator" slot."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name="ProximalAdagrad"):
        _positive(initial_accumulator_value, "initial_accumulator_value")
        super().__init__(name)
        self._learning_rate, self._initial_accumulator_value = learning_rate, initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _create_slots(self, var_list):
        for var in var_list:
            filled_slot(self, var, "accumulator", self._name, self._initial_accumulator_value)

    def _apply_dense(self, grad, var):
        return self._update("ApplyProximalAdagrad", [*self._operands(var), grad], f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        return self._sparse_update("SparseApplyProximalAdagrad", [*self._operands(var), grad.values, grad.indices])

    def _operands(self, var):
        hyper = [self._hyper(value, var, name) for value, name in
                 [(self._learning_rate, "learning_rate"), (self._l1, "l1"), (self._l2, "l2")]]
        return [var, self.get_slot(var, "accumulator"), *hyper]


class AdagradDAOptimizer(Optimizer):
    """Adagrad dual averaging for sparse linear models: the variable follows the averaged gradients of all steps
    so far, counted by `global_step`, which the optimizer needs."""

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False,
                 name="AdagradDA"):
        _positive(initial_gradient_squared_accumulator_value, "initial_gradient_squared_accumulator_value")
        super().__init__(name)
        self._learning_rate, self._global_step = learning_rate, global_step
        self._initial = initial_gradient_squared_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _create_slots(self, var_list):
        for var in var_list:
            self._zeros_slot(var, "gradient_accumulator", self._name)
            filled_slot(self, var, "gradient_squared_accumulator", self._name, self._initial)

    def _apply_dense(self, grad, var):
        return self._update("ApplyAdagradDA", self._operands(var, grad), f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        operands = self._operands(var, grad.values)
        return self._sparse_update("SparseApplyAdagradDA", [*operands[:4], grad.indices, *operands[4:]])

    def _operands(self, var, grad):
        hyper = [self._hyper(value, var, name) for value, name in
                 [(self._learning_rate, "learning_rate"), (self._l1, "l1"), (self._l2, "l2")]]
        step = cast(identity(self._global_step) + 1, var.dtype)  # the step this update makes, as TF counts it
        return [var, self.get_slot(var, "gradient_accumulator"), self.get_slot(var, "gradient_squared_accumulator"),
                grad, *hyper, step]
