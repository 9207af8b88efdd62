"""tf.train.summary_iterator: an event file's Event protos, read from its TFRecords (platform/tfrecord.py)."""
from ..platform.tfrecord import read_records
from .protos import Event


def summary_iterator(path):
    """tf.train.summary_iterator: the Event protos of an event file, in order."""
    for _, data in read_records(path):
        yield Event.FromString(data)
