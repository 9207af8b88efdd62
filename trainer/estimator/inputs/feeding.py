"""TF1's feeding queue of numpy_input_fn (tensorflow_estimator's feeding_functions.py): a queue of rows, each with
its row number first, filled by queue-runner threads that feed batches of rows to their enqueue ops.

Each thread reads the arrays from row 0 (shuffle: from a random row, into a RandomShuffleQueue that keeps a quarter
of its capacity to mix), enqueue_size rows per run, wrapping around, and stops after num_epochs passes over the
rows, its own passes: with several threads each reads every row num_epochs times, as TF1 warns. The last thread to
stop closes the queue, so its consumer gets the short last batch and then OutOfRangeError. Each session's threads
start from the beginning, as each session has its own queue.
"""
import random

import numpy as np

from ...framework import dtypes
from ...framework.random_seed import get_seed
from ...ops.array_ops import cast
from ...ops.core_ops import placeholder
from ...ops.data_flow_ops import FIFOQueue, RandomShuffleQueue
from ...ops.math_ops import maximum
from ...platform import tf_logging as logging
from ...platform.errors import OutOfRangeError
from ...summary.ops import scalar as summary_scalar
from ...train.queue_runner import QueueRunner, add_queue_runner


def next_batch_indices(start, batch_size, epoch_end, length, epoch, total_epochs):
    """(the row numbers of the next batch, the epochs done after it): batch_size rows from `start`, wrapping, cut
    after the row `epoch_end` that ends the last epoch; OutOfRangeError once total_epochs are done."""
    if total_epochs is not None and epoch >= total_epochs:
        raise OutOfRangeError(f"Already emitted {epoch} epochs.")
    indices = [j % length for j in range(start, start + batch_size)]
    ends = [i for i, row in enumerate(indices) if row == epoch_end]
    epoch += len(ends)
    if total_epochs is None or epoch < total_epochs:
        return indices, epoch
    return indices[:ends[-(epoch - total_epochs + 1)] + 1], total_epochs


class NumpyFeedFn:
    """The feed_dict of one thread's next run: the row numbers and each array's rows for the placeholders."""

    def __init__(self, placeholders, columns, batch_size, random_start=False, seed=None, num_epochs=None):
        self._placeholders, self._columns = placeholders, columns
        self._length, self._batch_size, self._num_epochs = len(columns[0]), batch_size, num_epochs
        self._epoch = 0
        self._next = random.Random(seed).randrange(self._length) if random_start else 0
        self._epoch_end = (self._next - 1) % self._length

    def __call__(self):
        rows, self._epoch = next_batch_indices(self._next, self._batch_size, self._epoch_end, self._length,
                                               self._epoch, self._num_epochs)
        self._next = (rows[-1] + 1) % self._length
        rows = np.asarray(rows, dtype=np.int64)
        return dict(zip(self._placeholders, [rows] + [column[rows] for column in self._columns]))


class FeedingQueueRunner(QueueRunner):
    """A QueueRunner whose threads feed their enqueue ops: `feed_fn_factories`, one per op, each make a new feed
    function for the threads of each session."""

    def __init__(self, queue, enqueue_ops, feed_fn_factories):
        super().__init__(queue, enqueue_ops)
        self._factories = list(feed_fn_factories)

    def feed_fns(self, sess):
        return [make() for make in self._factories]


def enqueue_data(columns, capacity, shuffle, num_threads=1, enqueue_size=1, num_epochs=None):
    """A queue filled with (row number, the rows of each of `columns`), by `num_threads` feeding threads."""
    types = [dtypes.int64] + [dtypes.as_dtype(c.dtype) for c in columns]
    shapes = [()] + [c.shape[1:] for c in columns]
    if num_threads > 1 and num_epochs is not None:
        logging.warning("enqueue_data was called with num_epochs and num_threads > 1. num_epochs is applied per "
                        "thread, so this will produce more epochs than you probably intend. If you want to limit "
                        "epochs, use one thread.")
    if not shuffle and num_threads > 1:
        logging.warning("enqueue_data was called with shuffle=False and num_threads > 1. This will create multiple "
                        "threads, all reading the array/dataframe in order. If you want examples read in order, use "
                        "one thread; if you want multiple threads, enable shuffling.")
    if shuffle:
        min_after_dequeue = int(capacity / 4)
        queue = RandomShuffleQueue(capacity, min_after_dequeue, dtypes=types, shapes=shapes)
    else:
        min_after_dequeue = 0
        queue = FIFOQueue(capacity, dtypes=types, shapes=shapes)
    # TF seeds each thread's random start with nothing (fresh entropy); the graph seed, when set, seeds them here so
    # that a seeded program starts where it started before
    graph_seed, _ = get_seed(None)
    enqueue_ops, factories = [], []
    for i in range(num_threads):
        placeholders = [placeholder(t) for t in types]  # no shapes: a run feeds any number of rows
        enqueue_ops.append(queue.enqueue_many(placeholders))
        seed = None if graph_seed is None else (i + 1) * graph_seed
        factories.append(lambda p=placeholders, s=seed: NumpyFeedFn(p, columns, enqueue_size, shuffle, s,
                                                                    num_epochs))
    add_queue_runner(FeedingQueueRunner(queue, enqueue_ops, factories))
    full = cast(maximum(0, queue.size() - min_after_dequeue), dtypes.float32) * (1.0 / (capacity - min_after_dequeue))
    summary_scalar(f"queue/{queue.name}fraction_over_{min_after_dequeue}_of_{capacity - min_after_dequeue}_full",
                   full)
    return queue
