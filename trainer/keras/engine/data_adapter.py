"""What fit, evaluate and predict iterate: numpy arrays cut into batches, or batches drawn from a tf.data Dataset,
a Python generator or a keras Sequence. Each source yields (inputs, targets, sample_weights) as lists of arrays.
"""
import numpy as np

from ...data.dataset import Dataset
from ...framework.tensor import Tensor
from ...platform.errors import OutOfRangeError
from .. import backend as K
from ..utils.data_utils import Sequence


def as_list(data, names, what):
    """Arrays in `names` order from a dict, a list or a single array; None as []."""
    if data is None:
        return []
    if isinstance(data, dict):
        missing = [n for n in names if n not in data]
        if missing:
            raise ValueError(f"No data provided for {missing} in the {what} dict; it has {sorted(data)} and the "
                             f"model's {what}s are {names}")
        return [np.asarray(data[n]) for n in names]
    if isinstance(data, (list, tuple)) and data and len(names) == 1 and isinstance(data[0], (float, int)):
        data = np.asarray(data)  # TF 1.15 reads a flat list of numbers as the single input's samples
    items = [np.asarray(d) for d in data] if isinstance(data, (list, tuple)) else [np.asarray(data)]
    if names and len(items) != len(names):
        raise ValueError(f"Error when checking model {what}: the model expects {len(names)} array(s) "
                         f"{names}, but received {len(items)}")
    return items


def graph_tensors(data):
    """The graph tensors in `data` (a tensor, or a list, tuple or dict holding some), in order."""
    if isinstance(data, Tensor):
        return [data]
    if isinstance(data, dict):
        data = list(data.values())
    if isinstance(data, (list, tuple)):
        return [t for d in data for t in graph_tensors(d)]
    return []


def with_values(data, values):
    """`data` with each graph tensor replaced by its value from `values` (a dict by the tensor's id)."""
    if isinstance(data, Tensor):
        return values[id(data)]
    if isinstance(data, dict):
        return {k: with_values(v, values) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(with_values(d, values) for d in data)
    return data


def tensor_batches(x, y, sample_weight):
    """(x, y, sample_weight) once a step with their graph tensors evaluated together in Keras' session: TF 1.15's
    Keras runs data tensors anew each step, so an iterator's get_next() gives the next batch."""
    tensors = graph_tensors((x, y, sample_weight))
    while True:
        values = dict(zip(map(id, tensors), K.get_session().run(tensors)))
        yield with_values(x, values), with_values(y, values), with_values(sample_weight, values)


def unpack(batch):
    """(x, y, sample_weight) from a batch given as x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(batch, tuple):
        return tuple(batch) + (None,) * (3 - len(batch))
    return batch, None, None


class ArrayBatches:
    """Numpy arrays in batches of `batch_size`, reshuffled each epoch when `shuffle` (True or 'batch')."""

    unit = "sample"

    def __init__(self, arrays, batch_size, shuffle=False, steps=None):
        self.arrays, self.batch_size, self.shuffle = arrays, batch_size or 32, shuffle
        self.size = len(arrays[0][0]) if arrays[0] else 0
        self.steps = steps
        self.target = self.size if steps is None else steps
        self.batches = int(np.ceil(self.size / self.batch_size)) if steps is None else steps

    def epoch(self):
        index = np.arange(self.size)
        if self.shuffle == "batch":
            starts = np.arange(0, self.size, self.batch_size)
            np.random.shuffle(starts)
            index = np.concatenate([index[s:s + self.batch_size] for s in starts]) if self.size else index
        elif self.shuffle:
            np.random.shuffle(index)
        for step in range(self.batches):
            start = (step * self.batch_size) % max(self.size, 1)
            picked = index[start:start + self.batch_size]
            yield [[a[picked] for a in group] for group in self.arrays], len(picked)


class StreamBatches:
    """Batches from a tf.data Dataset (run in Keras' session), a generator or a Sequence: `steps` per epoch, or
    until the source ends (a Dataset or Sequence only)."""

    unit = "step"

    def __init__(self, source, steps, split):
        self.split, self.steps, self.source = split, steps, source
        self.sequence = source if isinstance(source, Sequence) else None
        self.iterator = self.next_element = None
        if isinstance(source, Dataset):
            self.iterator = source.make_initializable_iterator()
            self.next_element = self.iterator.get_next()
            self.started = False
        elif self.sequence is None:
            self.generator = iter(source)
        if steps is None and self.sequence is not None:
            self.steps = len(self.sequence)
        if self.steps is None and self.iterator is None:
            raise ValueError("steps_per_epoch (or steps) is needed when the data is a generator: it has no end to "
                             "say when an epoch is over")
        self.target = self.steps
        self.batches = self.steps

    def peek(self):
        """The first batch of a Dataset, drawn apart from the epochs' iterator: what builds a model that has not
        met data yet (a generator has no first batch to spare; None)."""
        if self.iterator is None:
            return None
        return K.get_session().run(self.source.take(1).make_one_shot_iterator().get_next())

    def draw(self, step):
        if self.sequence is not None:
            return self.sequence[step % len(self.sequence)]
        if self.iterator is not None:
            session = K.get_session()
            if not self.started:
                session.run(self.iterator.initializer)
                self.started = True
            return session.run(self.next_element)
        return next(self.generator)

    def epoch(self):
        step = 0
        while self.steps is None or step < self.steps:
            try:
                batch = self.draw(step)
            except (OutOfRangeError, StopIteration):
                if self.iterator is not None and self.steps is None:
                    self.started = False  # TF1's fit restarts a dataset of unknown length each epoch
                    return
                raise ValueError(f"The data ran out after {step} steps of {self.steps}: make it repeat (a Dataset's "
                                 ".repeat()) or give fewer steps_per_epoch") from None
            arrays = self.split(batch)
            yield arrays, len(arrays[0][0]) if arrays[0] else 0
            step += 1
        if self.sequence is not None:
            self.sequence.on_epoch_end()
