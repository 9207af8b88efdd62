"""tf.keras.preprocessing.text (keras_preprocessing 1.1's): split texts into words, hash words to indices, and the
Tokenizer that indexes a corpus' words by frequency and turns texts into index sequences or count matrices."""
import collections
import hashlib
import json

import numpy as np

FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'  # Keras' default: punctuation, tabs and line breaks


def text_to_word_sequence(text, filters=FILTERS, lower=True, split=" "):
    """The words of `text`: lowercased, each character of `filters` made a separator, split on `split`."""
    if lower:
        text = text.lower()
    text = text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in text.split(split) if word]


def hashing_trick(text, n, hash_function=None, filters=FILTERS, lower=True, split=" "):
    """Each word of `text` as hash(word) % (n - 1) + 1 (0 stays free for padding). hash_function: None for Python's
    hash (salted per process unless PYTHONHASHSEED is set, as in Keras), 'md5' for a stable one, or a function."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(word):
            return int(hashlib.md5(word.encode()).hexdigest(), 16)
    return [hash_function(word) % (n - 1) + 1 for word in text_to_word_sequence(text, filters, lower, split)]


def one_hot(text, n, filters=FILTERS, lower=True, split=" "):
    """hashing_trick with Python's hash: each word an index in [1, n)."""
    return hashing_trick(text, n, hash_function=hash, filters=filters, lower=lower, split=split)


class Tokenizer:
    """Indexes words (or characters) by how often fit_on_texts saw them, 1 the most frequent; num_words keeps the
    num_words - 1 most frequent when converting; oov_token (index 1 when given) stands for the words left out."""

    def __init__(self, num_words=None, filters=FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 document_count=0, **kwargs):
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments to Tokenizer: {sorted(kwargs)}")
        self.num_words, self.filters, self.lower, self.split = num_words, filters, lower, split
        self.char_level, self.oov_token, self.document_count = char_level, oov_token, document_count
        self.word_counts, self.word_docs = collections.OrderedDict(), collections.defaultdict(int)
        self.index_docs = collections.defaultdict(int)
        self.word_index, self.index_word = {}, {}

    def _sequence(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                return [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        return text_to_word_sequence(text, self.filters, self.lower, self.split)

    def fit_on_texts(self, texts):
        """Count the words of `texts` (strings, or lists of words) and index them by decreasing count."""
        for text in texts:
            self.document_count += 1
            seq = self._sequence(text)
            for word in seq:
                self.word_counts[word] = self.word_counts.get(word, 0) + 1
            for word in set(seq):
                self.word_docs[word] += 1
        ranked = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)  # stable: ties by first seen
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + [word for word, _ in ranked]
        self.word_index = {word: i for i, word in enumerate(vocabulary, start=1)}
        self.index_word = {i: word for word, i in self.word_index.items()}
        self.index_docs = collections.defaultdict(int, {self.word_index[w]: c for w, c in self.word_docs.items()})

    def fit_on_sequences(self, sequences):
        """Count in how many sequences each index occurs (what tfidf needs when fitting on sequences)."""
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences_generator(self, texts):
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            vector = []
            for word in self._sequence(text):
                i = self.word_index.get(word)
                if i is not None and not (self.num_words and i >= self.num_words):
                    vector.append(i)
                elif oov is not None:
                    vector.append(oov)
            yield vector

    def texts_to_sequences(self, texts):
        """Each text as the list of its words' indices (unknown or rarer-than-num_words words: oov_token or none)."""
        return list(self.texts_to_sequences_generator(texts))

    def sequences_to_texts(self, sequences):
        """Each sequence of indices back to words joined by spaces (left-out indices as oov_token or none)."""
        oov = self.word_index.get(self.oov_token)
        texts = []
        for seq in sequences:
            words = []
            for i in seq:
                word = self.index_word.get(i)
                if word is not None and not (self.num_words and i >= self.num_words):
                    words.append(word)
                elif oov is not None:
                    words.append(self.index_word[oov])
            texts.append(" ".join(words))
        return texts

    def texts_to_matrix(self, texts, mode="binary"):
        """sequences_to_matrix of texts_to_sequences(texts)."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A [len(sequences), num_words] matrix: mode 'binary' (1 where an index occurs), 'count', 'freq' (count /
        length) or 'tfidf' ((1 + log count) * log(1 + documents / (1 + documents with the index)))."""
        if mode not in ("binary", "count", "freq", "tfidf"):
            raise ValueError(f"Unknown vectorization mode: {mode!r}; use 'binary', 'count', 'freq' or 'tfidf'")
        num_words = self.num_words or (len(self.word_index) + 1 if self.word_index else None)
        if not num_words:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for row, seq in enumerate(sequences):
            counts = collections.Counter(j for j in seq if j < num_words)
            for j, c in counts.items():
                if mode == "count":
                    x[row, j] = c
                elif mode == "freq":
                    x[row, j] = c / len(seq)
                elif mode == "binary":
                    x[row, j] = 1
                else:
                    x[row, j] = (1 + np.log(c)) * np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
        return x

    def get_config(self):
        """The settings and, as JSON strings (Keras' form), the counts and indexes fit_on_texts made."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """{'class_name': 'Tokenizer', 'config': get_config()} as JSON; tokenizer_from_json reads it back."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string):
    """The Tokenizer a to_json string describes (Keras' own included), fitted as it was."""
    config = dict(json.loads(json_string)["config"])
    fitted = {name: json.loads(config.pop(name))
              for name in ("word_counts", "word_docs", "index_docs", "index_word", "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = collections.OrderedDict(fitted["word_counts"])
    tokenizer.word_docs = collections.defaultdict(int, fitted["word_docs"])
    tokenizer.index_docs = collections.defaultdict(int, {int(k): v for k, v in fitted["index_docs"].items()})
    tokenizer.index_word = {int(k): v for k, v in fitted["index_word"].items()}
    tokenizer.word_index = fitted["word_index"]
    return tokenizer
