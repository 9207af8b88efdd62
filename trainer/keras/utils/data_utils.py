"""keras.utils' data helpers: Sequence (a dataset indexed by batch), the enqueuers that draw batches from a Sequence
or a generator, and get_file, which finds a file in Keras' cache (ringflow never downloads)."""
import hashlib
import os
import random
import tarfile
import zipfile


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


class SequenceEnqueuer:
    """Draws batches for a training loop: start(), get() (an endless generator of batches), stop(). Ringflow draws
    them in the calling process, when asked: `workers`, `max_queue_size` and `use_multiprocessing` are accepted
    and change nothing, as fit's are."""

    def __init__(self, sequence, use_multiprocessing=False):
        self.sequence, self.use_multiprocessing, self.running = sequence, use_multiprocessing, False

    def is_running(self):
        return self.running

    def start(self, workers=1, max_queue_size=10):
        self.running = True

    def stop(self, timeout=None):
        self.running = False

    def get(self):
        raise NotImplementedError(f"{type(self).__name__} must define get(), a generator of batches")


class OrderedEnqueuer(SequenceEnqueuer):
    """The batches of a Sequence in order (shuffled per epoch when `shuffle`), epoch after epoch, calling its
    on_epoch_end between epochs."""

    def __init__(self, sequence, use_multiprocessing=False, shuffle=False):
        super().__init__(sequence, use_multiprocessing)
        self.shuffle = shuffle

    def get(self):
        while self.running:
            order = list(range(len(self.sequence)))
            if self.shuffle:
                random.shuffle(order)
            for i in order:
                if not self.running:
                    return
                yield self.sequence[i]
            self.sequence.on_epoch_end()


class GeneratorEnqueuer(SequenceEnqueuer):
    """The items of a generator, until it ends or stop()."""

    def __init__(self, sequence, use_multiprocessing=False, random_seed=None):
        super().__init__(sequence, use_multiprocessing)
        self.random_seed = random_seed

    def get(self):
        for item in self.sequence:
            if not self.running:
                return
            yield item


def _hash(path, algorithm):
    digest = hashlib.sha256() if algorithm == "sha256" else hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65535), b""):
            digest.update(chunk)
    return digest.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto"):
    """Whether the file's sha256 (or md5: 'auto' picks by the hash's length, as Keras) is `file_hash`."""
    if algorithm == "auto":
        algorithm = "sha256" if len(file_hash) == 64 else "md5"
    return _hash(fpath, algorithm) == str(file_hash)


def _extract(path, into, archive_format):
    formats = {"tar": [tarfile.is_tarfile], "zip": [zipfile.is_zipfile]}
    wanted = ["tar", "zip"] if archive_format == "auto" else [archive_format] if isinstance(archive_format, str) \
        else list(archive_format or [])
    for kind in wanted:
        if formats[kind][0](path):
            opener = tarfile.open if kind == "tar" else zipfile.ZipFile
            with opener(path) as archive:
                archive.extractall(into)
            return True
    return False


def get_file(fname, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None):
    """The path of `fname` in Keras' cache (cache_dir, default ~/.keras, then cache_subdir), checked against
    file_hash (or md5_hash) and extracted when `extract` (or, for `untar`, the directory it unpacks to). Keras
    downloads a missing file from `origin`; ringflow never downloads: a missing file is a FileNotFoundError saying
    where to put it."""
    base = os.path.expanduser(cache_dir or os.path.join("~", ".keras"))
    folder = cache_subdir if os.path.isabs(cache_subdir) else os.path.join(base, cache_subdir)
    target = os.path.join(folder, fname)
    path = target + ".tar.gz" if untar else target
    if not os.path.exists(path):
        raise FileNotFoundError(f"get_file: {path!r} does not exist, and ringflow never downloads. Fetch {origin!r} "
                                "yourself and put it there (or pass cache_dir= where your copy is)")
    expected = file_hash or md5_hash
    if expected is not None and not validate_file(path, expected, "md5" if md5_hash and not file_hash
                                                  else hash_algorithm):
        raise ValueError(f"get_file: {path!r} does not match the hash {expected!r} it should have: the file is "
                         "incomplete or another one; fetch it again")
    if untar:
        if not os.path.exists(target):
            _extract(path, folder, "tar")
        return target
    if extract:
        _extract(path, folder, archive_format)
    return path

