"""The optimizer base: compute_gradients and apply_gradients, separable so a wrapper can act between them."""
import numpy as np

from ..gradients import gradients
from ..graph import Tensor, control_dependencies
from ..ops.array_ops import cast, zeros
from ..ops.core_ops import convert_to_tensor, group
from ..ops.registry import apply_op
from ..variables import TRAINABLE_VARIABLES, Variable
from . import training_ops  # noqa: F401  (registers the Apply* ops)


class Optimizer:
    """compute_gradients -> [(grad, var)]; apply_gradients -> one Operation; minimize does both."""

    def __init__(self, name):
        self._name = name
        self._slots = {}

    def compute_gradients(self, loss, var_list=None, **kwargs):
        """[(gradient Tensor or None, variable)] for every trainable variable (or `var_list`)."""
        if not isinstance(loss, Tensor):
            raise TypeError(f"compute_gradients needs a loss Tensor, got {loss!r}")
        var_list = list(var_list) if var_list is not None else loss.graph.get_collection(TRAINABLE_VARIABLES)
        if not var_list:
            raise ValueError("No variables to optimize: the graph has no trainable variables and var_list is empty")
        return list(zip(gradients(loss, var_list), var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """An Operation applying each gradient to its variable, then incrementing `global_step` if given."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            names = [v.name for _, v in grads_and_vars]
            raise ValueError(f"No gradients provided for any variable {names!r}: check that the loss depends "
                             "on them")
        graph = pairs[0][1].graph
        with graph.as_default():
            with graph.name_scope(None):
                self._create_slots([v for _, v in pairs])
            with graph.name_scope(name or self._name) as scope:
                updates = [self._apply_dense(convert_to_tensor(g), v) for g, v in pairs]
                train = self._finish(updates, scope[:-1])
            if global_step is None:
                return train
            with control_dependencies([train]):
                return global_step.assign_add(np.ones((), dtype=global_step.dtype), name="global_step_add").op

    def minimize(self, loss, global_step=None, var_list=None, name=None):
        """compute_gradients then apply_gradients."""
        return self.apply_gradients(self.compute_gradients(loss, var_list=var_list), global_step, name=name)

    def get_slot(self, var, name):
        """The slot variable `name` ("momentum", "m", "v") kept for `var`, or None."""
        return self._slots.get((name, var))

    def get_slot_names(self):
        return sorted({name for name, _ in self._slots})

    def variables(self):
        """Every variable this optimizer created (slots and accumulators)."""
        return list(self._slots.values()) + self._extra_variables()

    # --- for subclasses ---------------------------------------------------------------------------
    def _create_slots(self, var_list):
        pass

    def _extra_variables(self):
        return []

    def _zeros_slot(self, var, slot_name, op_name):
        if (slot_name, var) not in self._slots:
            if var.shape is None or None in var.shape:
                raise ValueError(f"Variable {var.name!r} needs a static shape for {self._name}'s slots, "
                                 f"got {var.shape}")
            self._slots[(slot_name, var)] = Variable(lambda: zeros(var.shape, var.dtype), trainable=False,
                                                     name=f"{var.op.name}/{op_name}")
        return self._slots[(slot_name, var)]

    def _hyper(self, value, var, name):
        """A hyper-parameter as a scalar Tensor of var's dtype (Python numbers become constants)."""
        if isinstance(value, Tensor):
            return cast(value, var.dtype)
        return convert_to_tensor(np.asarray(value, dtype=var.dtype), name=name)

    def _update(self, op_type, inputs, name, **attrs):
        return apply_op(op_type, inputs, name=name, **attrs).op

    def _finish(self, updates, name):
        return group(*updates, name=name)
