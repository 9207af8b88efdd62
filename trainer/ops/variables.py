"""Variables: tensors whose values live in a Session and persist across runs."""
import enum
import traceback

import numpy as np

from ..framework import dtypes, stacks
from ..platform.errors import FailedPreconditionError
from ..framework.tensor import Tensor
from ..framework.graph import get_default_graph
from .initializers import glorot_uniform_initializer, zeros_initializer
from .core_ops import as_string_array, convert_to_tensor, group
from ..framework.registry import apply_op, register
from ..framework.graph_keys import GraphKeys
from ..framework.meta_graph import VariableDef
from .scopes import AUTO_REUSE, variable_store
from ..framework.tensor_shape import TensorShape

GLOBAL_VARIABLES = GraphKeys.GLOBAL_VARIABLES
TRAINABLE_VARIABLES = GraphKeys.TRAINABLE_VARIABLES


class Variable(Tensor):
    """A variable; its op is a VariableV2 and `initializer` assigns its initial value.

    TF1's signature. caching_device, expected_shape, use_resource, synchronization and aggregation are
    accepted and ignored (one device and one replica per rank); `constraint` is stored for optimizers.
    """

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None, synchronization=None, aggregation=None,
                 shape=None):
        if variable_def is not None:
            raise NotImplementedError("Variable(variable_def=...) builds no new Variable here: a graph's "
                                      "variables come back with tg.train.import_meta_graph; "
                                      "tg.Variable.from_proto(variable_def) finds one there")
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        trainable = True if trainable is None else trainable
        collections = [GraphKeys.GLOBAL_VARIABLES] if collections is None else collections
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError(f"collections argument to Variable constructor must be a list, tuple, or set. "
                             f"Got {collections!r} of type {type(collections).__name__}")
        graph = get_default_graph()
        with graph.name_scope(name or "Variable") as scope:
            if callable(initial_value):
                initial_value = initial_value()
            value = convert_to_tensor(initial_value, dtype=dtype, name="initial_value")
        # The variable op takes its scope's reserved name ("w"), its helpers live under it ("w/Assign").
        op_name = scope[:-1]
        if shape is not None:
            shape = TensorShape(shape)
            if not shape.is_compatible_with(value.shape):
                raise ValueError(f"Variable {op_name!r}: shape {shape} does not fit the initial value's shape "
                                 f"{value.shape}")
        else:
            shape = value.shape if validate_shape else TensorShape(None)
        op = graph.create_op("VariableV2", [], [(shape, value.dtype)], name=op_name, unique=False,
                             attrs={"shape": shape, "dtype": value.dtype})
        super().__init__(op, 0, shape, value.dtype)
        op.outputs = (self,)
        self.initial_value = value
        self.trainable = trainable
        self.constraint = constraint
        with graph.name_scope(op_name + "/"):
            self.initializer = apply_op("Assign", [self, value], name="Assign").op
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = list(collections) + [GraphKeys.TRAINABLE_VARIABLES]
        graph.add_to_collections(collections, self)

    def value(self):
        """The variable's current value (its read is the variable tensor itself)."""
        return self

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """An op setting the variable to `value`; its output is the new value (use_locking is ignored)."""
        return _update("Assign", self, value, name)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """An op adding `delta` to the variable in place."""
        return _update("AssignAdd", self, delta, name)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """An op subtracting `delta` from the variable in place."""
        return _update("AssignSub", self, delta, name)

    def count_up_to(self, limit):
        """An op adding one to the variable and outputting its old value; OutOfRangeError once it reached `limit`."""
        return count_up_to(self, limit)

    def load(self, value, session=None):
        """Write `value` into the variable in `session` (default: the default session) without a graph op."""
        session = stacks.resolve_session(session, self)
        array = np.asarray(value, dtype=self.dtype)
        if self.shape.ndims is not None and not self.shape.is_compatible_with(array.shape):
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
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}_ref>"

    __str__ = __repr__  # TF1's RefVariable prints its repr

    def to_proto(self, export_scope=None):
        """This variable as TF's VariableDef: its ops by name (ringflow reads a variable without a snapshot op)."""
        def strip(name):
            return name[len(export_scope) + 1:] if export_scope and name.startswith(export_scope + "/") else name
        return VariableDef(variable_name=strip(self.name), snapshot_name=strip(self.name),
                           initializer_name=strip(self.initializer.name) if self.initializer is not None else "",
                           initial_value_name=strip(self.initial_value.name) if self.initial_value is not None
                           else "", trainable=bool(self.trainable))

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        """The Variable a VariableDef names in the default graph, its initializer and initial value restored
        (after tg.train.import_meta_graph has rebuilt its ops)."""
        graph = get_default_graph()

        def scoped(name):
            return f"{import_scope}/{name}" if import_scope else name
        var = graph.get_tensor_by_name(scoped(variable_def.variable_name))
        if not isinstance(var, Variable):
            raise ValueError(f"VariableDef names {variable_def.variable_name!r}, which is a {var.op.type} output, "
                             "not a variable: the MetaGraphDef's collection does not match its graph")
        if variable_def.initializer_name:
            var.initializer = graph.get_operation_by_name(scoped(variable_def.initializer_name))
        if variable_def.initial_value_name:
            var.initial_value = graph.get_tensor_by_name(scoped(variable_def.initial_value_name))
        var.trainable = variable_def.trainable
        return var


