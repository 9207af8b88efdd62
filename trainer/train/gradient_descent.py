"""Plain gradient descent: var -= lr * grad."""
from ..ops.scatter_ops import scatter_sub
from .optimizer import Optimizer


class GradientDescentOptimizer(Optimizer):
    """var -= learning_rate * grad."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        return self._update("ApplyGradientDescent", [var, lr, grad], f"update_{var.op.name}")

    def _apply_sparse_duplicate_indices(self, grad, var):
        """TF1's: the named rows less lr * values, repeated indices subtracted one after the other (no summing)."""
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        return scatter_sub(var, grad.indices, grad.values * lr).op
