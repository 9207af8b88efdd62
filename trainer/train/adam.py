"""Adam, TF1's formulation: lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t), var -= lr_t * m / (sqrt(v) + eps)."""
import numpy as np

from ..framework.graph_wrappers import control_dependencies
from ..ops.variables import Variable
from ..framework.tensor import Tensor
from ..ops.array_ops import cast
from ..ops.core_ops import group
from ..ops.math_ops import sqrt
from ..ops.scatter_ops import scatter_add
from .optimizer import Optimizer, tf_number


class AdamOptimizer(Optimizer):
    """Adam with TF1's bias correction and epsilon placement; beta1_power/beta2_power are graph variables."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon
        self._powers = None

    def _create_non_slots(self, var_list):
        # TF1 makes these once, in the name scope minimize is called in ("adam_optimizer/beta1_power").
        # Their dtype is their value's, as TF1's initial_value=beta1: float32 for a Python float whatever the
        # variables' dtype (a float64 model's checkpoint holds float32 powers), a Tensor's or numpy scalar's own.
        # one pair per graph, as TF1 keys its non-slot variables by graph: an Estimator builds a graph per call
        if self._powers is None or self._powers[0].graph is not var_list[0].graph:
            beta1, beta2 = (self._call_if_callable(b) for b in (self._beta1, self._beta2))
            self._powers = (Variable(_initial(beta1), name="beta1_power", trainable=False),
                            Variable(_initial(beta2), name="beta2_power", trainable=False))

    def _create_slots(self, var_list):
        for var in var_list:
            self._zeros_slot(var, "m", self._name)
            self._zeros_slot(var, "v", self._name)

    def _extra_variables(self):
        return list(self._powers or ())

    def _apply_dense(self, grad, var):
        inputs = [var, self.get_slot(var, "m"), self.get_slot(var, "v"), *self._scalars(var), grad]
        return self._update("ApplyAdam", inputs, f"update_{var.op.name}")

    def _apply_sparse(self, grad, var):
        """TF1's: every row's m and v decay, the named rows add their gradients' shares, every row moves."""
        b1p, b2p, lr, beta1, beta2, epsilon = self._scalars(var)
        lr = lr * sqrt(1 - b2p) / (1 - b1p)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_scaled = grad.values * (1 - beta1)
        with control_dependencies([m.assign(m * beta1)]):
            m_t = scatter_add(m, grad.indices, m_scaled)
        v_scaled = (grad.values * grad.values) * (1 - beta2)
        with control_dependencies([v.assign(v * beta2)]):
            v_t = scatter_add(v, grad.indices, v_scaled)
        update = var.assign_sub(lr * m_t / (sqrt(v_t) + epsilon))
        return group(update, m_t, v_t)

    def _scalars(self, var):
        """beta1_power, beta2_power, the learning rate, beta1, beta2 and epsilon, in var's dtype."""
        b1p, b2p = (p if p.dtype == var.dtype else self._hyper(p, var, "power") for p in self._powers)
        return [b1p, b2p, *[self._hyper(value, var, name) for value, name in
                            [(self._lr, "learning_rate"), (self._beta1, "beta1"), (self._beta2, "beta2"),
                             (self._epsilon, "epsilon")]]]

    def _finish(self, updates, name):
        b1p, b2p = self._powers
        with control_dependencies(updates):
            update_b1 = b1p.assign(b1p * _value(self._call_if_callable(self._beta1), b1p.dtype))
            update_b2 = b2p.assign(b2p * _value(self._call_if_callable(self._beta2), b2p.dtype))
        return self._group([*updates, update_b1.op, update_b2.op], name)


def _initial(beta):
    return beta if isinstance(beta, Tensor) else tf_number(beta)


def _value(beta, dtype):
    """beta1 or beta2 in `dtype`: TF1 takes them as numbers or as scalar Tensors."""
    return cast(beta, dtype) if isinstance(beta, Tensor) else np.asarray(beta, dtype=dtype)
