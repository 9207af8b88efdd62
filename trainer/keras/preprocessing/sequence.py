"""keras.preprocessing.sequence with keras_preprocessing's semantics: pad_sequences, TimeseriesGenerator,
make_sampling_table and skipgrams (whose draws come from Python's `random`, as Keras' do)."""
import random

import numpy as np

from ...unsupported import missing_names
from ..utils.data_utils import Sequence


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """A (len(sequences), maxlen) array: each sequence cut to maxlen (keeping its end for truncating='pre') and
    filled with `value` before it ('pre', the default) or after it ('post'); maxlen defaults to the longest."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], ()
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {x!r}") from None
        if len(x) and not sample_shape:
            sample_shape = np.asarray(x).shape[1:]
    maxlen = int(np.max(lengths)) if maxlen is None and lengths else (maxlen or 0)
    is_text = np.issubdtype(dtype, np.str_) or np.issubdtype(dtype, np.unicode_) if isinstance(dtype, type) else \
        str(dtype) in ("str", "object")
    if isinstance(value, str) and dtype != object and not is_text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou should set "
                         "`dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:] if maxlen else s[:0]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {trunc.shape[1:]} of sequence at position {i} is different from "
                             f"expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(trunc)] = trunc
        elif padding == "pre":
            out[i, maxlen - len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


def make_sampling_table(size, sampling_factor=1e-5):
    """The probability of keeping the word of each rank (0 .. size - 1) in skipgrams, from Zipf's law, as word2vec
    subsamples frequent words."""
    gamma = 0.577  # Euler-Mascheroni, as Keras rounds it
    rank = np.arange(size)
    rank[0] = 1
    inv_fq = rank * (np.log(rank) + gamma) + 0.5 - 1. / (12. * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1., f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1., shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    """(couples, labels): each [word, context word] pair within window_size labelled 1, and negative_samples times as
    many [word, random word] pairs labelled 0 ([0, 1] and [1, 0] when categorical); word 0 is padding."""
    couples, labels = [], []
    for i, wi in enumerate(sequence):
        if not wi or sampling_table is not None and sampling_table[wi] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)] for i in range(count)]
        labels += [[1, 0] if categorical else 0] * count
    if shuffle:
        seed = random.randint(0, 10e6) if seed is None else seed
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels


class TimeseriesGenerator(Sequence):
    """Batches of (windows of `length` steps of data every sampling_rate steps, the target just after each window),
    windows starting every `stride` steps between start_index and end_index (drawn at random when shuffle)."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0, end_index=None,
                 shuffle=False, reverse=False, batch_size=128):
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while target "
                             f"length is {len(targets)}")
        self.data, self.targets, self.length = data, targets, length
        self.sampling_rate, self.stride = sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is disallowed, "
                             "as no part of the sequence would be left to be used as current step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        return (samples[:, ::-1, ...], targets) if self.reverse else (samples, targets)


__getattr__ = missing_names(__name__, have="tf.keras.preprocessing.sequence has pad_sequences, TimeseriesGenerator, "
                            "make_sampling_table and skipgrams")
