"""Variables: tensors whose values live in a Session and persist across runs."""
import traceback

import numpy as np

from . import dtypes
from .graph import Tensor, get_default_graph
from .initializers import glorot_uniform_initializer, zeros_initializer
from .ops.core_ops import convert_to_tensor, group
from .ops.registry import apply_op
from .scopes import AUTO_REUSE

GLOBAL_VARIABLES = "variables"
TRAINABLE_VARIABLES = "trainable_variables"


class Variable(Tensor):
    """A variable; its op is a VariableV2 and `initializer` assigns its initial value."""

    def __init__(self, initial_value, name=None, trainable=True, dtype=None, _shape=None):
        graph = get_default_graph()
        with graph.name_scope(name or "Variable") as scope:
            if callable(initial_value):
                initial_value = initial_value()
            value = convert_to_tensor(initial_value, dtype=dtype, name="initial_value")
        # The variable op takes its scope's reserved name ("w"), its helpers live under it ("w/Assign").
        op_name = scope[:-1]
        shape = value.shape if _shape is None else tuple(_shape)
        op = graph.create_op("VariableV2", [], [(shape, value.dtype)], name=op_name, unique=False,
                             attrs={"shape": shape, "dtype": value.dtype})
        super().__init__(op, 0, shape, value.dtype)
        op.outputs = (self,)
        self.initial_value = value
        self.trainable = trainable
        with graph.name_scope(op_name + "/"):
            self.initializer = apply_op("Assign", [self, value], name="Assign").op
        graph.add_to_collection(GLOBAL_VARIABLES, self)
        if trainable:
            graph.add_to_collection(TRAINABLE_VARIABLES, self)

    def assign(self, value, name=None):
        """An op setting the variable to `value`; its output is the new value."""
        return apply_op("Assign", [self, convert_to_tensor(value, dtype=self.dtype)], name=name or "Assign")

    def assign_add(self, delta, name=None):
        """An op adding `delta` to the variable in place."""
        return apply_op("AssignAdd", [self, convert_to_tensor(delta, dtype=self.dtype)], name=name or "AssignAdd")

    def assign_sub(self, delta, name=None):
        """An op subtracting `delta` from the variable in place."""
        return apply_op("AssignSub", [self, convert_to_tensor(delta, dtype=self.dtype)], name=name or "AssignSub")

    def load(self, value, session=None):
        """Write `value` into the variable in `session` (default: the default session) without a graph op."""
        from .session import resolve_session
        session = resolve_session(session, self)
        array = np.asarray(value, dtype=self.dtype)
        if self.shape is not None and array.shape != self.shape:
            raise ValueError(f"Cannot load a value of shape {array.shape} into variable {self.name!r} "
                             f"of shape {self.shape}")
        current = session.variables.get(self.op)
        if current is not None and current.shape == array.shape:
            current[...] = session.to_device(array)
        else:
            session.variables[self.op] = session.to_device(array.copy())

    def read_value(self):
        return self

    def __repr__(self):
        shape = "<unknown>" if self.shape is None else self.shape
        return f"<tg.Variable '{self.name}' shape={shape} dtype={self.dtype.name}>"


def get_variable(name, shape=None, dtype=dtypes.float32, initializer=None, trainable=True):
    """Get the variable `name` in the current variable scope, or create it (TF1 reuse rules)."""
    graph = get_default_graph()
    scope = graph._var_scope
    full = f"{scope.name}/{name}" if scope.name else name
    existing = graph._var_store.get(full)
    if scope.reuse is True and existing is None:
        raise ValueError(f"Variable {full} does not exist, or was not created with tg.get_variable(). "
                         "Did you mean to set reuse=tg.AUTO_REUSE in VarScope?")
    if existing is not None:
        if scope.reuse is not True and scope.reuse is not AUTO_REUSE:
            where = "".join(traceback.format_list(existing._defined_at)).rstrip()
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set reuse=True or "
                             f"reuse=tg.AUTO_REUSE in VarScope? Originally defined at:\n{where}")
        if shape is not None and existing.shape is not None and tuple(shape) != existing.shape:
            raise ValueError(f"Trying to share variable {full}, but specified shape {tuple(shape)} "
                             f"and found shape {existing.shape}.")
        return existing
    dtype = dtypes.as_dtype(dtype)
    initializer = initializer if initializer is not None else scope.initializer
    if initializer is None:
        initializer = glorot_uniform_initializer() if dtype.kind == "f" else zeros_initializer()
    if isinstance(initializer, (Tensor, np.ndarray, int, float, list)):
        value = initializer
        if shape is not None and isinstance(initializer, Tensor) and initializer.shape != tuple(shape):
            raise ValueError(f"Initializer of shape {initializer.shape} does not fit variable {full} "
                             f"of shape {tuple(shape)}")
    else:
        if shape is None:
            raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but got None; "
                             "pass shape=... or an initializer value")
        shape = tuple(int(d) for d in shape)
        value = lambda: initializer(shape, dtype)  # noqa: E731 - built inside the variable's name scope
    with graph.name_scope(None):
        var = Variable(value, name=full, trainable=trainable, dtype=dtype if not isinstance(value, Tensor) else None)
    var._defined_at = traceback.extract_stack()[:-1][-3:]
    graph._var_store[full] = var
    return var


def global_variables():
    """Every variable of the default graph, in creation order."""
    return get_default_graph().get_collection(GLOBAL_VARIABLES)


def trainable_variables():
    """The trainable variables of the default graph, in creation order."""
    return get_default_graph().get_collection(TRAINABLE_VARIABLES)


def variables_initializer(var_list, name="init"):
    """An op that runs the initializers of `var_list`."""
    return group(*[v.initializer for v in var_list], name=name)


def global_variables_initializer():
    """An op that initializes every global variable of the default graph."""
    return variables_initializer(global_variables())
