"""Proximal gradient descent (FOBOS), TF1's formulation: a gradient step, then the L1/L2 proximal map.

    prox = var - lr * grad
    var  = sign(prox) * max(|prox| - lr * l1, 0) / (1 + lr * l2)
"""
import numpy as np

from .sparse_training_ops import register_sparse_apply
from .training_ops import register_apply
from .optimizer import Optimizer


def apply_proximal_gradient_descent(var, alpha, l1, l2, delta):
    prox = var - alpha * delta
    shrunk = np.sign(prox) * np.maximum(np.abs(prox) - alpha * l1, 0)
    var[...] = shrunk / (1 + alpha * l2)


register_apply("ApplyProximalGradientDescent", apply_proximal_gradient_descent, 1)
register_sparse_apply("SparseApplyProximalGradientDescent", apply_proximal_gradient_descent, 1, grad_at=4)


class ProximalGradientDescentOptimizer(Optimizer):
    """Gradient descent followed by L1 soft-thresholding and L2 shrinkage (no slots)."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalGradientDescent"):
        super().__init__(name)
        self._learning_rate, self._l1, self._l2 = (learning_rate, l1_regularization_strength,
                                                   l2_regularization_strength)

    def _apply_dense(self, grad, var):
        return self._update("ApplyProximalGradientDescent", [var, *self._hypers(var), grad], f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        return self._sparse_update("SparseApplyProximalGradientDescent",
                                   [var, *self._hypers(var), grad.values, grad.indices])

    def _hypers(self, var):
        return [self._hyper(value, var, name) for value, name in
                [(self._learning_rate, "learning_rate"), (self._l1, "l1"), (self._l2, "l2")]]
