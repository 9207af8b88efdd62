"""tf.train.Supervisor: TF1's older session manager, with checkpoint and summary services in threads.

managed_session() restores the latest checkpoint of `logdir` (else runs init_op), starts the chief's
services -- a checkpoint every save_model_secs, the summary op and global_step/sec every save_summaries_secs,
each a LooperThread that first acts at once -- and on exit stops them, reports their first error, and
closes the session. The services call the same Session as the training loop from their own thread, as in
TF1: a run only reads variables into fresh arrays, so a checkpoint may hold values from either side of a
concurrent step but never a torn array. As in TF1, checkpoints come only from that timer thread: stop() and
the end of managed_session() do not save, so a restarted job resumes from the last periodic save (a program
that wants its final state kept calls sv.saver.save itself, as the seed notebook's listing does).
"""
import contextlib
import os
import time

from ..framework.graph import get_default_graph
from ..ops.variables import (global_variables, global_variables_initializer, local_variables_initializer,
                             report_uninitialized_variables)
from ..summary.ops import merge_all
from ..summary.protos import SessionLog, Summary
from ..summary.writer import FileWriter
from .coordinator import Coordinator, LooperThread
from .logger import logger
from .saver import Saver
from .scaffold import collection_item_or_default
from .session_manager import SessionManager
from .training_util import GLOBAL_STEP


def _global_step_value(sess, global_step):
    return int(sess.run(global_step))


class Supervisor:
    """Initializes or restores a session and runs the chief's checkpoint and summary services."""

    USE_DEFAULT = 0  # TF1's sentinel value

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT, is_chief=True,
                 init_op=USE_DEFAULT, init_feed_dict=None, local_init_op=USE_DEFAULT, logdir=None,
                 summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120, checkpoint_basename="model.ckpt",
                 session_manager=None, summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        graph = graph if graph is not None else get_default_graph()
        with graph.as_default():
            self._ready_op = _or_default(ready_op, graph, "ready_op", report_uninitialized_variables)
            self._ready_for_local_init_op = _or_default(ready_for_local_init_op, graph, "ready_for_local_init_op",
                                                        lambda: None)
            self._init_op = _or_default(init_op, graph, "init_op", global_variables_initializer)
            self._local_init_op = _or_default(local_init_op, graph, "local_init_op", local_variables_initializer)
            self._saver = _or_default(saver, graph, "savers", lambda: Saver() if global_variables() else None)
            self._summary_op = _or_default(summary_op, graph, "summary_op", merge_all)
            self._global_step = _default_global_step(graph) if global_step is Supervisor.USE_DEFAULT else global_step
        self._graph, self._is_chief, self._init_feed_dict, self._init_fn = graph, is_chief, init_feed_dict, init_fn
        self._coord = Coordinator()
        self._recovery_wait_secs, self._stop_grace_secs = recovery_wait_secs, stop_grace_secs
        self._logdir = self._save_path = self._summary_writer = None
        self._save_summaries_secs = self._save_model_secs = None
        if is_chief:  # only the chief writes checkpoints and events
            self._logdir, self._save_summaries_secs, self._save_model_secs = logdir, save_summaries_secs, save_model_secs
            if logdir:
                self._save_path = os.path.join(logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if logdir:
                    self._summary_writer = FileWriter(logdir)
            else:
                self._summary_writer = summary_writer
        self._graph_added_to_summary = False
        self._session_manager = session_manager or SessionManager(
            local_init_op=self._local_init_op, ready_op=self._ready_op,
            ready_for_local_init_op=self._ready_for_local_init_op, graph=graph,
            recovery_wait_secs=recovery_wait_secs, local_init_run_options=local_init_run_options)
        if hasattr(graph, "finalize"):
            graph.finalize()

    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    def _write_graph(self):
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """Start the chief's checkpoint, summary and step-counter threads; returns them."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because only chief supervisors "
                               "can write events.")
        if not self._logdir:
            logger().warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START),
                                                 _global_step_value(sess, self._global_step))
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(_SummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(_StepCounterThread(self, sess))
        if self._saver and self._save_model_secs:
            threads.append(_CheckpointThread(self, sess))
        for t in threads:
            t.start()
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False, max_wait_secs=7200,
                                    start_standard_services=True):
        """The chief restores from logdir or initializes (and starts services); a worker waits for readiness."""
        self._coord.clear_stop()
        if self._summary_writer and hasattr(self._summary_writer, "reopen"):
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
                init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                logger().info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config, max_wait_secs=max_wait_secs)
        if start_standard_services:
            logger().info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Start the graph's QueueRunners (or `queue_runners`) under this supervisor's coordinator; returns them."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection("queue_runners")
        threads = []
        for runner in queue_runners:
            threads.extend(runner.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread calling target(*args, **kwargs) every timer_interval_secs; returns it."""
        return LooperThread.loop(self._coord, timer_interval_secs, target, args=args, kwargs=kwargs)

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stop the services, raise the first error a thread reported, then close the summary writer.

        No checkpoint is saved here (TF1): the last one is the checkpoint thread's latest."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(SessionLog(status=SessionLog.STOP))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Write a summary (serialized bytes from a summary op, or a Summary) at global_step (default: current)."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer: only the chief with a logdir "
                               "(or an explicit summary_writer) has one")
        if global_step is None and self._global_step is not None:
            global_step = _global_step_value(sess, self._global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True, close_summary_writer=True):
        """A `with` block around a ready session; exceptions stop the services and are raised at exit
        (OutOfRangeError ends the block quietly)."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as exc:  # noqa: BLE001 - handed to the coordinator, which raises it from stop()
            self.request_stop(exc)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    try:
                        sess.close()
                    except Exception:  # noqa: BLE001 - TF1 ignores errors closing the session
                        pass

    # TF1's CamelCase aliases.
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed


def _or_default(value, graph, collection, make):
    """value, unless USE_DEFAULT: then the collection's first item, else make() (added to the collection)."""
    if value is not Supervisor.USE_DEFAULT:
        return value

    def first(items):
        logger().info("Found %d %s operations. Returning the first one.", len(items), collection)
        return items[0]
    return collection_item_or_default(graph, collection, make, first)


