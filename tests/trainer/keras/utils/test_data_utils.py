"""keras.utils' get_file (Keras' cache, checked and extracted; never a download) and the enqueuers."""
import hashlib
import tarfile

import pytest

from trainer import keras


def test_get_file_finds_checks_and_extracts_what_the_cache_holds(tmp_path):
    folder = tmp_path / "datasets"
    folder.mkdir()
    data = folder / "data.csv"
    data.write_text("a,b\n1,2\n")
    sha = hashlib.sha256(data.read_bytes()).hexdigest()
    found = keras.utils.get_file("data.csv", "https://example.com/data.csv", file_hash=sha, cache_dir=str(tmp_path))
    assert found == str(data)
    with pytest.raises(ValueError, match="hash"):
        keras.utils.get_file("data.csv", "https://example.com/data.csv", md5_hash="0" * 32, cache_dir=str(tmp_path))
    with tarfile.open(folder / "pack.tar.gz", "w:gz") as archive:
        archive.add(data, arcname="pack/data.csv")
    unpacked = keras.utils.get_file("pack", "https://example.com/pack.tar.gz", untar=True, cache_dir=str(tmp_path))
    assert (tmp_path / "datasets" / "pack" / "data.csv").read_text() == "a,b\n1,2\n" and unpacked.endswith("pack")


def test_get_file_never_downloads(tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloads.*https://example.com/x.npz"):
        keras.utils.get_file("x.npz", "https://example.com/x.npz", cache_dir=str(tmp_path))


class Batches(keras.utils.Sequence):
    def __init__(self):
        self.epochs = 0

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return i

    def on_epoch_end(self):
        self.epochs += 1


def test_ordered_enqueuer_goes_round_the_epochs():
    sequence = Batches()
    enqueuer = keras.utils.OrderedEnqueuer(sequence)
    enqueuer.start(workers=2, max_queue_size=4)
    batches = enqueuer.get()
    assert [next(batches) for _ in range(7)] == [0, 1, 2, 0, 1, 2, 0] and sequence.epochs == 2
    assert enqueuer.is_running()
    enqueuer.stop()
    assert not enqueuer.is_running() and list(batches) == []


def test_generator_enqueuer_passes_the_items_on():
    enqueuer = keras.utils.GeneratorEnqueuer(iter(range(3)))
    enqueuer.start()
    assert list(enqueuer.get()) == [0, 1, 2]
