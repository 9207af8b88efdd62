"""tf.train.QueueRunner, add_queue_runner and start_queue_runners: threads that keep a queue filled.

Each enqueue op of a QueueRunner gets a thread that runs it until the queue is closed (OutOfRangeError from an
exhausted input, as limit_epochs raises); the last thread to end closes the queue, so the consumer drains it and
then sees OutOfRangeError. With a Coordinator, one more thread waits for request_stop() and then closes the queue
cancelling its pending enqueues, which wakes every thread waiting on it; errors go to the coordinator, which
join() raises.
"""
import threading
import weakref

from ..client.session import Session
from ..framework.graph_keys import GraphKeys
from ..framework.graph_wrappers import add_to_collection
from ..framework.stacks import get_default_session
from ..platform.errors import CancelledError, OutOfRangeError
from ..platform.tf_logging import get_logger


class QueueRunner:
    """Holds a queue, the enqueue ops that fill it (one thread each) and the ops that close it."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def is not None:
            raise NotImplementedError("QueueRunner(queue_runner_def=...) is not implemented: build the QueueRunner "
                                      "from its queue and enqueue ops")
        if queue is None or not enqueue_ops:
            raise ValueError(f"QueueRunner needs a queue and a list of enqueue ops, got queue={queue!r}, "
                             f"enqueue_ops={enqueue_ops!r}")
        self._queue, self._enqueue_ops = queue, list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or (OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self):
        """Exceptions the threads raised, when they ran without a coordinator to report them to."""
        return self._exceptions_raised

    @property
    def name(self):
        return self._queue.name

    def feed_fns(self, sess):
        """The override point of a runner whose threads feed their enqueue ops (numpy_input_fn's, as TF's
        FeedingQueueRunner): one function per enqueue op, or None, for the threads create_threads starts in `sess`;
        each run of the op takes the dict its function returns as feed_dict, and OutOfRangeError from the function
        ends the thread as an exhausted input does."""
        return [None] * len(self._enqueue_ops)

    def _run(self, sess, enqueue_op, coord, feed_fn=None):
        decremented = False
        try:
            while not (coord and coord.should_stop()):
                try:
                    sess.run(enqueue_op, None if feed_fn is None else feed_fn())
                except self._queue_closed_exception_types:
                    with self._lock:  # the input ran out: the last thread of this session closes the queue
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            _quietly(sess, self._close_op)
                    return
        except Exception as e:  # noqa: BLE001 - TF1 reports every error to the coordinator
            if coord:
                coord.request_stop(e)
            elif not isinstance(e, CancelledError):  # cancelled: its session closed, nothing went wrong
                get_logger().error("Exception in QueueRunner: %s", e)
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, coord):
        coord.wait_for_stop()
        _quietly(sess, self._cancel_op)

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """One thread per enqueue op (and one closing the queue when `coord` stops), started if `start`; none if
        this runner's threads already run in `sess`."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord, feed_fn), daemon=daemon,
                                    name=f"QueueRunnerThread-{self.name}-{op.name}")
                   for op, feed_fn in zip(self._enqueue_ops, self.feed_fns(sess))]
        if coord:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord), daemon=daemon,
                                            name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for t in threads:
            if coord:
                coord.register_thread(t)
            if start:
                t.start()
        return threads


def _quietly(sess, op):
    try:
        sess.run(op)
    except Exception as e:  # noqa: BLE001 - a session already closed has nothing left to close
        get_logger().debug("Ignored exception: %s", e)


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """Add `qr` to the graph's QUEUE_RUNNERS collection (or `collection`), for start_queue_runners."""
    add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=GraphKeys.QUEUE_RUNNERS):
    """Start the threads of every QueueRunner in `collection` of sess's graph; returns the list of threads."""
    if sess is None:
        sess = get_default_session()
        if sess is None:
            raise ValueError("Cannot start queue runners: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to "
                             "tg.train.start_queue_runners(sess=sess)")
    if not isinstance(sess, Session) and type(sess).__name__ in ("MonitoredSession", "SingularMonitoredSession"):
        return []  # a monitored session starts its queue runners itself (TF1 tells them apart by name too)
    threads = []
    with sess.graph.as_default():
        for runner in sess.graph.get_collection(collection):
            threads.extend(runner.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
