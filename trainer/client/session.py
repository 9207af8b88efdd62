"""Session: runs fetches from one graph, holding its variables.

A Session caches one Plan (plan.py) per (fetches, feed keys), so a training loop pays for the sort once
and then replays the plan. Control flow asks the session for the sub-plan of a branch or loop body through
`Session.plan`. A cluster runtime serves its own session targets through `register_target` (TF1 picks a
session implementation by target from registered factories the same way); the client never imports it.
"""
import contextlib

from ..framework import stacks
from ..framework.graph import Graph, get_default_graph
from ..platform.errors import FailedPreconditionError
from .devices import default_device_name, device_transfer
from .feed_fetch import flat_feeds, flatten_fetches
from ..platform.heap import keep_freed_memory
from ..ops.kernels.philox import PhiloxStream
from .plan import Plan
from .resource_mgr import ResourceMgr
from .step_stats import recorder_for, recording

TARGETS = {}  # target prefix -> factory(session) returning its plan maker; see register_target
RNG_CONTAINER = "rng"  # the container of session.resources holding each random op's generator, keyed by op
PLAN_LISTENERS = []  # functions told (session, plan) of every Plan a session builds: tools that audit what runs


def register_target(prefix, factory):
    """Serve sessions whose target starts with `prefix`: `factory(session)` runs when such a session is made
    (and may refuse it, raising) and returns `make_plan(plan)`, which turns each Plan the session builds for a
    run into the object the session caches and executes (anything with `execute(feed_values)`)."""
    TARGETS[prefix] = factory


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
    `resources` (a ResourceMgr) is the state kernels keep between runs (random streams, iterators, queues),
    per session as in TF1, cleared on close.
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
        self.device = device or default_device_name()
        self.to_device, self.to_host = device_transfer(self.device)
        self.resources = ResourceMgr()
        self._plans = {}
        self._closed = False
        self._entered = []
        factory = next((f for prefix, f in TARGETS.items() if target.startswith(prefix)), None)
        self._serve = factory(self) if factory is not None else None

    @property
    def sess_str(self):
        return self.target

    @property
    def graph_def(self):
        """The session's graph as a GraphDef (TF1's sess.graph_def)."""
        return self.graph.as_graph_def()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate `fetches` (Tensor, Operation, name, or nested list/tuple/dict of them) as numpy values.

        With `options` (TF1's RunOptions) asking for a trace, the step's statistics are appended to
        `run_metadata.step_stats` (see step_stats.py). Its timeout_in_ms (else the config's
        operation_timeout_in_ms) bounds how long an op of the run waits (a queue's dequeue): then
        DeadlineExceededError, as in TF1.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves, rebuild = flatten_fetches(fetches)
        key = (tuple(leaves), tuple(feed_dict) if feed_dict else ())
        plan = self._plans.get(key)  # a run's feeds as given: plans are cached under them unless one is composite
        if plan is None:
            feed_dict = flat_feeds(feed_dict) if feed_dict else feed_dict
            feed_keys = tuple(feed_dict) if feed_dict else ()
            key = (key[0], feed_keys)
            plan = self._plans.get(key)
        if plan is None:
            if not self.graph.get_operations():
                raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
            plan = self.plan(leaves, feed_keys)
            plan = self._plans[key] = plan if self._serve is None else self._serve(plan)
        feed_values = feed_dict.values() if feed_dict else ()
        recorder = recorder_for(options, run_metadata, self.device) if options is not None else None
        timeout = getattr(options, "timeout_in_ms", 0) or getattr(self.config, "operation_timeout_in_ms", 0)
        if recorder is None and not timeout:
            return rebuild(plan.execute(feed_values))
        with stacks.deadline_in(timeout) if timeout else contextlib.nullcontext():
            if recorder is None:
                return rebuild(plan.execute(feed_values))
            with recording(recorder):
                values = plan.execute(feed_values, recorder)
        recorder.save(run_metadata)
        return rebuild(values)

    def plan(self, fetches, feed_keys=(), branch=None):
        """A new Plan of the ops that produce `fetches` (a list of Tensors/Operations/names) from `feed_keys`;
        `branch`: only the ops of that control-flow body (ops/control_flow_bodies.py asks for these)."""
        plan = Plan(self, fetches, feed_keys, branch)
        for listener in PLAN_LISTENERS:
            listener(self, plan)
        return plan

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
        """The random stream of a random op in this session (TF's Philox generator), seeded from the op's
        (seed, seed2); unseeded ops (both None or 0) draw fresh entropy, as in TF."""
        return self.resources.lookup_or_create(
            RNG_CONTAINER, op, lambda: PhiloxStream(op.attrs.get("seed"), op.attrs.get("seed2")))

    def random_state(self):
        """Every random op's stream position by op name (JSON-able), so checkpoints can resume the streams."""
        return {op.name: stream.state() for op, stream in self.resources.items(RNG_CONTAINER)}

    def set_random_state(self, states):
        """Continue each named random op's stream from a state random_state() returned."""
        for name, state in states.items():
            self.rng(self.graph.get_operation_by_name(name)).set_state(state)

    def close(self):
        self._closed = True
        self.variables = VariableStore()  # let go of them: a target's server may hold them for its other sessions
        self._plans.clear()
        self.resources.clear()

    def as_default(self):
        """Make this the default session for eval()/run() (as in TF1, the default graph stays as it is)."""
        return stacks.pushed(stacks.sessions(), self)

    def __enter__(self):
        """The session becomes the default session and its graph the default graph (TF1)."""
        graph_scope, session_scope = self.graph.as_default(), self.as_default()
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
        self._session_scope = self.as_default()
        self._session_scope.__enter__()

    def close(self):
        if not self._closed:
            self._session_scope.__exit__(None, None, None)
            if self._graph_scope is not None:
                self._graph_scope.__exit__(None, None, None)
        super().close()

