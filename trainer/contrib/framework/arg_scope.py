"""tf.contrib.framework.arg_scope: default keyword arguments for the functions decorated with add_arg_scope.

As in TF1, one stack of scopes per process: each scope maps a decorated function's key (module, name) to the
keyword arguments it fills in; a call's own keyword arguments win over the scope's, inner scopes over outer ones.
"""
import contextlib
import functools
import inspect

_STACK = [{}]
_DECORATED = {}  # key -> the keyword argument names of the decorated function


def arg_scope_func_key(op):
    """The key a decorated function is known by in a scope."""
    return getattr(op, "_key_op", None) or (op.__module__, op.__name__)


def current_arg_scope():
    """The innermost scope: {function key: {argument: value}}."""
    return _STACK[-1]


def has_arg_scope(func):
    """Whether `func` was decorated with add_arg_scope."""
    return arg_scope_func_key(func) in _DECORATED


def arg_scoped_arguments(func):
    """The keyword argument names of a decorated function."""
    if not has_arg_scope(func):
        raise ValueError(f"{func!r} is not decorated with @add_arg_scope")
    return _DECORATED[arg_scope_func_key(func)]


def add_arg_scope(func):
    """Let arg_scope set default keyword arguments of `func`."""
    key = arg_scope_func_key(func)
    _DECORATED[key] = [name for name, p in inspect.signature(func).parameters.items()
                       if p.default is not inspect.Parameter.empty]

    @functools.wraps(func)
    def func_with_args(*args, **kwargs):
        scoped = current_arg_scope().get(key)
        return func(*args, **(dict(scoped, **kwargs) if scoped else kwargs))
    func_with_args._key_op = key
    return func_with_args


@contextlib.contextmanager
def arg_scope(list_ops_or_scope, **kwargs):
    """Within the block, `kwargs` are the defaults of every function in `list_ops_or_scope`; a scope dict that an
    earlier arg_scope yielded re-enters that scope (and then no kwargs may be given)."""
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, kwargs must be empty, "
                             f"got {sorted(kwargs)!r}")
        scope = dict(list_ops_or_scope)
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError(f"list_ops_or_scope must either be a list/tuple or reused scope (i.e. dict), got "
                            f"{list_ops_or_scope!r}")
        scope = dict(current_arg_scope())
        for op in list_ops_or_scope:
            if not has_arg_scope(op):
                raise ValueError(f"{getattr(op, '__name__', op)!r} is not decorated with @add_arg_scope: "
                                 "arg_scope sets the defaults of the contrib layers and of functions decorated so")
            key = arg_scope_func_key(op)
            scope[key] = dict(scope.get(key, {}), **kwargs)
    _STACK.append(scope)
    try:
        yield scope
    finally:
        _STACK.pop()
