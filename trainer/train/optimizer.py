"""The optimizer base: compute_gradients and apply_gradients, separable so a wrapper can act between them."""
import numpy as np

from ..framework import dtypes
from ..ops.gradients import gradients
from ..framework.tensor import Tensor
from ..framework.graph_wrappers import control_dependencies
from ..ops.array_ops import cast, shape as shape_of, zeros
from ..ops import tuple_ops
from ..ops.core_ops import convert_to_tensor, group
from ..ops.indexed_slices import IndexedSlices, as_slices
from ..ops.segment_ops import unsorted_segment_sum
from ..ops.sort_ops import unique
from ..framework.registry import apply_op, op_def
from ..ops.variables import TRAINABLE_VARIABLES, Variable
from . import training_ops  # noqa: F401  (registers the Apply* ops)
from . import sparse_training_ops  # noqa: F401  (registers SparseApplyMomentum)
from ..framework.graph import get_default_graph


class Optimizer:
    """compute_gradients -> [(grad, var)]; apply_gradients -> one Operation; minimize does both.

    Names follow TF1: apply_gradients builds its updates under the name scope `name` (default: the optimizer's
    name), e.g. "GradientDescent/update_w/ApplyGradientDescent", and the Operation it returns is named exactly
    like that scope ("GradientDescent"): the group of updates, or with a global_step the step's AssignAdd, run
    after the group "GradientDescent/update". Slots are "w/Adam", "w/Adam_1", ...; variables such as Adam's
    beta1_power follow the name scope apply_gradients is called in.
    """

    GATE_NONE, GATE_OP, GATE_GRAPH = 0, 1, 2

    def __init__(self, use_locking, name=None):
        if name is None and isinstance(use_locking, str):  # this project's older Optimizer(name) form
            use_locking, name = False, use_locking
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = bool(use_locking)  # accepted: one process updates its variables, nothing to lock
        self._name = name
        self._slots = {}

    def get_name(self):
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """[(gradient Tensor or None, variable)] for every trainable variable (or `var_list`).

        aggregation_method and colocate_gradients_with_ops are accepted and change nothing. ringflow runs a rank's
        ops one at a time, so no gradient races an update here; GATE_GRAPH still joins the gradients as TF1 does
        (tf.tuple: each waits for all), so that an exported graph TensorFlow runs in parallel has no race either.
        """
        if gate_gradients not in (self.GATE_NONE, self.GATE_OP, self.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             f"Optimizer.GATE_GRAPH. Not {gate_gradients!r}")
        if not isinstance(loss, Tensor):
            raise TypeError(f"compute_gradients needs a loss Tensor, got {loss!r}")
        _check_float(loss, "loss")
        var_list = list(var_list) if var_list is not None else loss.graph.get_collection(TRAINABLE_VARIABLES)
        if not var_list:
            raise ValueError("No variables to optimize: the graph has no trainable variables and var_list is empty")
        for var in var_list:
            _check_float(var, "variable")
        grad_ys = None if grad_loss is None else [grad_loss]
        grads = gradients(loss, var_list, grad_ys=grad_ys)
        if gate_gradients == self.GATE_GRAPH and any(g is not None for g in grads):
            grads = tuple_ops.tuple(grads)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """An Operation applying each gradient to its variable, then incrementing `global_step` if given."""
        grads_and_vars = list(grads_and_vars)
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            names = [v.name for _, v in grads_and_vars]
            raise ValueError(f"No gradients provided for any variable {names!r}: check that the loss depends "
                             "on them")
        graph = pairs[0][1].graph
        var_list = [v for _, v in pairs]
        with graph.as_default():
            with graph.control_dependencies(None):  # TF1's init_scope: the variables do not wait on anything
                self._create_non_slots(var_list)
                with graph.name_scope(None):
                    self._create_slots(var_list)
            with graph.name_scope(name or self._name) as scope:
                updates = [_constrained(self._apply_gradient(g, v), v) for g, v in pairs]
                if global_step is None:
                    return self._finish(updates, scope)
                with graph.control_dependencies([self._finish(updates, "update")]):
                    one = convert_to_tensor(np.ones((), dtype=global_step.dtype))
                    return _exact_op("AssignAdd", [global_step, one], scope)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """compute_gradients then apply_gradients."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def get_slot(self, var, name):
        """The slot variable `name` ("momentum", "m", "v") kept for `var`, or None."""
        return self._slots.get((name, var))

    def get_slot_names(self):
        return sorted({name for name, _ in self._slots})

    def variables(self):
        """Every variable this optimizer created (slots and accumulators)."""
        return list(self._slots.values()) + self._extra_variables()

    def _apply_gradient(self, grad, var):
        """TF1's choice: a gradient TF makes an IndexedSlices (a gather's, or one given) takes the sparse rule, under
        the name scope "update_<var>", where the optimizer has one; any other the dense rule."""
        slices = as_slices(grad)
        own = type(self)._apply_sparse is not Optimizer._apply_sparse or (
            type(self)._apply_sparse_duplicate_indices is not Optimizer._apply_sparse_duplicate_indices)
        if slices is None or not own:
            return self._apply_dense(convert_to_tensor(grad), var)
        with var.graph.name_scope(f"update_{var.op.name}"):
            return self._apply_sparse_duplicate_indices(slices, var)

    # --- for subclasses ---------------------------------------------------------------------------
    def _apply_sparse_duplicate_indices(self, grad, var):
        """TF1's default: the values at repeated indices summed (unique, then unsorted_segment_sum in their order),
        then _apply_sparse; an optimizer whose rule takes repeated indices as they come overrides this instead."""
        indices, positions = unique(grad.indices)
        values = unsorted_segment_sum(grad.values, positions, shape_of(indices)[0])
        return self._apply_sparse(IndexedSlices(values, indices, grad.dense_shape), var)

    def _apply_sparse(self, grad, var):
        """The update by an IndexedSlices `grad` of distinct indices; an optimizer without one applies the dense rule
        to the gradient's dense form (TF1's base class raises NotImplementedError)."""
        return self._apply_dense(convert_to_tensor(grad), var)

    def _sparse_update(self, op_type, inputs, **attrs):
        """A Sparse* update op named like TF1's ("update_w/SparseApplyMomentum"), in _apply_sparse's name scope."""
        return apply_op(op_type, inputs, name=op_type, **attrs).op

    def _create_non_slots(self, var_list):
        """Create variables that are not per-variable slots (Adam's beta1_power), in the caller's name scope."""

    def _create_slots(self, var_list):
        pass

    def _extra_variables(self):
        return []

    def _zeros_slot(self, var, slot_name, op_name):
        if (slot_name, var) not in self._slots:
            if var.ndim is None or None in var.shape:
                raise ValueError(f"Variable {var.name!r} needs a static shape for {self._name}'s slots, "
                                 f"got {var.shape}")
            self._slots[(slot_name, var)] = Variable(lambda: zeros(var.shape, var.dtype), trainable=False,
                                                     name=f"{var.op.name}/{op_name}")
        return self._slots[(slot_name, var)]

    def _hyper(self, value, var, name):
        """A hyper-parameter as a scalar Tensor of var's dtype. TF1 converts a Python number to a Tensor first, a
        float to float32, and casts that to var's dtype: a float64 variable takes float32's nearest learning rate
        (0.05 is 0.05000000074505806 there), so it does here."""
        value = self._call_if_callable(value)
        if isinstance(value, Tensor):
            return cast(value, var.dtype)
        return convert_to_tensor(tf_number(value).astype(var.dtype), name=name)

    def _call_if_callable(self, param):
        """A hyper-parameter given as a function of no arguments is called, as TF1's optimizers call it."""
        return param() if callable(param) else param

    def _update(self, op_type, inputs, name, **attrs):
        """The update op of one variable, named "<name>/<op_type>" ("update_w/ApplyAdam") as TF1 names it."""
        graph = inputs[0].graph
        with graph.name_scope(name):
            return apply_op(op_type, inputs, name=op_type, **attrs).op

    def _finish(self, updates, name):
        return self._group(updates, name)

    def _group(self, ops, name):
        """group(*ops); a `name` ending in "/" (a name scope) names the group exactly that scope, as in TF1."""
        if name.endswith("/"):  # a subclass's _apply_dense may return the assign's Tensor, as group() takes
            return _exact_op("NoOp", [], name, control_inputs=[o.op if isinstance(o, Tensor) else o for o in ops])
        return group(*ops, name=name)


class WrappingOptimizer(Optimizer):
    """An Optimizer around another, `self._optimizer` (loss scaling, Horovod's averaging): the slots and variables
    are the wrapped optimizer's, as TF's wrappers answer for them."""

    def get_slot(self, var, name):
        return self._optimizer.get_slot(var, name)

    def get_slot_names(self):
        return self._optimizer.get_slot_names()

    def variables(self):
        return self._optimizer.variables()


def _exact_op(op_type, inputs, scope, control_inputs=()):
    """An op named exactly like the name scope `scope` ("GradientDescent/" gives "GradientDescent")."""
    graph = inputs[0].graph if inputs else get_default_graph()
    specs = op_def(op_type).infer(*inputs) if inputs else []
    op = graph.create_op(op_type, inputs, specs, name=scope[:-1], control_inputs=control_inputs, unique=False)
    return op


def _check_float(tensor, what):
    if tensor.dtype not in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64):
        raise ValueError(f"Invalid type {tensor.dtype!r} for {what} {tensor.name!r}, expected: "
                         "[tf.float16, tf.bfloat16, tf.float32, tf.float64]")


def _constrained(update, var):
    """A variable with a `constraint` is projected right after its update, as TF1's optimizers do."""
    constraint = getattr(var, "constraint", None)
    if constraint is None:
        return update
    with control_dependencies([update]):
        return var.assign(constraint(var)).op


def tf_number(value):
    """A hyper-parameter number typed as TF1's convert_to_tensor types it: a Python float float32, an int int32
    (int64 past int32's range), a numpy scalar its own dtype."""
    return np.asarray(value, dtype=dtypes.default_dtype_for(value))
