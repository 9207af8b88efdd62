"""tf.train.experimental.MixedPrecisionLossScaleOptimizer: another optimizer with loss scaling (loss_scale.py). The
loss is multiplied by the scale before its gradients are taken and the gradients divided by it after; a step whose
gradients hold an inf or nan updates the scale and skips the update, as TF does."""
from .loss_scale import get as get_loss_scale
from .optimizer import Optimizer, WrappingOptimizer
from ..ops.array_ops import cast
from ..ops.control_flow_ops import cond
from ..ops.core_ops import constant, group


class MixedPrecisionLossScaleOptimizer(WrappingOptimizer):
    """opt's compute_gradients on loss * scale, divided by the scale; opt's apply_gradients where they are finite.
    loss_scale: "dynamic" (a DynamicLossScale), a number (a FixedLossScale) or a LossScale."""

    def __init__(self, opt, loss_scale):
        if not isinstance(opt, Optimizer):
            raise ValueError(f'"opt" must be an instance of Optimizer, but got: {type(opt)}')
        super().__init__(False, opt.get_name())
        self._optimizer, self._loss_scale = opt, get_loss_scale(loss_scale)

    def compute_gradients(self, loss, var_list=None, gate_gradients=Optimizer.GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        scale = self._loss_scale()
        scaled = loss * cast(scale, loss.dtype)
        pairs = self._optimizer.compute_gradients(scaled, var_list, gate_gradients, aggregation_method,
                                                  colocate_gradients_with_ops, grad_loss)
        return [(None if g is None else g * cast(1.0 / scale, g.dtype), v) for g, v in pairs]

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The wrapped optimizer's update (named "<name>-wrapped"), run where the gradients are finite, and the
        scale's update, grouped under `name` (the optimizer's name), as TF names them."""
        grads_and_vars, name = list(grads_and_vars), name or self.get_name()
        update_scale, finite = self._loss_scale.update([g for g, _ in grads_and_vars])
        if finite is True:  # a fixed scale: every step applies
            return group(self._optimizer.apply_gradients(grads_and_vars, global_step, f"{name}-wrapped"),
                         update_scale, name=name)
        graph = update_scale.graph
        scope = graph.get_name_scope()

        def applied():
            with graph.name_scope(scope + "/" if scope else None):  # the update keeps its names, as without a cond
                update = self._optimizer.apply_gradients(grads_and_vars, global_step, f"{name}-wrapped")
            with graph.control_dependencies([update]):
                return constant(True)

        return group(cond(finite, applied, lambda: constant(False)).op, update_scale, name=name)
