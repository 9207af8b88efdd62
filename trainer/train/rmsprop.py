"""RMSProp, TF1's formulation: epsilon inside the square root, the learning rate inside the momentum buffer.

    ms  = rho * ms + (1 - rho) * grad^2                  (ms starts at ONES, as in TF1)
    mg  = rho * mg + (1 - rho) * grad                     (centered only)
    mom = momentum * mom + lr * grad / sqrt(ms - mg^2 + epsilon)
    var -= mom
"""
import numpy as np

from .apply_ops import filled_slot
from .sparse_training_ops import register_sparse_apply
from .training_ops import register_apply
from .optimizer import Optimizer


def apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad):
    ms += (grad * grad - ms) * (1 - rho)
    mom *= momentum
    mom += lr * grad / np.sqrt(ms + epsilon)
    var -= mom


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    mg += (grad - mg) * (1 - rho)
    ms += (grad * grad - ms) * (1 - rho)
    mom *= momentum
    mom += lr * grad / np.sqrt(ms - mg * mg + epsilon)
    var -= mom


def sparse_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad):
    # TF's sparse kernel rounds in its own order: ms * rho + grad^2 * (1 - rho), and 1 / sqrt(...) times lr times grad
    ms *= rho
    ms += grad * grad * (1 - rho)
    mom *= momentum
    mom += 1 / np.sqrt(ms + epsilon) * lr * grad
    var -= mom


def sparse_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    mg *= rho
    mg += grad * (1 - rho)
    ms *= rho
    ms += grad * grad * (1 - rho)
    mom *= momentum
    mom += 1 / np.sqrt(ms - mg * mg + epsilon) * lr * grad
    var -= mom


register_apply("ApplyRMSProp", apply_rms_prop, 3)
register_apply("ApplyCenteredRMSProp", apply_centered_rms_prop, 4)
register_sparse_apply("SparseApplyRMSProp", sparse_rms_prop, 3, grad_at=7)
register_sparse_apply("SparseApplyCenteredRMSProp", sparse_centered_rms_prop, 4, grad_at=8)


class RMSPropOptimizer(Optimizer):
    """RMSProp with TF1's slots: "rms" (starts at ones), "momentum", and "mg" when centered."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False, centered=False,
                 name="RMSProp"):
        super().__init__(name)
        self._learning_rate, self._decay, self._momentum = learning_rate, decay, momentum
        self._epsilon, self._centered = epsilon, bool(centered)

    def _create_slots(self, var_list):
        for var in var_list:  # TF1's creation order, so slot names ("w/RMSProp_1", ...) line up with TF1's
            filled_slot(self, var, "rms", self._name, 1.0)
            if self._centered:
                self._zeros_slot(var, "mg", self._name)
            self._zeros_slot(var, "momentum", self._name)

    def _apply_dense(self, grad, var):
        if self._centered:
            return self._update("ApplyCenteredRMSProp", [*self._operands(var), grad], f"update_{var.op.name}")
        return self._update("ApplyRMSProp", [*self._operands(var), grad], f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        op_type = "SparseApplyCenteredRMSProp" if self._centered else "SparseApplyRMSProp"
        return self._sparse_update(op_type, [*self._operands(var), grad.values, grad.indices])

    def _operands(self, var):
        """The variable, its slots and the hyper-parameters, in the order of TF1's update ops."""
        hyper = [self._hyper(value, var, name) for value, name in
                 [(self._learning_rate, "learning_rate"), (self._decay, "decay"), (self._momentum, "momentum"),
                  (self._epsilon, "epsilon")]]
        slots = [self.get_slot(var, "rms"), self.get_slot(var, "momentum")]
        return [var, *([self.get_slot(var, "mg")] if self._centered else []), *slots, *hyper]
