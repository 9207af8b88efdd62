"""The NumpyBatch op: each run returns the next batch of rows of numpy arrays, OutOfRangeError at the end.

It stands where TF1's numpy_input_fn puts a queue fed by a thread: a run reads batch_size rows, and a stream of
num_epochs epochs ends with a short batch, then OutOfRangeError (TF1's dequeue_up_to); endless (num_epochs=None)
batches are always full (dequeue_many). Each session keeps its own place in the stream, as each TF1 session has
its own queue. Shuffling draws a new permutation every epoch from the op's seed (TF1 shuffles in a
RandomShuffleQueue instead: each row is still seen once per epoch, only the order differs).
"""
import numpy as np

from ...platform.errors import OutOfRangeError
from ...framework.graph import get_default_graph
from ...framework.registry import register
from ...framework.random_seed import get_seed

OP_TYPE = "NumpyBatch"


class Columns(tuple):
    """The arrays an op reads, with a short repr (op attrs are printed with the op)."""

    def __repr__(self):
        return f"<{len(self)} numpy arrays of {len(self[0])} rows>"


class _Stream:
    """The row order of one session's reading: epochs of np.arange or of a permutation, one after another."""

    def __init__(self, num_rows, num_epochs, rng):
        self._num_rows, self._num_epochs, self._epochs_left, self._rng = num_rows, num_epochs, num_epochs, rng
        self._order, self._position = np.empty(0, np.int64), 0

    def _next_epoch(self):
        if self._epochs_left is not None:
            if self._epochs_left == 0:
                return False
            self._epochs_left -= 1
        n = self._num_rows
        self._order = self._rng.numpy_generator().permutation(n) if self._rng is not None else np.arange(n)
        self._position = 0
        return True

    def take(self, batch_size):
        """The next batch_size row indices (fewer at the end of the last epoch); OutOfRangeError when none are left."""
        parts, wanted = [], batch_size
        while wanted:
            if self._position == len(self._order) and not self._next_epoch():
                break
            part = self._order[self._position:self._position + wanted]
            self._position += len(part)
            wanted -= len(part)
            parts.append(part)
        if not parts:
            raise OutOfRangeError(f"End of input: each of the {self._num_rows} rows was read num_epochs="
                                  f"{self._num_epochs} time(s); pass num_epochs=None to read forever")
        return np.concatenate(parts)


def _batch_kernel(op, session):
    attrs, to_device = op.attrs, session.to_device
    columns, batch_size = attrs["columns"], attrs["batch_size"]

    def stream():  # the session's place in the rows: a session resource, as TF1's queue is
        rng = session.rng(op) if attrs["shuffle"] else None
        return _Stream(len(columns[0]), attrs["num_epochs"], rng)

    def run():
        rows = session.resources.lookup_or_create(OP_TYPE, op, stream).take(batch_size)
        batch = tuple(to_device(np.ascontiguousarray(column[rows])) for column in columns)
        return batch if len(batch) > 1 else batch[0]  # the session takes a one-output op's value as it is
    return run


register(OP_TYPE, kernel=_batch_kernel, fresh=True)  # built by numpy_batch() with its shapes, never inferred


def numpy_batch(arrays, batch_size, num_epochs, shuffle, name="numpy_batch"):
    """Tensors, one per array of `arrays` (all of equal length), holding the next batch of rows at each run."""
    seed, seed2 = get_seed(None)
    full = num_epochs is None  # endless batches are full: their first dimension is known
    specs = [((batch_size if full else None,) + a.shape[1:], a.dtype) for a in arrays]
    op = get_default_graph().create_op(
        OP_TYPE, [], specs, name=name,
        attrs=dict(columns=Columns(arrays), batch_size=int(batch_size), num_epochs=num_epochs, shuffle=bool(shuffle),
                   seed=seed, seed2=seed2))
    return list(op.outputs)
