"""tf.contrib.learn's CategoricalVocabulary: categories (words) to ids 1..n in order of arrival, 0 for the unknown
token, until frozen; trim() renumbers by falling frequency.

The attribute names are TF1's own, so that a vocabulary TF1 pickled (VocabularyProcessor.save) loads into this
class."""
import collections


class CategoricalVocabulary:
    """Maps categories to ids; after freeze(), an unseen category is the unknown token's id 0."""

    def __init__(self, unknown_token="<UNK>", support_reverse=True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq = collections.defaultdict(int)
        self._freeze = False

    def __len__(self):
        """How many ids there are, the unknown token's included."""
        return len(self._mapping)

    def freeze(self, freeze=True):
        """Stop (or, freeze=False, resume) giving new categories ids."""
        self._freeze = freeze

    def get(self, category):
        """The id of `category`, a new one if it is new and the vocabulary is not frozen."""
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category, count=1):
        """Count `count` more occurrences of `category` (giving it an id if it has none)."""
        if self.get(category) > 0:
            self._freq[category] += count

    def trim(self, min_frequency, max_frequency=-1):
        """Keep the categories seen more than `min_frequency` times (and, with max_frequency > 0, fewer than
        max_frequency times), renumbered 1..n from the most frequent, ties in sorted order."""
        by_name = sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str), item[0]))
        ranked = sorted(by_name, key=lambda item: item[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        kept = []
        for category, count in ranked:
            if 0 < max_frequency <= count:
                continue
            if count <= min_frequency:
                break  # the rest are rarer still
            kept.append((category, count))
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        self._freq = dict(kept)

    def reverse(self, class_id):
        """The category of id `class_id` (the unknown token for 0)."""
        if not self._support_reverse:
            raise ValueError("This vocabulary was made with support_reverse=False: it cannot reverse() ids; make it "
                             "with CategoricalVocabulary(support_reverse=True)")
        return self._reverse_mapping[class_id]
