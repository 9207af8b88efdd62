"""tg.python_io: TF1's tf.python_io, TFRecord files written and read from Python (platform/tfrecord.py)."""
from .platform.tfrecord import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]
