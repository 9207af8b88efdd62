"""tf.keras.datasets.reuters: 11,228 newswires as word-index sequences in 46 topics, from
~/.keras/datasets/reuters.npz (and reuters_word_index.json for get_word_index)."""
import numpy as np

from .word_sequences import as_array, load_npz, prepare, word_index

_WHERE = "tf.keras.datasets.reuters.load_data"


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113, start_char=1,
              oov_char=2, index_from=3, **kwargs):
    """((x_train, y_train), (x_test, y_test)): the wires shuffled by `seed`, the last test_split of them for
    testing, as Keras splits them."""
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {sorted(kwargs)}")
    xs, labels = load_npz(_WHERE, path, ("x", "y"))
    indices = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(indices)
    [(xs, labels)] = prepare([(list(xs[indices]), labels[indices])], num_words, skip_top, maxlen, start_char,
                             oov_char, index_from)
    cut = int(len(xs) * (1 - test_split))
    return (as_array(xs[:cut]), np.asarray(labels[:cut])), (as_array(xs[cut:]), np.asarray(labels[cut:]))


def get_word_index(path="reuters_word_index.json"):
    """{word: index} of the wires' words (add index_from to match load_data's sequences)."""
    return word_index("tf.keras.datasets.reuters.get_word_index", path)
