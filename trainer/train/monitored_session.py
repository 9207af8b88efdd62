"""tf.train.MonitoredSession: a session that initializes or restores itself and runs hooks around each run.

A run goes through three layers, as in TF1: recovery (MonitoredSession recreates the session after an
AbortedError/UnavailableError), coordination (an exception a thread reported to the Coordinator is raised
in the run), and hooks (their before_run fetches and feeds are merged into the caller's run, their
after_run sees their results). MonitoredTrainingSession adds the chief's standard hooks.
"""
import inspect
import os

from ..client.config import RunMetadata
from ..platform.errors import AbortedError, UnavailableError
from .logger import logger
from .scaffold import Scaffold
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues
from ..framework.graph import get_default_graph
from .session_manager import SessionManager
from .coordinator import Coordinator
from .queue_runner import start_queue_runners
from ..platform.errors import OutOfRangeError
from .summary_and_checkpoint_hooks import CheckpointSaverHook, StepCounterHook, SummarySaverHook

USE_DEFAULT = object()
_PREEMPTION_ERRORS = (AbortedError, UnavailableError)  # a lost worker or server: TF1 recreates the session


def _preemption_errors():
    return _PREEMPTION_ERRORS


class SessionCreator:
    """Makes a tg.Session for a MonitoredSession: override create_session()."""

    def create_session(self):
        raise NotImplementedError(f"{type(self).__name__} must implement create_session()")


class _ScaffoldedCreator(SessionCreator):
    def __init__(self, scaffold, master, config):
        self._scaffold = scaffold or Scaffold()
        self._master, self._config = master, config
        self._session_manager = None

    def _get_session_manager(self):
        if self._session_manager is None:
            s = self._scaffold
            self._session_manager = SessionManager(
                local_init_op=s.local_init_op, local_init_feed_dict=s.local_init_feed_dict, ready_op=s.ready_op,
                ready_for_local_init_op=s.ready_for_local_init_op, graph=get_default_graph())
        return self._session_manager


class ChiefSessionCreator(_ScaffoldedCreator):
    """Restores the latest checkpoint of checkpoint_dir (or the one named), else runs the scaffold's init."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None, checkpoint_filename_with_path=None):
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError(f"Only one of `checkpoint_dir` ({checkpoint_dir!r}) or `checkpoint_filename_with_path` "
                             f"({checkpoint_filename_with_path!r}) should be specified.")
        super().__init__(scaffold, master, config)
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path, config=self._config,
            init_op=self._scaffold.init_op, init_feed_dict=self._scaffold.init_feed_dict,
            init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(_ScaffoldedCreator):
    """Waits (up to max_wait_secs) for a model made ready by the chief; see SessionManager.wait_for_session."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        super().__init__(scaffold, master, config)
        self._max_wait_secs = max_wait_secs

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().wait_for_session(self._master, config=self._config,
                                                            max_wait_secs=self._max_wait_secs)


def _run(sess, fetches, feed_dict, options, run_metadata):
    if options is None and run_metadata is None:
        return sess.run(fetches, feed_dict)
    return sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)


class StepContext:
    """What run_step_fn's step_fn gets: the raw `session`, run_with_hooks(), and request_stop()."""

    def __init__(self, session, run_with_hooks_fn):
        self._session, self._run_with_hooks_fn = session, run_with_hooks_fn

    @property
    def session(self):
        return self._session

    def run_with_hooks(self, *args, **kwargs):
        """Same as MonitoredSession.run."""
        return self._run_with_hooks_fn(*args, **kwargs)

    def request_stop(self):
        """End the training loop: raises StopIteration, which the `with` block of the session swallows."""
        raise StopIteration("step_fn has requested the iterations to stop.")


