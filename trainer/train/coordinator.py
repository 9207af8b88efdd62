"""tf.train.Coordinator and LooperThread: threads that stop together and report the first error.

A thread's exception is kept by the coordinator (`request_stop(ex)`) and raised again in the thread that
calls `join()`, so a failing background service ends the training loop instead of dying silently.
"""
import contextlib
import sys
import threading
import time

from .logger import logger
from ..platform.errors import OutOfRangeError


class Coordinator:
    """A stop flag shared by threads, the first exception they reported, and `join()` to wait for them."""

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filter_exception(self, ex):
        error = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(error, self._clean_stop_exception_types) else ex

    def request_stop(self, ex=None):
        """Ask every thread to stop; `ex` (an exception or sys.exc_info()) is kept for join() to raise.

        Exceptions of the clean-stop types (OutOfRangeError by default: the input is exhausted) stop
        without being an error. After join(), a reported exception is raised here at once.
        """
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    raise ex[1].with_traceback(ex[2])
                if ex is not None:
                    raise ex
            if self._stop_event.is_set():
                return
            if ex is not None and self._exc_info_to_raise is None:
                if isinstance(ex, tuple):
                    logger().info("Error reported to Coordinator: %s", ex[1])
                    self._exc_info_to_raise = ex
                else:
                    logger().info("Error reported to Coordinator: %s, %s", type(ex), ex)
                    info = sys.exc_info()
                    self._exc_info_to_raise = info if info[1] is ex else (type(ex), ex, ex.__traceback__)
            self._stop_event.set()

    def clear_stop(self):
        """Forget the stop request and any reported exception, so threads can run again."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Report any exception raised in the block to request_stop() instead of letting it escape."""
        try:
            yield
        except BaseException:  # noqa: B036 - TF1 reports everything, SystemExit included
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Block until a stop is requested or `timeout` seconds pass; True if a stop was requested."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for the threads (and the registered ones) to end, then raise the first reported exception.

        Once a stop is requested, threads get `stop_grace_period_secs` to finish; those still alive after
        it raise RuntimeError naming them, unless `ignore_live_threads`.
        """
        with self._lock:
            threads = list(self._registered_threads.union(threads or ()))
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        pause = 0.001  # doubles up to the time left, so quick threads cost little and slow ones no spin
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(pause)
            stop_grace_period_secs -= pause
            pause = max(min(2 * pause, stop_grace_period_secs), 0.001)
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])
            if stragglers:
                if not ignore_live_threads:
                    raise RuntimeError("Coordinator stopped with threads still running: " + " ".join(stragglers))
                logger().info("Coordinator stopped with threads still running: %s", " ".join(stragglers))

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Raise the exception reported to request_stop(), if any."""
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])


class LooperThread(threading.Thread):
    """A daemon thread calling `target` (or run_loop) every `timer_interval_secs` until the coordinator stops.

    With an interval the first call is immediate; with None the loop runs back to back. Exceptions go to
    the coordinator.
    """

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' must be a tg.train.Coordinator, got {coord!r}")
        super().__init__(daemon=True)
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        self._args, self._kwargs = args or (), kwargs or {}
        coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread calling `target(*args, **kwargs)` and return it."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(next_time - time.time()):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        """Override point: called once in the thread before the loop."""

    def stop_loop(self):
        """Override point: called once in the thread after the loop."""

    def run_loop(self):
        """Override point: one iteration; calls `target` by default."""
        if self._target:
            self._target(*self._args, **self._kwargs)
