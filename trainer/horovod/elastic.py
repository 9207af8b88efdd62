"""hvd.elastic's state objects in ringflow's fixed world: training state kept alike on every rank.

A State is synced from rank 0 (sync), saved in host memory (commit) and brought back to the last commit
(restore): ObjectState for Python attributes, TensorFlowState for variables (and attributes),
TensorFlowKerasState for a Keras model and its optimizer. ringflow's ranks are fixed at hvd.init(), so no host is
ever added or removed: check_host_updates never interrupts, and run(func) syncs the state and calls func once (a
failed collective is not retried, since there is no smaller or larger set of ranks to go on with).
"""
import functools

from ..framework.stacks import get_default_session
from ..ops.variables import global_variables
from .basics import rank
from .functions import broadcast_object_fn
from .variables import broadcast_variables


class State:
    """Training state kept alike on every rank; a subclass writes save(), restore() and sync()."""

    def __init__(self, bcast_object, get_rank):
        self._bcast_object, self._rank, self._reset_callbacks = bcast_object, get_rank, []

    def register_reset_callbacks(self, callbacks):
        """Functions to call after the set of ranks changes (which in ringflow it never does)."""
        self._reset_callbacks.extend(callbacks)

    def on_reset(self):
        for callback in self._reset_callbacks:
            callback()

    def commit(self):
        """Save the state in host memory, the point restore() goes back to."""
        self.save()
        self.check_host_updates()

    def check_host_updates(self):
        """Horovod raises HostsUpdatedInterrupt here when hosts joined or left; ringflow's never do."""

    def save(self):
        raise NotImplementedError(f"{type(self).__name__} does not define save(): a State subclass writes save(), "
                                  "restore() and sync()")

    def restore(self):
        raise NotImplementedError(f"{type(self).__name__} does not define restore()")

    def sync(self):
        raise NotImplementedError(f"{type(self).__name__} does not define sync()")


class ObjectState(State):
    """Picklable Python values given as keyword arguments, kept as attributes of the same names."""

    def __init__(self, bcast_object, get_rank, **kwargs):
        super().__init__(bcast_object, get_rank)
        self._saved_state = dict(kwargs)
        self._set_attrs()

    def save(self):
        self._saved_state = {name: getattr(self, name) for name in self._saved_state}

    def restore(self):
        self._set_attrs()

    def sync(self):
        if self._saved_state:
            self._saved_state = self._bcast_object(self._saved_state)
            self._set_attrs()

    def _set_attrs(self):
        for name, value in self._saved_state.items():
            setattr(self, name, value)


class VariablesState(ObjectState):
    """What TensorFlowState and TensorFlowKerasState share: a broadcast op made once (so that repeated syncs add
    no ops), values saved and loaded through a session, keyword attributes as ObjectState's."""

    def __init__(self, variables, session, **kwargs):
        self.session = session
        self._bcast_op = broadcast_variables(variables, root_rank=0)
        self._save_model()
        super().__init__(broadcast_object_fn(session=session), rank, **kwargs)

    def _session(self):
        session = self.session or get_default_session()
        if session is None:
            raise RuntimeError(f"{type(self).__name__} needs a session to read and set its variables: pass "
                               "session=, or use it inside `with session.as_default():`")
        return session

    def save(self):
        self._save_model()
        super().save()

    def restore(self):
        self._load_model()
        super().restore()

    def sync(self):
        self._session().run(self._bcast_op)
        self._save_model()
        super().sync()


class TensorFlowState(VariablesState):
    """`variables` (default: every global variable) and keyword attributes."""

    def __init__(self, variables=None, session=None, **kwargs):
        self.variables = list(variables) if variables is not None else global_variables()
        super().__init__(self.variables, session, **kwargs)

    def _save_model(self):
        self._values = self._session().run(self.variables)

    def _load_model(self):
        for variable, value in zip(self.variables, self._values):
            variable.load(value, self._session())


class TensorFlowKerasState(VariablesState):
    """A built Keras model, its optimizer (default: the model's) and keyword attributes; `backend` (Keras'
    backend) gives the session, else the default session is used."""

    def __init__(self, model, optimizer=None, backend=None, **kwargs):
        if not getattr(model, "built", True):
            raise ValueError(f"Model {model.name!r} must be built first: run `model.build(input_shape)` (or call it "
                             "on data) before making its elastic state")
        self.model, self.optimizer, self.backend = model, optimizer or model.optimizer, backend
        super().__init__(global_variables(), backend.get_session() if backend is not None else None, **kwargs)

    def _save_model(self):
        self._saved_model_state = self.model.get_weights()
        self._saved_optimizer_state = self.optimizer.get_weights()

    def _load_model(self):
        self.model.set_weights(self._saved_model_state)
        self.optimizer.set_weights(self._saved_optimizer_state)


def run(func):
    """Horovod's elastic training loop around func(state, ...): here the state is synced from rank 0 and func runs
    once, since ringflow's ranks never change."""
    @functools.wraps(func)
    def wrapper(state, *args, **kwargs):
        state.sync()
        return func(state, *args, **kwargs)
    return wrapper
