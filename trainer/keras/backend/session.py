"""Keras' session and learning phase, as Keras 2.2.4-tf keeps them in graph mode.

One session for the default graph (the default session when one is entered), whose uninitialized variables are
initialized the first time Keras hands the session out, unless manual_variable_initialization(True); the learning
phase is a boolean placeholder_with_default(False) per graph, in a graph collection, that fit feeds True;
K.function runs in that session.
"""
import contextlib
import weakref

from ...client.session import Session
from ...framework.graph import get_default_graph, reset_default_graph
from ...framework.graph_wrappers import control_dependencies
from ...framework.stacks import get_default_session
from ...framework.tensor import Tensor
from ...ops.array_ops import cast as tf_cast
from ...ops.control_flow_ops import cond
from ...ops.core_ops import group, placeholder_with_default
from ...ops.variables import assign, global_variables, is_variable_initialized, variables_initializer

_SESSION = [None]  # the session Keras made, replaced when the default graph changes (Keras' global _SESSION)
LEARNING_PHASE = "keras_learning_phase"  # the graph collection holding the graph's learning phase
# the graph collection of variables Keras initializes though they are in no global collection (metrics' state)
TRACKED_VARIABLES = "keras_tracked_variables"
KERAS_CONTAINER = "keras"  # the container of session.resources holding Keras' own state for that session
_MANUAL_INIT = [False]
_UIDS = weakref.WeakKeyDictionary()  # graph -> {layer name prefix: how many layers took it}


def get_uid(prefix=""):
    """1, 2, 3, ... per prefix and graph: Keras' layer-name counter."""
    counts = _UIDS.setdefault(get_default_graph(), {})
    counts[prefix] = counts.get(prefix, 0) + 1
    return counts[prefix]


def reset_uids():
    """Restart the layer-name counters of the default graph."""
    _UIDS.pop(get_default_graph(), None)


def manual_variable_initialization(value):
    """True: get_session() leaves variables alone (the caller initializes them)."""
    _MANUAL_INIT[0] = bool(value)


def get_session(op_input_list=()):
    """The session Keras runs in: the default session if one is entered, else Keras' own, made anew when the
    default graph is not its graph; variables it has not seen initialized get initialized now (unless
    manual_variable_initialization(True)). op_input_list (TF 1.15's: tensors that pick the graph) is accepted;
    the default graph is the one used."""
    session = get_default_session()
    if session is None:
        graph = get_default_graph()
        if _SESSION[0] is None or _SESSION[0].graph is not graph:
            _SESSION[0] = Session(graph=graph)
        session = _SESSION[0]
    if not _MANUAL_INIT[0]:
        _initialize_variables(session)
    return session


def track_variable(v):
    """Have get_session() initialize `v` as it initializes the global variables (TF 1.15's K.track_variable)."""
    v.graph.add_to_collection(TRACKED_VARIABLES, v)


def _initialize_variables(session):
    ready = session.resources.lookup_or_create(KERAS_CONTAINER, "initialized_variables", set)
    everything = {id(v): v for v in global_variables() + get_default_graph().get_collection(TRACKED_VARIABLES)}
    candidates = [v for v in everything.values() if v not in ready]
    if not candidates:
        return
    flags = session.run([is_variable_initialized(v) for v in candidates])
    missing = [v for v, ok in zip(candidates, flags) if not ok]
    if missing:
        session.run(variables_initializer(missing))
    ready.update(candidates)


def set_session(session):
    """Make `session` the one Keras uses (while its graph is the default graph)."""
    _SESSION[0] = session


def clear_session():
    """Forget Keras' session and counters and start a new default graph (as Keras does). The session is not
    closed: one given to set_session stays the caller's (tf.test's cached session goes on being used)."""
    _SESSION[0] = None
    _UIDS.pop(get_default_graph(), None)
    reset_default_graph()


def learning_phase():
    """The graph's learning phase: a bool tensor, False unless fed True (fit does), or the value set."""
    graph = get_default_graph()
    if not graph.get_collection(LEARNING_PHASE):
        with graph.name_scope(""):
            graph.add_to_collection(LEARNING_PHASE, placeholder_with_default(False, shape=(),
                                                                             name="keras_learning_phase"))
    return graph.get_collection(LEARNING_PHASE)[-1]


def set_learning_phase(value):
    """Fix the learning phase to 0 (test) or 1 (train) for the layers built from now on."""
    if value not in (0, 1):
        raise ValueError(f"Expected learning phase to be 0 or 1, got {value!r}")
    graph = get_default_graph()
    graph.clear_collection(LEARNING_PHASE)
    graph.add_to_collection(LEARNING_PHASE, value)


@contextlib.contextmanager
def learning_phase_scope(value):
    """Within the block, the learning phase is `value` (0 or 1); the earlier phase comes back after it."""
    graph = get_default_graph()
    earlier = list(graph.get_collection(LEARNING_PHASE))
    set_learning_phase(value)
    try:
        yield value
    finally:
        graph.clear_collection(LEARNING_PHASE)
        for phase in earlier:
            graph.add_to_collection(LEARNING_PHASE, phase)


def in_train_phase(x, alt, training=None):
    """`x` in the training phase, `alt` otherwise (callables or tensors)."""
    training = learning_phase() if training is None else training
    if training is True or training == 1 and not isinstance(training, Tensor):
        return x() if callable(x) else x
    if training is False or training == 0 and not isinstance(training, Tensor):
        return alt() if callable(alt) else alt
    return cond(tf_cast(training, "bool"), x if callable(x) else lambda: x, alt if callable(alt) else lambda: alt)


def in_test_phase(x, alt, training=None):
    """`x` in the test phase, `alt` in training."""
    return in_train_phase(alt, x, training=training)


class Function:
    """K.function's callable: feeds `inputs` with the given arrays, runs `updates` with `outputs`."""

    def __init__(self, inputs, outputs, updates=None, name=None, **session_kwargs):
        self.inputs, self.outputs = list(inputs), list(outputs)
        self.name = name
        with control_dependencies(self.outputs):
            updates = [u if not isinstance(u, tuple) else assign(*u) for u in (updates or [])]
            self.updates_op = group(*updates) if updates else None
        self.feed_dict = dict(session_kwargs.pop("feed_dict", None) or {})
        self.fetches = list(session_kwargs.pop("fetches", None) or [])
        if session_kwargs:
            raise ValueError(f"Invalid argument(s) {sorted(session_kwargs)} passed to K.function; it takes "
                             "inputs, outputs, updates, name, feed_dict and fetches")

    def __call__(self, inputs):
        if len(inputs) != len(self.inputs):
            raise ValueError(f"K.function {self.name or ''} takes {len(self.inputs)} inputs, got {len(inputs)}")
        feed = dict(self.feed_dict)
        for tensor, value in zip(self.inputs, inputs):
            if isinstance(value, Tensor):
                raise ValueError(f"K.function feeds numpy arrays, got the tensor {value.name!r} for "
                                 f"{tensor.name!r}")
            if value is not None:
                feed[tensor] = value
        fetches = self.outputs + ([self.updates_op] if self.updates_op is not None else []) + self.fetches
        values = get_session().run(fetches, feed_dict=feed)
        return values[:len(self.outputs)]


def function(inputs, outputs, updates=None, **kwargs):
    """A callable that runs `outputs` (and `updates`) in Keras' session for a list of input arrays."""
    return Function(inputs, outputs, updates=updates, **kwargs)
