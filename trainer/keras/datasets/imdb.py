"""tf.keras.datasets.imdb: 50,000 movie reviews as word-index sequences with binary sentiment labels, from
~/.keras/datasets/imdb.npz (and imdb_word_index.json for get_word_index)."""
import numpy as np

from .word_sequences import as_array, load_npz, prepare, word_index

_WHERE = "tf.keras.datasets.imdb.load_data"


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2,
              index_from=3, **kwargs):
    """((x_train, y_train), (x_test, y_test)), each set shuffled by `seed` as Keras shuffles it; maxlen drops
    the longer sequences from each set on its own (TF 1.15 filtered both together, then split at the old train
    length, mixing test reviews into the training set)."""
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {sorted(kwargs)}")
    x_train, y_train, x_test, y_test = load_npz(_WHERE, path, ("x_train", "y_train", "x_test", "y_test"))
    rng = np.random.RandomState(seed)  # the permutations np.random.seed(seed); np.random.shuffle give Keras
    sets = []
    for xs, labels in ((x_train, y_train), (x_test, y_test)):
        indices = np.arange(len(xs))
        rng.shuffle(indices)
        sets.append((list(xs[indices]), labels[indices]))
    prepared = prepare(sets, num_words, skip_top, maxlen, start_char, oov_char, index_from)
    return tuple((as_array(xs), np.asarray(labels)) for xs, labels in prepared)

def get_word_index(path="imdb_word_index.json"):
    """{word: index} of the reviews' words (add index_from to match load_data's sequences)."""
    return word_index("tf.keras.datasets.imdb.get_word_index", path)
