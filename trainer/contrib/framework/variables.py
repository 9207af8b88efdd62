"""tf.contrib.framework's variable helpers: variable, model_variable and the collection queries on them."""
import contextlib

from ...framework.graph_wrappers import device as on_device
from ...framework.graph import get_default_graph
from ...framework.graph_keys import GraphKeys
from ...ops.scopes import VariableScope
from ...ops.variables import get_variable
from .arg_scope import add_arg_scope


@add_arg_scope
def variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True, collections=None,
             caching_device=None, device=None, partitioner=None, custom_getter=None, use_resource=None,
             synchronization=None, aggregation=None):
    """tg.get_variable in the given collections (default: the global variables only)."""
    collections = list(dict.fromkeys(collections if collections is not None else [GraphKeys.GLOBAL_VARIABLES]))
    with on_device(device) if device else contextlib.nullcontext():
        return get_variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                            trainable=trainable, collections=collections, caching_device=caching_device,
                            partitioner=partitioner, custom_getter=custom_getter, use_resource=use_resource)


@add_arg_scope
def model_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True,
                   collections=None, caching_device=None, device=None, partitioner=None, custom_getter=None,
                   use_resource=None, synchronization=None, aggregation=None):
    """A variable also in GraphKeys.MODEL_VARIABLES (and `collections`): what the contrib layers create."""
    collections = list(collections or []) + [GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                    trainable=trainable, collections=collections, caching_device=caching_device, device=device,
                    partitioner=partitioner, custom_getter=custom_getter, use_resource=use_resource)


def get_variables(scope=None, suffix=None, collection=GraphKeys.GLOBAL_VARIABLES):
    """The variables of `collection` whose names match `scope` (a name prefix regex or a VariableScope) and, with
    `suffix`, end in it (e.g. get_variables('fc1', 'weights'))."""
    if isinstance(scope, VariableScope):
        scope = scope.name
    if suffix is not None:
        scope = (scope or "") + ".*" + (suffix if ":" in suffix else suffix + ":")
    return get_default_graph().get_collection(collection, scope)


def get_model_variables(scope=None, suffix=None):
    """get_variables over GraphKeys.MODEL_VARIABLES."""
    return get_variables(scope, suffix, GraphKeys.MODEL_VARIABLES)


def get_local_variables(scope=None, suffix=None):
    """get_variables over GraphKeys.LOCAL_VARIABLES."""
    return get_variables(scope, suffix, GraphKeys.LOCAL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
    """get_variables over GraphKeys.TRAINABLE_VARIABLES."""
    return get_variables(scope, suffix, GraphKeys.TRAINABLE_VARIABLES)


def get_variables_by_name(given_name, scope=None):
    """The global variables whose name ends in `given_name`."""
    return get_variables(scope=scope, suffix=given_name)


def get_variables_by_suffix(suffix, scope=None):
    """The global variables whose name ends in `suffix`."""
    return get_variables(scope=scope, suffix=suffix)


def get_unique_variable(var_op_name):
    """The one global variable whose op is named `var_op_name`."""
    found = [v for v in get_variables(scope=var_op_name) if v.op.name == var_op_name]
    if not found:
        raise ValueError(f"Couldn't find variable {var_op_name!r}")
    if len(found) > 1:
        raise ValueError(f"Variable {var_op_name!r} does not uniquely identify a variable: {found!r}")
    return found[0]


def get_variables_to_restore(include=None, exclude=None):
    """The global variables in an `include` scope (every one if include is None) and in no `exclude` scope."""
    candidates = [v for scope in (include if include is not None else [None]) for v in get_variables(scope)]
    excluded = {id(v) for scope in exclude or [] for v in get_variables(scope)}
    return [v for v in candidates if id(v) not in excluded]
