"""tf.summary: summary ops, the protos they produce, and the FileWriter that stores them for TensorBoard."""
from .ops import histogram, image, merge, merge_all, scalar, tensor_summary, text
from .protos import Event, SessionLog, Summary, SummaryDescription, SummaryMetadata
from .records import summary_iterator
from .scalar_writer import ScalarWriter
from .writer import FileWriter, FileWriterCache

__all__ = ["Event", "FileWriter", "FileWriterCache", "ScalarWriter", "SessionLog", "Summary", "SummaryDescription",
           "SummaryMetadata", "histogram", "image", "merge", "merge_all", "scalar", "summary_iterator",
           "tensor_summary", "text"]
