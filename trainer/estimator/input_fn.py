"""From an input_fn to the (features, labels) Tensors and hooks the Estimator builds on (TF1's estimator util).

An input_fn is called with whichever of mode, params and config it declares. It returns (features, labels),
features alone, or a tf.data Dataset, whose iterator's next element is taken: a one-shot iterator, else an
initializable one with a hook that initializes it in the session (TF1's way; each Estimator call builds a new
graph and one session, so the two read the same elements).
"""
import functools
import inspect

from ..train.session_run_hook import SessionRunHook


def fn_args(fn):
    """The names of fn's parameters, less those a functools.partial already binds (TF1's function_utils.fn_args)."""
    if isinstance(fn, functools.partial):
        bound = set(fn.keywords or ())
        return tuple(a for a in fn_args(fn.func)[len(fn.args):] if a not in bound)
    return tuple(inspect.signature(fn).parameters)


def call_input_fn(input_fn, mode, params, config):
    """input_fn(**the arguments among mode, params, config that it declares)."""
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn!r}")
    declared = fn_args(input_fn)
    offered = {"mode": mode, "params": params, "config": config}
    return input_fn(**{k: v for k, v in offered.items() if k in declared})


class _IteratorInitializerHook(SessionRunHook):
    """Runs a Dataset iterator's initializer once each session is created."""

    def __init__(self, iterator):
        self._iterator = iterator

    def after_create_session(self, session, coord):
        session.run(self._iterator.initializer)


def parse_input_fn_result(result):
    """(features, labels, hooks) from what input_fn returned; labels is None when it returned features alone."""
    hooks = []
    if hasattr(result, "make_one_shot_iterator"):
        result = result.make_one_shot_iterator().get_next()
    elif hasattr(result, "make_initializable_iterator"):
        iterator = result.make_initializable_iterator()
        hooks.append(_IteratorInitializerHook(iterator))
        result = iterator.get_next()
    if isinstance(result, (list, tuple)):
        if len(result) != 2:
            raise ValueError(f"input_fn should return (features, labels) as a len 2 tuple, got {len(result)} "
                             f"items: {result!r}")
        return result[0], result[1], hooks
    return result, None, hooks
