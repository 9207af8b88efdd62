"""TF 1.15's test-mode decorators (test_util.run_deprecated_v1, run_in_graph_and_eager_modes, ...). Graph mode is
ringflow's only mode: each decorated test runs once, in graph mode, as it would under TF1 with eager off."""
import functools
import inspect
import unittest


def _method_or_decorator(func, decorator):
    """`@deco` and `@deco()` both work, as TF's decorators allow."""
    return decorator if func is None else decorator(func)


def run_deprecated_v1(func=None):
    """Runs the test method in graph mode (it always is here)."""
    def decorator(f):
        if inspect.isclass(f):
            raise ValueError(f"`run_deprecated_v1` only supports test methods, not the class {f.__name__!r}")
        return f
    return _method_or_decorator(func, decorator)


def deprecated_graph_mode_only(func=None):
    """Runs the test method, or every test of the class, in graph mode (it always is here)."""
    return _method_or_decorator(func, lambda f: f)


def run_v1_only(reason, func=None):
    """Runs the test only under TF1 behaviour, which is ringflow's; `reason` says why it is TF1-only."""
    if not isinstance(reason, str):
        raise ValueError(f"`reason` has to be a string, got {reason!r}")
    return _method_or_decorator(func, lambda f: f)


def run_in_graph_and_eager_modes(func=None, config=None, use_gpu=True, reset_test=True,
                                 assert_no_eager_garbage=False):
    """Runs the test method inside `self.test_session(use_gpu=use_gpu, config=config)`, TF's graph-mode pass
    (the eager pass has no counterpart here)."""
    def decorator(f):
        if inspect.isclass(f):
            raise ValueError("`run_in_graph_and_eager_modes` only supports test methods; use "
                             f"`run_all_in_graph_and_eager_modes` for the class {f.__name__!r}")

        @functools.wraps(f)
        def decorated(self, *args, **kwargs):
            with self.test_session(use_gpu=use_gpu, config=config):
                return f(self, *args, **kwargs)
        return decorated
    return _method_or_decorator(func, decorator)


def run_all_in_graph_and_eager_modes(cls):
    """run_in_graph_and_eager_modes on every test method of the class."""
    for name, value in list(vars(cls).items()):
        if name.startswith("test") and callable(value) and name != "test_session":
            setattr(cls, name, run_in_graph_and_eager_modes(value))
    return cls


def also_run_as_tf_function(f):
    """Runs the test once, in graph mode: the tf.function pass has no counterpart here."""
    return f


def disable_xla(description):
    """Runs the test as it is: there is no XLA to disable (`description` says why the test avoids it)."""
    return lambda f: f


def run_v2_only(func=None):
    """Skips the test: it checks TF2 behaviour, and ringflow's is TF1's."""
    return _method_or_decorator(func, unittest.skip("a TF2-only test: ringflow has TF1 behaviour only"))


def for_all_test_methods(decorator, *args, **kwargs):
    """A class decorator applying decorator(*args, **kwargs) to every test method of the class."""
    def decorate(cls):
        for name, value in list(vars(cls).items()):
            if name.startswith("test") and callable(value) and name != "test_session":
                setattr(cls, name, decorator(*args, **kwargs)(value))
        return cls
    return decorate


def disable_with_predicate(pred, skip_message):
    """A test-method decorator that skips the test (saying `skip_message`) when pred() is true at its run."""
    def decorator(func):
        @functools.wraps(func)
        def decorated(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return decorated
    return decorator


def with_eager_op_as_function(cls=None, only_as_function=False):
    """The class as it is: its tests run in graph mode, and the eager op-as-function variants TF adds have no
    counterpart here."""
    del only_as_function
    return _method_or_decorator(cls, lambda c: c)
