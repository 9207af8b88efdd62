"""Session: runs fetches from one graph, holding its variables; the default-session stack.

A Session caches one Plan (plan.py) per (fetches, feed keys), so a training loop pays for the sort once
and then replays the plan. Feeds and fetches (feed_fetch.py), buffer reuse (buffer_reuse.py) and devices
(devices.py) live in their own modules; their names stay importable from here.
"""
import threading

import numpy as np

from .devices import device_transfer
from .errors import FailedPreconditionError
from .feed_fetch import flatten_fetches as _flatten
from .graph import Graph, Operation, Tensor, format_shape, get_default_graph  # noqa: F401
from .heap import keep_freed_memory
from .plan import Plan

# Re-exported under their old names: code and tests import these from trainer.session.
from .buffer_reuse import donate_buffers as _donate_buffers  # noqa: F401
from .buffer_reuse import write_into_destinations as _write_into_destinations  # noqa: F401
from .devices import _DEVICES, _gpu_setup, _same, _to_gpu, _to_host, register_device  # noqa: F401
from .devices import device_transfer as _device_transfer  # noqa: F401
from .feed_fetch import aliases_state as _aliases_state, feed_check as _feed_check  # noqa: F401
from .feed_fetch import fetch_post as _fetch_post  # noqa: F401
from .plan import _as_is, _controls_within, _copy, _element, _name_the_op, _topological_order  # noqa: F401

class VariableStore(dict):
    """Variable op -> its current array; reading a missing one names the uninitialized variable."""

    def __missing__(self, op):
        raise FailedPreconditionError(
            f"Attempting to use uninitialized value {op.name!r}: run tg.global_variables_initializer() "
            f"(or {op.name}.initializer) in this session first")


class Session:
    """Runs fetches from one graph; holds the values of its variables.

    TF1's arguments are (target, graph, config); `Session(g)` with a Graph first is taken as graph=g.
    `target` (a cluster address) and `config` (a ConfigProto) are stored for the cluster code; `device`
    ("cpu", "gpu", or a name given to register_device) is where this rank runs the whole graph: feeds,
    constants and variables go there through `to_device`, fetches come back through `to_host` at the end.
    """

    def __init__(self, target="", graph=None, config=None, device=None):
        if isinstance(target, Graph):
            target, graph = "", target
        if not isinstance(target, str):
            raise TypeError(f"Session's first argument is the target string (TF1's order is target, graph, "
                            f"config), got {target!r}; pass graph=... by keyword")
        self.target, self.config = target, config
        keep_freed_memory()
        self.graph = graph if graph is not None else get_default_graph()
        self.variables = VariableStore()
        self.device = device or "cpu"
        self.to_device, self.to_host = device_transfer(self.device)
        self._rngs = {}
        self._plans = {}
        self._closed = False
        self._entered = []
        if target.startswith("mpi://"):  # a worker of a tg.train.Server cluster: ps variables stay on the ps
            from .cluster import attach
            attach(self)

    @property
    def sess_str(self):
        return self.target

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate `fetches` (Tensor, Operation, name, or nested list/tuple/dict of them) as numpy values.

        `options` and `run_metadata` (TF1's RunOptions/RunMetadata) are accepted and ignored.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves, rebuild = _flatten(fetches)
        feed_keys = tuple(feed_dict) if feed_dict else ()
        key = (tuple(leaves), feed_keys)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = Plan(self, leaves, feed_keys)
        values = plan.execute(feed_dict.values() if feed_dict else ())
        return rebuild(values)

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function of the values for `feed_list` that runs `fetches` (TF1's Session.make_callable)."""
        feed_list = list(feed_list or ())

        def call(*feed_values, **options):
            if len(feed_values) != len(feed_list):
                raise ValueError(f"This callable takes {len(feed_list)} feed value(s) for {feed_list!r}, "
                                 f"got {len(feed_values)}")
            return self.run(fetches, dict(zip(feed_list, feed_values)) or None)
        return call

    def partial_run_setup(self, fetches, feeds=None):
        raise NotImplementedError("Session.partial_run_setup is not implemented: run the whole step with "
                                  "Session.run, feeding every placeholder it needs")

    def partial_run(self, handle, fetches, feed_dict=None):
        raise NotImplementedError("Session.partial_run is not implemented: run the whole step with "
                                  "Session.run, feeding every placeholder it needs")

    def rng(self, op):
        """The random generator of a random op in this session, seeded from the op's (seed, seed2)."""
        if op not in self._rngs:
            seed, seed2 = op.attrs.get("seed"), op.attrs.get("seed2")
            entropy = None if seed is None else [seed, seed2]
            self._rngs[op] = np.random.default_rng(np.random.SeedSequence(entropy))
        return self._rngs[op]

    def random_state(self):
        """Every random op's generator state by op name (JSON-able), so checkpoints can resume the streams."""
        return {op.name: rng.bit_generator.state for op, rng in self._rngs.items()}

    def set_random_state(self, states):
        """Continue each named random op's stream from a state random_state() returned."""
        for name, state in states.items():
            self.rng(self.graph.get_operation_by_name(name)).bit_generator.state = state

    def close(self):
        self._closed = True
        self.variables.clear()
        self._plans.clear()

    def as_default(self):
        """Make this the default session for eval()/run() (as in TF1, the default graph stays as it is)."""
        return _DefaultSession(self)

    def __enter__(self):
        """The session becomes the default session and its graph the default graph (TF1)."""
        graph_scope, session_scope = self.graph.as_default(), _DefaultSession(self)
        graph_scope.__enter__()
        session_scope.__enter__()
        self._entered.append((graph_scope, session_scope))
        return self

    def __exit__(self, *exc):
        graph_scope, session_scope = self._entered.pop()
        session_scope.__exit__(*exc)
        graph_scope.__exit__(*exc)
        self.close()


class InteractiveSession(Session):
    """A Session that makes itself (and its graph, if one is given) the default until close() (TF1)."""

    def __init__(self, target="", graph=None, config=None, device=None):
        super().__init__(target, graph, config, device)
        self._graph_scope = self.graph.as_default() if graph is not None else None
        if self._graph_scope is not None:
            self._graph_scope.__enter__()
        self._session_scope = _DefaultSession(self)
        self._session_scope.__enter__()

    def close(self):
        if not self._closed:
            self._session_scope.__exit__(None, None, None)
            if self._graph_scope is not None:
                self._graph_scope.__exit__(None, None, None)
        super().close()


_local = threading.local()


class _DefaultSession:
    def __init__(self, session):
        self.session = session

    def __enter__(self):
        if not hasattr(_local, "stack"):
            _local.stack = []
        _local.stack.append(self.session)
        return self.session

    def __exit__(self, *exc):
        stack = _local.stack
        # An InteractiveSession may close out of nesting order: remove this session's own entry.
        del stack[max(i for i, s in enumerate(stack) if s is self.session)]


def get_default_session():
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


def resolve_session(session, element):
    """`session`, else the default session; it must hold `element`'s graph."""
    session = session or get_default_session()
    if session is None:
        raise ValueError(f"Cannot evaluate {element.name!r}: no default session is registered. Use "
                         "`with tg.Session() as sess:` or pass session=sess")
    if element.graph is not session.graph:
        raise ValueError(f"Cannot evaluate {element.name!r}: its graph is not the session's graph")
    return session