class _MonitoredSession:
    StepContext = StepContext

    def __init__(self, session_creator, hooks, should_recover, stop_grace_period_secs=120):
        self._graph_was_finalized = getattr(get_default_graph(), "finalized", False)
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._session_creator = session_creator or ChiefSessionCreator()
        self._should_recover = should_recover
        self._stop_grace_period_secs = stop_grace_period_secs
        self._tf_session = self._coord = None
        self._hooks_stop = False
        self._closed = False
        self._create_session()

    def _create_session(self):
        preemptions = _preemption_errors()
        while True:
            try:
                self._tf_session = self._session_creator.create_session()
                break
            except preemptions as exc:
                if not self._should_recover:
                    raise
                logger().info("An error was raised while a session was being created; a new session will be "
                              "created. Error: %s", exc)
        self._coord = Coordinator(clean_stop_exception_types=[])  # nothing is a clean stop inside a run
        self._hooks_stop = False
        start_queue_runners(sess=self._tf_session, coord=self._coord)
        for hook in self._hooks:
            hook.after_create_session(self._tf_session, self._coord)

    @property
    def graph(self):
        return self._tf_session.graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Run `fetches` with the hooks' fetches and feeds merged in; returns the caller's values only."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed MonitoredSession: open a new one to run again")
        while True:
            try:
                if self._tf_session is None:
                    self._create_session()
                return self._hooked_run(fetches, feed_dict, options, run_metadata)
            except _preemption_errors() as exc:
                if not self._should_recover:
                    raise
                logger().info("An error was raised (%s); the session will be closed and a new one created.", exc)
                self._close_session()

    def _hooked_run(self, fetches, feed_dict, options, run_metadata):
        if self._hooks_stop:
            raise RuntimeError("Run called even after should_stop requested.")
        run_context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict), session=self._tf_session)
        actual_fetches = {"caller": fetches}
        hook_feeds = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                actual_fetches[hook] = request.fetches
            if request.feed_dict:
                _raise_if_feeds_intersect(hook_feeds, request.feed_dict, "Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
            if request.options is not None and options is None:
                options = request.options  # no RunOptions fields to merge here: the first hook's options are used
        if hook_feeds and feed_dict:
            _raise_if_feeds_intersect(feed_dict, hook_feeds, "Same tensor is fed by a SessionRunHook and user.")
            hook_feeds.update(feed_dict)
        run_feeds = hook_feeds or feed_dict
        if options is not None and run_metadata is None:  # a hook asked for a trace: give it somewhere to go
            run_metadata = RunMetadata()
        try:
            outputs = _run(self._tf_session, actual_fetches, run_feeds, options, run_metadata)
        except Exception as exc:
            if not isinstance(exc, _preemption_errors()):
                try:  # a preemption a thread reported is the root cause: raise that one instead
                    self._coord.raise_requested_exception()
                except _preemption_errors():
                    raise
                except Exception:  # noqa: BLE001 - the run's own error is the one to report
                    pass
            raise
        for hook in self._hooks:
            hook.after_run(run_context, SessionRunValues(results=outputs.get(hook), options=options,
                                                         run_metadata=run_metadata))
        self._hooks_stop = self._hooks_stop or run_context.stop_requested
        return outputs["caller"]

    def run_step_fn(self, step_fn):
        """Call step_fn(step_context), which runs with or without hooks and may request_stop()."""
        params = tuple(inspect.signature(step_fn).parameters)
        if params != ("step_context",) and params != ("self", "step_context"):
            raise ValueError("`step_fn` may either have one `step_context` argument, or `self` and `step_context` "
                             f"arguments if it's an instance method. Got {params} instead.")
        while True:
            try:
                if self._tf_session is None:
                    self._create_session()
                return step_fn(StepContext(self._tf_session, self._run_with_hooks))
            except _preemption_errors() as exc:
                if not self._should_recover:
                    raise
                logger().info("An error was raised (%s); the session will be closed and step_fn run again in a "
                              "new one.", exc)
                self._close_session()

    def _run_with_hooks(self, fetches, feed_dict=None, options=None, run_metadata=None):
        return self._hooked_run(fetches, feed_dict, options, run_metadata)

    def should_stop(self):
        """True once a hook or the coordinator asked to stop, or the session is closed."""
        if self._closed or self._tf_session is None:
            return True
        try:
            self._coord.raise_requested_exception()
        except _preemption_errors() as exc:
            if not self._should_recover:
                raise
            logger().info("An error was raised while checking whether to stop (%s); creating a new session.", exc)
            self._close_session()
            self._create_session()
            return False
        except Exception:
            if self._should_recover:
                return True  # TF1: a recoverable session answers should_stop() instead of raising
            raise
        return self._coord.should_stop() or self._hooks_stop

    def _close_session(self):
        coord, sess = self._coord, self._tf_session
        self._tf_session = self._coord = None
        if coord is None:
            return
        coord.request_stop()
        try:
            coord.join(stop_grace_period_secs=self._stop_grace_period_secs, ignore_live_threads=True)
        finally:
            try:
                sess.close()
            except Exception:  # noqa: BLE001 - join() already raised what matters
                pass

    def close(self):
        """Call every hook's end() and close the session."""
        self._close_internal()

    def _close_internal(self, exception_type=None):
        try:
            if not exception_type:
                for hook in self._hooks:
                    hook.end(self._tf_session)
        finally:
            try:
                if self._closed:
                    raise RuntimeError("Session is already closed.")
                self._close_session()
            finally:
                self._closed = True
                graph = get_default_graph()
                if not self._graph_was_finalized and hasattr(graph, "_unsafe_unfinalize"):
                    graph._unsafe_unfinalize()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type is not None and issubclass(exception_type, (OutOfRangeError, StopIteration)):
            exception_type = None  # the input is exhausted or step_fn asked to stop: a normal end
        self._close_internal(exception_type)
        return exception_type is None

    def _tf_sess(self):
        return self._tf_session


def _raise_if_feeds_intersect(feeds1, feeds2, message):
    both = set(feeds1) & set(feeds2)
    if both:
        raise RuntimeError(f"{message} Conflict(s): {sorted(getattr(t, 'name', str(t)) for t in both)}")


class MonitoredSession(_MonitoredSession):
    """Initializes or restores through `session_creator` (default ChiefSessionCreator()), runs hooks, and
    recreates the session after AbortedError/UnavailableError."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, should_recover=True, stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A chief MonitoredSession without recovery whose raw tg.Session is raw_session()."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, should_recover=False, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        return self._tf_sess()


def _pick(steps, secs, default_steps, default_secs):
    """TF1's defaults: both unset -> the defaults; one set -> the other is off."""
    if steps is USE_DEFAULT and secs is USE_DEFAULT:
        return default_steps, default_secs
    return (None if steps is USE_DEFAULT else steps), (None if secs is USE_DEFAULT else secs)


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None, hooks=None,  # noqa: N802
                             chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT, save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None, stop_grace_period_secs=120,
                             log_step_count_steps=100, max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None):
    """A MonitoredSession for training: the chief restores from/saves to checkpoint_dir and writes summaries.

    Defaults as TF1: a checkpoint every 600 s, summaries every 100 steps, global_step/sec every 100 steps,
    all into checkpoint_dir (summaries into summary_dir if given). Workers (is_chief=False) get only `hooks`.
    """
    save_summaries_steps, save_summaries_secs = _pick(save_summaries_steps, save_summaries_secs, 100, None)
    save_checkpoint_steps, save_checkpoint_secs = _pick(save_checkpoint_steps, save_checkpoint_secs, None, 600)
    scaffold = scaffold or Scaffold()
    if not is_chief:
        creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config, max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    all_hooks = list(chief_only_hooks or [])
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master, config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                              save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir and ((save_checkpoint_secs and save_checkpoint_secs > 0)
                           or (save_checkpoint_steps and save_checkpoint_steps > 0)):
        all_hooks.append(CheckpointSaverHook(os.fspath(checkpoint_dir), save_steps=save_checkpoint_steps,
                                             save_secs=save_checkpoint_secs, scaffold=scaffold))
    all_hooks += list(hooks or [])
    return MonitoredSession(session_creator=creator, hooks=all_hooks, stop_grace_period_secs=stop_grace_period_secs)