def _default_global_step(graph):
    """The tensor "global_step:0" if the graph has an integer one (TF1's lookup by name), else None."""
    try:
        step = graph.get_tensor_by_name("global_step:0")
    except (KeyError, ValueError):
        return None
    if step.dtype.kind not in "iu":
        logger().warning("Found 'global_step' is not an int type: %s", step.dtype)
        return None
    if step not in graph.get_collection(GLOBAL_STEP):
        graph.add_to_collection(GLOBAL_STEP, step)
    return step


class _CheckpointThread(LooperThread):
    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        logger().info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            self._sv.summary_writer.add_session_log(
                SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._sv.save_path),
                _global_step_value(self._sess, self._sv.global_step))


class _SummaryThread(LooperThread):
    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        logger().info("Recording summary at step %s.", step)
        self._sv.summary_writer.add_summary(summary, step)


class _StepCounterThread(LooperThread):
    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess
        self._tag = f"{sv.global_step.op.name}/sec"
        self._logged = 0

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = _global_step_value(self._sess, self._sv.global_step)

    def run_loop(self):
        step = _global_step_value(self._sess, self._sv.global_step)
        now = time.time()
        elapsed = now - self._last_time
        rate = (step - self._last_step) / elapsed if elapsed > 0 else float("inf")
        self._last_step, self._last_time = step, now
        self._sv.summary_writer.add_summary(Summary(value=[Summary.Value(tag=self._tag, simple_value=rate)]), step)
        if self._logged < 10:  # TF1 logs the first 10 rates only
            self._logged += 1
            logger().info("%s: %g", self._tag, rate)
