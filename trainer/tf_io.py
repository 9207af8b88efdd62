"""tg.io: TF1's tf.io namespace: gfile (tg.io.gfile is tg.gfile), whole files, TFRecords, decoding and parsing of
records, images, the queues TF 1.15 lists here too, and write_graph.

Named tf_io.py, exported as tg.io, so no module of the package is called like the standard library's io.
"""
from .ops.data_flow_ops import PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue
from .image.codecs import decode_image, decode_png, encode_png, is_jpeg
from .ops.image_decode_ops import decode_bmp, decode_gif, decode_jpeg, extract_jpeg_shape
from .ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode_csv, decode_raw,
                              parse_example, parse_single_example)
from .framework.graph_io import write_graph
from .ops.file_ops import match_filenames_once, matching_files, read_file, write_file
from .platform import gfile
from .platform.tfrecord import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "PaddingFIFOQueue", "PriorityQueue", "QueueBase",
           "RandomShuffleQueue", "TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "VarLenFeature",
           "decode_bmp", "decode_csv", "decode_gif", "decode_image", "decode_jpeg", "decode_png", "decode_raw",
           "encode_png", "extract_jpeg_shape", "gfile", "is_jpeg", "match_filenames_once", "matching_files",
           "parse_example", "parse_single_example", "read_file", "tf_record_iterator", "write_file", "write_graph"]

from .ops.encoding_ops import (decode_base64, decode_compressed, decode_json_example,  # noqa: E402
                               deserialize_many_sparse, encode_base64, parse_tensor, serialize_many_sparse,
                               serialize_sparse, serialize_tensor)

__all__ += ["decode_base64", "decode_compressed", "decode_json_example", "deserialize_many_sparse", "encode_base64",
            "parse_tensor", "serialize_many_sparse", "serialize_sparse", "serialize_tensor"]
