"""keras.utils.Sequence: a dataset indexed by batch, safe to shuffle and to split."""


class Sequence:
    """Subclasses give __getitem__(index) -> one batch (x, y) or (x, y, sample_weight) and __len__() -> the number
    of batches; on_epoch_end() runs after each epoch (to reshuffle, for example)."""

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__(index) returning one batch")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __len__() returning the number of batches")

    def on_epoch_end(self):
        pass

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]
