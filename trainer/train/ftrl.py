"""FTRL-Proximal (McMahan et al. 2013), TF1's formulation with p = -learning_rate_power:

    new_accum = accum + grad^2
    linear   += grad + 2 * l2_shrinkage * var - (new_accum^p - accum^p) / lr * var
    var       = (l1 * sign(linear) - linear) / (new_accum^p / lr + 2 * l2)  where |linear| > l1, else 0
    accum     = new_accum
"""
import numpy as np

from ..framework.registry import get_array_module
from .apply_ops import filled_slot
from .sparse_training_ops import register_sparse_apply
from .training_ops import register_apply
from .optimizer import Optimizer


def apply_ftrl(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    xp = get_array_module(var)
    new_accum = accum + grad * grad
    power = -lr_power
    linear += grad + 2 * l2_shrinkage * var - (new_accum ** power - accum ** power) / lr * var
    quadratic = new_accum ** power / lr + 2 * l2
    var[...] = xp.where(np.abs(linear) > l1, (l1 * np.sign(linear) - linear) / quadratic, 0)
    accum[...] = new_accum


register_apply("ApplyFtrlV2", apply_ftrl, 3)
register_sparse_apply("SparseApplyFtrlV2", apply_ftrl, 3, grad_at=3)
register_sparse_apply("SparseApplyFtrl", lambda var, accum, linear, grad, lr, l1, l2, lr_power: apply_ftrl(
    var, accum, linear, grad, lr, l1, l2, 0, lr_power), 3, grad_at=3)  # TF1's op without l2 shrinkage


class FtrlOptimizer(Optimizer):
    """FTRL with TF1's slots "accum" (starts at initial_accumulator_value) and "linear" (starts at zero)."""

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0):
        for what, value, ok in [("initial_accumulator_value", initial_accumulator_value, lambda v: v >= 0),
                                ("learning_rate_power", learning_rate_power, lambda v: v <= 0),
                                ("l1_regularization_strength", l1_regularization_strength, lambda v: v >= 0),
                                ("l2_regularization_strength", l2_regularization_strength, lambda v: v >= 0),
                                ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength,
                                 lambda v: v >= 0)]:
            if not ok(value):
                sign = "negative" if what == "learning_rate_power" else "positive"
                raise ValueError(f"{what} {value!r} needs to be {sign} or zero")
        super().__init__(name)
        self._learning_rate, self._lr_power = learning_rate, learning_rate_power
        self._initial = initial_accumulator_value
        self._l1, self._l2, self._l2_shrinkage = (l1_regularization_strength, l2_regularization_strength,
                                                  l2_shrinkage_regularization_strength)
        self._accum_name, self._linear_name = accum_name, linear_name

    def _create_slots(self, var_list):
        for var in var_list:
            filled_slot(self, var, "accum", self._accum_name or self._name, self._initial)
            self._zeros_slot(var, "linear", self._linear_name or self._name)

    def _apply_dense(self, grad, var):
        slots = [self.get_slot(var, "accum"), self.get_slot(var, "linear")]
        return self._update("ApplyFtrlV2", [var, *slots, grad, *self._hypers(var)], f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        """TF1's SparseApplyFtrl, or SparseApplyFtrlV2 where there is l2 shrinkage."""
        slots, hyper = [self.get_slot(var, "accum"), self.get_slot(var, "linear")], self._hypers(var)
        shrinking = self._l2_shrinkage > 0.0
        if not shrinking:
            del hyper[3]
        return self._sparse_update("SparseApplyFtrlV2" if shrinking else "SparseApplyFtrl",
                                   [var, *slots, grad.values, grad.indices, *hyper])

    def _hypers(self, var):
        return [self._hyper(value, var, name) for value, name in
                [(self._learning_rate, "learning_rate"), (self._l1, "l1_regularization_strength"),
                 (self._l2, "l2_regularization_strength"), (self._l2_shrinkage, "l2_shrinkage_regularization"),
                 (self._lr_power, "learning_rate_power")]]
