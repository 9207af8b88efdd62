"""tf.contrib.learn's text preprocessing: documents to fixed-length rows of word ids (VocabularyProcessor) or of
bytes (ByteProcessor).

A row is max_document_length int64 ids: the document's first tokens, padded with 0 (also the id of words the
frozen vocabulary does not know). transform, fit_transform and reverse are generators, as in TF1
(np.array(list(vp.fit_transform(texts))) is the matrix). save() pickles the processor; restore() reads pickles
written by ringflow and by TF1 alike: TF1's module names (tensorflow.contrib.learn...) are read as ringflow's.
"""
import itertools
import pickle
import re

import numpy as np

from .categorical_vocabulary import CategoricalVocabulary

# TF1's tokenizer: runs of capitals, a capitalized word before another capital (CamelCase), word characters with
# apostrophes and hyphens.
TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)
TF_PACKAGE, OWN_PACKAGE = "tensorflow.", __name__.partition(".")[0] + "."


def tokenizer(iterator):
    """Yields the list of tokens of each string."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class ByteProcessor:
    """Documents as rows of max_document_length UTF-8 bytes (uint8), cut or padded with 0."""

    def __init__(self, max_document_length):
        self.max_document_length = max_document_length

    def fit(self, x):
        """Nothing to learn."""

    def fit_transform(self, x):
        """transform(x)."""
        return self.transform(x)

    def transform(self, x):
        """Yields each document's bytes, cut or padded to max_document_length."""
        for document in x:
            if isinstance(document, str):
                document = document.encode("utf-8")
            row = np.frombuffer(bytes(document[:self.max_document_length]), dtype=np.uint8)
            yield np.pad(row, (0, self.max_document_length - len(row)), "constant")

    def reverse(self, x):
        """Yields each row's text, trailing zeros dropped ('' where the bytes are not UTF-8)."""
        for data in x:
            document = np.trim_zeros(np.asarray(data).astype(np.uint8), trim="b").tobytes()
            try:
                yield document.decode("utf-8")
            except UnicodeDecodeError:
                yield ""


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module.startswith(TF_PACKAGE):
            module = OWN_PACKAGE + module[len(TF_PACKAGE):]
        return super().find_class(module, name)


class VocabularyProcessor:
    """Maps documents to rows of word ids; vocabulary_ is its CategoricalVocabulary."""

    def __init__(self, max_document_length, min_frequency=0, vocabulary=None, tokenizer_fn=None):
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer  # TF1's attribute name, for its pickles

    def fit(self, raw_documents, unused_y=None):
        """Learn the vocabulary of the documents (words seen more than min_frequency times), then freeze it."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents, unused_y=None):
        """fit, then transform the same documents (a list: a generator would be spent by fit)."""
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents):
        """Yields each document's row of max_document_length word ids."""
        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for index, token in enumerate(itertools.islice(tokens, self.max_document_length)):
                word_ids[index] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents):
        """Yields each row of ids as its words joined by spaces (padding reads as the unknown token)."""
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename):
        """Pickle this processor into `filename`."""
        with open(filename, "wb") as f:
            pickle.dump(self, f)

    @classmethod
    def restore(cls, filename):
        """The processor pickled in `filename` (by save(), ringflow's or TF1's)."""
        with open(filename, "rb") as f:
            return _Unpickler(f).load()
