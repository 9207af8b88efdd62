"""The hook protocol of MonitoredSession (TF1's tf.train.SessionRunHook and its argument types)."""
import collections


class SessionRunHook:
    """Code run around a MonitoredSession's life and around each of its `run` calls.

    Order: begin() while the graph can still change; after_create_session(session, coord) once the
    variables are initialized or restored; then per run before_run(run_context) -> SessionRunArgs or
    None (extra fetches/feeds merged into that run) and after_run(run_context, run_values); end(session)
    when the monitored session closes without an error.
    """

    def begin(self):
        pass

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        pass

    def end(self, session):
        pass


class SessionRunArgs(collections.namedtuple("SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run: fetches (any structure Session.run takes) and feeds."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run being made (`original_args`), the raw `session`, and a way for a hook to stop the loop."""

    def __init__(self, original_args, session):
        self._original_args, self._session = original_args, session
        self._stop_requested = False

    @property
    def original_args(self):
        return self._original_args

    @property
    def session(self):
        return self._session

    @property
    def stop_requested(self):
        return self._stop_requested

    def request_stop(self):
        """Make MonitoredSession.should_stop() true after this run."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues", ["results", "options", "run_metadata"])):
    """What a hook's fetches returned (`results`, in the structure the hook asked for)."""