def imported_variable(graph, name, shape, dtype):
    """The Variable of a VariableV2 node named `name` (absolute) that an imported graph holds; its initializer
    and initial value come from its VariableDef (Variable.from_proto) once the rest of the graph is built."""
    shape = TensorShape(shape)
    op = graph.create_op("VariableV2", [], [(shape, dtype)], name=name, unique=False,
                         attrs={"shape": shape, "dtype": dtype})
    var = Variable.__new__(Variable)
    Tensor.__init__(var, op, 0, shape, dtype)
    op.outputs = (var,)
    var.initial_value = var.initializer = var.constraint = None
    var.trainable = False
    return var


def _update(op_type, ref, value, name):
    # Built in the variable's graph even when another graph is the default (TF1 builds ops in their inputs' graph).
    with ref.graph.as_default():
        return apply_op(op_type, [ref, convert_to_tensor(value, dtype=ref.dtype)], name=name or op_type)


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """An op setting variable `ref` to `value` (use_locking is ignored); its output is the new value."""
    if not isinstance(ref, Variable):
        raise TypeError(f"tg.assign needs a Variable as ref, got {ref!r}")
    return _update("Assign", ref, value, name)


def assign_add(ref, value, use_locking=None, name=None):
    """An op adding `value` to variable `ref` in place."""
    if not isinstance(ref, Variable):
        raise TypeError(f"tg.assign_add needs a Variable as ref, got {ref!r}")
    return _update("AssignAdd", ref, value, name)


def assign_sub(ref, value, use_locking=None, name=None):
    """An op subtracting `value` from variable `ref` in place."""
    if not isinstance(ref, Variable):
        raise TypeError(f"tg.assign_sub needs a Variable as ref, got {ref!r}")
    return _update("AssignSub", ref, value, name)


def count_up_to(ref, limit, name=None):
    """An op adding one to integer variable `ref`, outputting its value before; OutOfRangeError at `limit`."""
    if not isinstance(ref, Variable):
        raise TypeError(f"tg.count_up_to needs a Variable as ref, got {ref!r}")
    with ref.graph.as_default():
        return apply_op("CountUpTo", [ref], name=name or "CountUpTo", limit=int(limit))


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None, collections=None,
                 caching_device=None, partitioner=None, validate_shape=True, use_resource=None, custom_getter=None,
                 constraint=None, synchronization=None, aggregation=None):
    """Get the variable `name` in the current variable scope, or create it (TF1 reuse rules).

    dtype, initializer and regularizer default to the scope's; a new variable's regularizer loss goes to
    the REGULARIZATION_LOSSES collection. caching_device, use_resource, synchronization and aggregation
    are accepted and ignored.
    """
    for arg, value in (("partitioner", partitioner), ("custom_getter", custom_getter)):
        if value is not None:
            raise NotImplementedError(f"get_variable({name!r}, {arg}=...) is not implemented: variables are "
                                      f"never partitioned or created through a custom getter here; pass {arg}=None")
    graph = get_default_graph()
    store = variable_store(graph)
    scope = store.scope
    full = f"{scope.name}/{name}" if scope.name else name
    existing = store.variables.get(full)
    if scope.reuse is True and existing is None:
        raise ValueError(f"Variable {full} does not exist, or was not created with tg.get_variable(). "
                         "Did you mean to set reuse=tg.AUTO_REUSE in VarScope?")
    if existing is not None:
        if scope.reuse is not True and scope.reuse is not AUTO_REUSE:
            where = "".join(traceback.format_list(existing._defined_at)).rstrip()
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set reuse=True or "
                             f"reuse=tg.AUTO_REUSE in VarScope? Originally defined at:\n{where}")
        if shape is not None and not existing.shape.is_compatible_with(shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape {TensorShape(shape)} "
                             f"and found shape {existing.shape}.")
        return existing
    dtype = dtypes.as_dtype(dtype if dtype is not None else scope.dtype)
    initializer = initializer if initializer is not None else scope.initializer
    if initializer is None:
        initializer = glorot_uniform_initializer() if dtype.kind == "f" else zeros_initializer()
    if isinstance(initializer, type):
        initializer = initializer()  # TF1 instantiates an initializer passed as its class (=tf.zeros_initializer)
    if isinstance(initializer, (Tensor, np.ndarray, int, float, list)):
        value = initializer
        if shape is not None and isinstance(initializer, Tensor) and not initializer.shape.is_compatible_with(shape):
            raise ValueError(f"Initializer of shape {initializer.shape} does not fit variable {full} "
                             f"of shape {TensorShape(shape)}")
    else:
        shape = TensorShape(shape)
        if not shape.is_fully_defined():
            raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but got {shape}; "
                             "pass shape=... or an initializer value")
        shape = tuple(shape.as_list())
        value = lambda: initializer(shape, dtype)  # noqa: E731 - built inside the variable's name scope
    with graph.name_scope(None):
        var = Variable(value, name=full, trainable=trainable, collections=collections,
                       validate_shape=validate_shape, constraint=constraint,
                       dtype=dtype if not isinstance(value, Tensor) else None)
        regularizer = regularizer if regularizer is not None else scope.regularizer
        if regularizer is not None:
            with graph.name_scope(var.op.name + "/Regularizer/"):
                loss = regularizer(var)
            if loss is not None:
                graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    var._defined_at = traceback.extract_stack()[:-1][-3:]
    store.variables[full] = var
    return var


