"""Plain gradient descent: var -= lr * grad."""
from .optimizer import Optimizer


class GradientDescentOptimizer(Optimizer):
    """var -= learning_rate * grad."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        lr = self._hyper(self._learning_rate, var, "learning_rate")
        return self._update("ApplyGradientDescent", [var, lr, grad], f"update_{var.op.name}")
