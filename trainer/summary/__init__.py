"""tf.summary: summary ops, the protos they produce, and the FileWriter that stores them for TensorBoard."""
from .ops import (all_v2_summary_ops, audio, get_summary_description, histogram, image, merge, merge_all, scalar,
                  tensor_summary, text)
from .protos import Event, SessionLog, Summary, SummaryDescription, SummaryMetadata, TaggedRunMetadata
from .records import summary_iterator
from .scalar_writer import ScalarWriter
from .writer import FileWriter, FileWriterCache

__all__ = ["Event", "FileWriter", "FileWriterCache", "ScalarWriter", "SessionLog", "Summary", "SummaryDescription",
           "SummaryMetadata", "TaggedRunMetadata", "all_v2_summary_ops", "audio", "get_summary_description",
           "histogram", "image", "merge", "merge_all", "scalar", "summary_iterator", "tensor_summary", "text"]
