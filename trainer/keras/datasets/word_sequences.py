"""What imdb and reuters do to their word-index sequences (Keras' shared steps): mark starts, shift the indices,
drop long sequences, and replace rare or too-frequent words by the out-of-vocabulary index."""
import json

import numpy as np

from .cache import cached_path


def prepare(sets, num_words=None, skip_top=0, maxlen=None, start_char=1, oov_char=2, index_from=3):
    """[(sequences as lists, labels)] for each (sequences, labels) of `sets` after Keras' steps, in its order; the
    default num_words (the largest index, which itself becomes out-of-vocabulary, as in Keras) is over all sets."""
    out = []
    for xs, labels in sets:
        if start_char is not None:
            xs = [[start_char] + [w + index_from for w in x] for x in xs]
        elif index_from:
            xs = [[w + index_from for w in x] for x in xs]
        if maxlen:
            kept = [i for i, x in enumerate(xs) if len(x) < maxlen]
            xs, labels = [xs[i] for i in kept], labels[kept]
        out.append((xs, labels))
    if maxlen and not all(xs for xs, _ in out):
        raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no sequence was kept. "
                         "Increase maxlen.")
    if not num_words:
        num_words = max(max(x) for xs, _ in out for x in xs if x)
    if oov_char is not None:
        return [([[w if skip_top <= w < num_words else oov_char for w in x] for x in xs], labels) for xs, labels in out]
    return [([[w for w in x if skip_top <= w < num_words] for x in xs], labels) for xs, labels in out]


def as_array(sequences):
    """Sequences of different lengths as Keras returns them: a 1-D object array of lists."""
    out = np.empty(len(sequences), dtype=object)
    out[:] = sequences
    return out


def load_npz(caller, path, names):
    """Arrays of a Keras .npz that holds Python lists (object arrays: Keras loads them with allow_pickle)."""
    with np.load(cached_path(caller, path), allow_pickle=True) as f:
        return [f[n] for n in names]


def word_index(caller, path):
    """{word: index} from Keras' JSON word index (indices before index_from's shift)."""
    with open(cached_path(caller, path)) as f:
        return json.load(f)
