"""A queue's state in one session (TF1's QueueBase kernels): elements, capacity, closing, and waiting with a deadline.

Every queue op of a run asks the session's resources for the queue by its name (QUEUES container), so the
queue lives as long as its session and two sessions on one graph never share one. An element is a tuple of
arrays, one per component. Enqueues wait while the queue is full and dequeues while it holds too few elements,
as TF1's do: forever unless the session gives a deadline (ConfigProto.operation_timeout_in_ms, or the run's
RunOptions.timeout_in_ms), but always in a Condition wait, so Ctrl-C interrupts it, and closing the queue (what
a Coordinator's request_stop does through its QueueRunners) or the session wakes it.
"""
import collections
import heapq
import itertools
import threading
import time

import numpy as np

from ..platform.errors import CancelledError, DeadlineExceededError, InvalidArgumentError, OutOfRangeError

QUEUES = "queues"  # the container of session.resources that holds each queue's state, by its name


class QueueState:
    """The elements of one queue in one session; its kind picks which element a dequeue takes: the oldest (FIFO,
    padding FIFO), one drawn from its generator (RandomShuffleQueue), the smallest priority (PriorityQueue)."""

    def __init__(self, name, kind, capacity, min_after_dequeue=0, rng=None):
        self.name, self.kind, self.capacity = name, kind, capacity
        self.min_after_dequeue, self.rng = min_after_dequeue, rng
        self.closed = self.cancel_enqueues = self.cancelled = False
        self._elements = collections.deque() if kind != "PriorityQueue" else []
        self._ticket = itertools.count()  # a priority queue's ties go in arrival order
        self._cond = threading.Condition()

    def size(self):
        return len(self._elements)

    def enqueue_many(self, elements, deadline):
        """Add `elements` one at a time, each waiting for room, as TF1's enqueue_many does."""
        with self._cond:
            if self.closed:
                raise CancelledError(f"{self.kind} '{self.name}' is closed.")
            for element in elements:
                self._wait(lambda: self.capacity is None or len(self._elements) < self.capacity,
                           deadline, enqueue=True)
                if self.kind == "PriorityQueue":
                    heapq.heappush(self._elements, (int(element[0]), next(self._ticket), element))
                else:
                    self._elements.append(element)
                self._cond.notify_all()

    def dequeue_many(self, n, deadline, up_to=False):
        """`n` elements, waiting for them; once closed, fewer (at least one) with `up_to`, else OutOfRangeError."""
        with self._cond:
            def enough():
                if self.closed:
                    return True
                return len(self._elements) >= n + (self.min_after_dequeue if self.kind == "RandomShuffleQueue" else 0)
            self._wait(enough, deadline)
            count = len(self._elements)
            if count < n and (not up_to or count == 0):
                raise OutOfRangeError(f"{self.kind} '{self.name}' is closed and has insufficient elements "
                                      f"(requested {n}, current size {count})")
            taken = [self._take() for _ in range(min(n, count))]
            self._cond.notify_all()
            return taken

    def _take(self):
        if self.kind == "PriorityQueue":
            return heapq.heappop(self._elements)[2]
        if self.kind == "RandomShuffleQueue":
            i = int(self.rng.integers(len(self._elements)))
            self._elements[i], self._elements[-1] = self._elements[-1], self._elements[i]
            return self._elements.pop()
        return self._elements.popleft()

    def close(self, cancel_pending_enqueues=False):
        """No more enqueues; waiting dequeues take what is left. TF1 cancels waiting enqueues only if asked."""
        with self._cond:
            self.closed = True
            self.cancel_enqueues = self.cancel_enqueues or cancel_pending_enqueues
            self._cond.notify_all()

    def cancel(self):
        """The session closed: every waiting op ends with CancelledError (ResourceMgr calls this)."""
        with self._cond:
            self.cancelled = True
            self._cond.notify_all()

    def _wait(self, ready, deadline, enqueue=False):
        while True:
            if self.cancelled:
                raise CancelledError(f"Session has been closed: {self.kind} '{self.name}' was waiting")
            if enqueue and self.cancel_enqueues:
                raise CancelledError(f"{self.kind} '{self.name}' is closed.")
            if ready():
                return
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise DeadlineExceededError(
                    f"Timed out waiting for {self.kind} '{self.name}' (size {len(self._elements)}, capacity "
                    f"{self.capacity}): the run's deadline passed; is a QueueRunner feeding it "
                    "(tf.train.start_queue_runners)?")
            self._cond.wait(left)


def check_element(queue_op, values, shapes, types, many):
    """The arrays of an enqueue as a list of elements (tuples of arrays of `types`), checked against the queue's
    component shapes."""
    if many and any(np.ndim(v) == 0 for v in values):
        raise InvalidArgumentError(f"enqueue_many to {queue_op!r} needs components with a first (batch) dimension, "
                                   f"got shapes {[np.shape(v) for v in values]}")
    if many and len({len(v) for v in values}) > 1:
        raise InvalidArgumentError(f"enqueue_many to {queue_op!r} needs components of one batch size, got shapes "
                                   f"{[np.shape(v) for v in values]}")
    elements = list(zip(*values)) if many else [tuple(values)]
    for element in elements[:1]:
        for i, (value, shape) in enumerate(zip(element, shapes)):
            if shape is not None and not _fits(shape, np.shape(value)):
                raise InvalidArgumentError(f"Shape mismatch in tuple component {i} of an enqueue to {queue_op!r}: "
                                           f"expected {list(shape)}, got {list(np.shape(value))}")
    types = [np.dtype(t) for t in types]  # a tf.string row is a bytes object: keep it an object array
    return [tuple(np.array(v, dtype=t, copy=True) for v, t in zip(element, types)) for element in elements]


def _fits(shape, actual):
    return len(shape) == len(actual) and all(s is None or s == a for s, a in zip(shape, actual))
