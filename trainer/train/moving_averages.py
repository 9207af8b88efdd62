"""tf.train.ExponentialMovingAverage: shadow variables tracking decayed averages of variables or tensors.

Names are TF1's, so checkpoints line up: the shadow of variable "conv1/weights" is
"conv1/weights/ExponentialMovingAverage", the update op is "ExponentialMovingAverage" (the name scope of
apply()), and each variable's update is "ExponentialMovingAverage/AssignMovingAvg[_k]".
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from ..framework.graph_keys import GraphKeys
from ..ops.array_ops import cast, zeros
from ..ops.core_ops import convert_to_tensor
from ..ops.math_ops import minimum, pow
from ..framework.registry import op_def
from ..ops.variables import Variable, global_variables, trainable_variables

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)


def moving_average_variables(scope=None):
    """The variables whose moving averages an ExponentialMovingAverage keeps (TF1's collection)."""
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def _op_named_like_scope(op_type, inputs, scope):
    """An op named exactly like the name scope `scope` ("AssignMovingAvg/" gives "AssignMovingAvg"), as TF1 does."""
    graph = inputs[0].graph
    op = graph.create_op(op_type, inputs, op_def(op_type).infer(*inputs), name=scope[:-1], unique=False)
    return op.outputs[0]


def _assign_moving_average(shadow, value, decay, debias):
    """shadow -= (shadow - value) * (1 - decay); with `debias` (biased, local_step), Adam's bias correction."""
    graph = shadow.graph
    with graph.name_scope("AssignMovingAvg") as scope:
        one_minus_decay = 1.0 - decay
        if one_minus_decay.dtype != shadow.dtype:
            one_minus_decay = cast(one_minus_decay, shadow.dtype)
        if debias is None:
            return _op_named_like_scope("AssignSub", [shadow, (shadow - value) * one_minus_decay], scope)
        biased, local_step = debias
        new_biased = biased.assign_sub((biased - value) * one_minus_decay)
        step = local_step.assign_add(np.ones((), dtype=local_step.dtype))
        unbiased = new_biased / (1 - pow(1.0 - one_minus_decay, step))
        return _op_named_like_scope("Assign", [shadow, unbiased], scope)


class ExponentialMovingAverage:
    """Keeps shadow = decay * shadow + (1 - decay) * value for each variable or tensor given to apply().

    With num_updates (usually the global step) the decay used is min(decay, (1 + n) / (10 + n)), so averages
    move fast early in training. A Variable's shadow starts at the variable's initial value (the same initial
    value tensor, so global_variables_initializer gives both one draw of a random initializer); a Tensor's
    shadow starts at zero and, with zero_debias=True, is divided by 1 - decay**k after k updates.
    """

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay, self._num_updates, self._zero_debias, self._name = decay, num_updates, zero_debias, name
        self._averages = {}  # the averaged Variable or Tensor -> its shadow Variable
        self._debias = {}  # a Tensor's shadow -> (biased, local_step) variables, with zero_debias

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Create the shadows not made yet and return the op updating every shadow of var_list (default:
        the trainable variables) from its variable's current value."""
        var_list = trainable_variables() if var_list is None else list(var_list)
        for var in var_list:
            if not isinstance(var, Tensor):
                raise TypeError(f"ExponentialMovingAverage.apply takes Variables or Tensors, got {var!r}")
            if var.dtype not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name} is {var.dtype.name}; "
                                "average a tg.cast of it instead")
            if var not in self._averages:
                self._averages[var] = self._create_shadow(var)
        graph = var_list[0].graph if var_list else get_default_graph()
        with graph.as_default(), graph.name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, name="decay")
            if self._num_updates is not None:
                n = cast(self._num_updates, dtypes.float32, name="num_updates")
                decay = minimum(decay, (1.0 + n) / (10.0 + n))
            updates = [_assign_moving_average(self._averages[v], v, decay,
                                              self._debias.get(self._averages[v])) for v in var_list]
            return graph.create_op("NoOp", [], [], name=scope[:-1], unique=False,
                                   control_inputs=[u.op for u in updates])

    def _create_shadow(self, var):
        graph = var.graph
        if var.ndim is None or None in var.shape:
            raise ValueError(f"ExponentialMovingAverage needs a static shape to shadow {var.name!r}, got {var.shape}")
        with graph.as_default(), graph.control_dependencies(None), graph.name_scope(None):
            name = f"{var.op.name}/{self._name}"
            if isinstance(var, Variable):
                shadow = Variable(var.initial_value, trainable=False, name=name)
                graph.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                return shadow
            shadow = Variable(lambda: zeros(var.shape, var.dtype), trainable=False, name=name)
            if self._zero_debias:
                self._debias[shadow] = (
                    Variable(lambda: zeros(var.shape, var.dtype), trainable=False, name=f"{shadow.op.name}/biased"),
                    Variable(np.zeros((), dtype=var.dtype), trainable=False, name=f"{shadow.op.name}/local_step"))
            return shadow

    def average(self, var):
        """The shadow Variable of `var`, or None if apply() was never given `var`."""
        return self._averages.get(var)

    def average_name(self, var):
        """The name `var`'s shadow has (or will have, before apply()): what a Saver restoring averages uses."""
        if var in self._averages:
            return self._averages[var].op.name
        return var.graph.unique_name(f"{var.op.name}/{self._name}", mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """{checkpoint name: variable} loading each averaged variable from its shadow and every other global
        variable from itself: tg.train.Saver(ema.variables_to_restore()) evaluates with the averages."""
        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + moving_average_variables()
        moving_avg_variables = list(dict.fromkeys(moving_avg_variables))
        name_map = {self.average_name(v): v for v in moving_avg_variables}
        averaged = {v.name for v in moving_avg_variables}
        for v in global_variables():
            if v.name not in averaged and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