def global_variables(scope=None):
    """Every global variable of the default graph, in creation order (names matching `scope` if given)."""
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope=None):
    """The trainable variables of the default graph, in creation order."""
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    """Variables created with collections=[GraphKeys.LOCAL_VARIABLES] (per-process state such as counters)."""
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    """Variables in the MODEL_VARIABLES collection."""
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """An op that runs the initializers of `var_list`."""
    return group(*[v.initializer for v in var_list], name=name)


initialize_variables = variables_initializer  # TF1's deprecated name


class VariableSynchronization(enum.Enum):
    """When a replicated variable's copies agree (TF1's): with one copy per rank and gradients averaged before they
    are applied, every setting gives the same variable here, as in TF1 without a distribution strategy."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How a replicated variable's updates combine (TF1's): without a distribution strategy TF1 applies updates as
    they come whatever is set, and so does ringflow, whose data parallelism averages gradients instead."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3  # TF1's older name, an alias of ONLY_FIRST_REPLICA


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=False,
                       collections=None, **kwargs):
    """get_variable for a local variable: not trainable, in LOCAL_VARIABLES (plus `collections`), not saved."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, regularizer, trainable=False, collections=collections,
                        **kwargs)


def global_variables_initializer():
    """An op that initializes every global variable of the default graph."""
    return variables_initializer(global_variables())


def local_variables_initializer():
    """An op that initializes every local variable of the default graph."""
    return variables_initializer(local_variables())


def _initialized_kernel(op, session):
    store, var = session.variables, op.inputs[0].op
    return lambda: np.bool_(var in store)


def _report_kernel(op, session):
    store, variables = session.variables, op.attrs["var_list"]
    return lambda: as_string_array([v.op.name for v in variables if v.op not in store]).reshape(-1)


def _assert_kernel(op, session):
    store, variables = session.variables, op.attrs["var_list"]

    def check():
        missing = [v.op.name for v in variables if v.op not in store]
        if missing:
            raise FailedPreconditionError(f"Attempting to use uninitialized value(s) {missing!r}: run their "
                                          "initializers (tg.global_variables_initializer()) first")
    return check


register("IsVariableInitialized", kernel=_initialized_kernel, infer=lambda var: [((), dtypes.bool)], ref_inputs=1)
register("ReportUninitializedVariables", kernel=_report_kernel, infer=lambda var_list: [((None,), dtypes.string)])
register("AssertVariablesInitialized", kernel=_assert_kernel, infer=lambda var_list: [])


def is_variable_initialized(variable):
    """A bool tensor: whether `variable` holds a value in the session that runs it."""
    return apply_op("IsVariableInitialized", [variable], name="IsVariableInitialized")


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor of the names of the variables in `var_list` (default: global and local) not yet set."""
    var_list = global_variables() + local_variables() if var_list is None else list(var_list)
    graph = var_list[0].graph if var_list else get_default_graph()
    return graph.create_op("ReportUninitializedVariables", [], [((None,), dtypes.string)], name=name,
                           attrs={"var_list": tuple(var_list)}).outputs[0]


def assert_variables_initialized(var_list=None):
    """An op that fails with FailedPreconditionError if a variable of `var_list` (default: global) is unset."""
    var_list = global_variables() if var_list is None else list(var_list)
    graph = var_list[0].graph if var_list else get_default_graph()
    return graph.create_op("AssertVariablesInitialized", [], [], name="assert_variables_initialized",
                           attrs={"var_list": tuple(var_list)})


# TF1's deprecated spellings, still used by older programs.
all_variables = global_variables
initialize_all_variables = global_variables_initializer
initialize_local_variables = local_variables_initializer
