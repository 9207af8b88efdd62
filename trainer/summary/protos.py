"""The messages of TF's event.proto and summary.proto that event files need (the GraphDef they carry, and the
TensorProto of a tensor summary, are the framework's).

Field numbers are TensorFlow's, so TensorBoard and protobuf readers parse these bytes as their own.
"""
from ..framework.tensor_util import TensorProto
from ..platform.protobuf import Field as F, Message
from ..platform.protobuf_wire import LENGTH, encode_varint, read_field


class HistogramProto(Message):
    """A histogram: count `bucket[i]` for values in [bucket_limit[i-1], bucket_limit[i])."""
    FIELDS = {"min": F(1, "double"), "max": F(2, "double"), "num": F(3, "double"), "sum": F(4, "double"),
              "sum_squares": F(5, "double"), "bucket_limit": F(6, "double", repeated=True),
              "bucket": F(7, "double", repeated=True)}


class SummaryMetadata(Message):
    class PluginData(Message):
        FIELDS = {"plugin_name": F(1, "string"), "content": F(2, "bytes")}

    FIELDS = {"plugin_data": F(1, "message", PluginData), "display_name": F(2, "string"),
              "summary_description": F(3, "string")}


class SummaryDescription(Message):
    FIELDS = {"type_hint": F(1, "string")}


class Summary(Message):
    """tf.Summary: a list of tagged values (scalars, histograms, images, tensors)."""

    class Image(Message):
        """An encoded image; colorspace is the channel count (1 gray, 3 RGB, 4 RGBA)."""
        FIELDS = {"height": F(1, "int32"), "width": F(2, "int32"), "colorspace": F(3, "int32"),
                  "encoded_image_string": F(4, "bytes")}

    class Audio(Message):
        FIELDS = {"sample_rate": F(1, "float"), "num_channels": F(2, "int64"), "length_frames": F(3, "int64"),
                  "encoded_audio_string": F(4, "bytes"), "content_type": F(5, "string")}

    class Value(Message):
        FIELDS = {"tag": F(1, "string"), "node_name": F(7, "string"),
                  "metadata": F(9, "message", SummaryMetadata),
                  "simple_value": F(2, "float", oneof="value"),
                  "obsolete_old_style_histogram": F(3, "bytes", oneof="value"),
                  "image": F(4, "message", None, oneof="value"),
                  "histo": F(5, "message", HistogramProto, oneof="value"),
                  "audio": F(6, "message", None, oneof="value"),
                  "tensor": F(8, "message", TensorProto, oneof="value")}

    FIELDS = {"value": F(1, "message", Value, repeated=True)}


Summary.Value.FIELDS["image"].message = Summary.Image
Summary.Value.FIELDS["audio"].message = Summary.Audio


class SessionLog(Message):
    """tf.SessionLog: marks a (re)start, stop or checkpoint in an event file."""
    STATUS_UNSPECIFIED, START, STOP, CHECKPOINT = 0, 1, 2, 3
    FIELDS = {"status": F(1, "enum"), "checkpoint_path": F(2, "string"), "msg": F(3, "string")}


class LogMessage(Message):
    UNKNOWN, DEBUGGING, INFO, WARN, ERROR, FATAL = 0, 10, 20, 30, 40, 50
    FIELDS = {"level": F(1, "enum"), "message": F(2, "string")}


class TaggedRunMetadata(Message):
    FIELDS = {"tag": F(1, "string"), "run_metadata": F(2, "bytes")}


class Event(Message):
    """tf.Event: one record of an event file, at a wall time and global step."""
    FIELDS = {"wall_time": F(1, "double"), "step": F(2, "int64"),
              "file_version": F(3, "string", oneof="what"), "graph_def": F(4, "bytes", oneof="what"),
              "summary": F(5, "message", Summary, oneof="what"),
              "log_message": F(6, "message", LogMessage, oneof="what"),
              "session_log": F(7, "message", SessionLog, oneof="what"),
              "tagged_run_metadata": F(8, "message", TaggedRunMetadata, oneof="what"),
              "meta_graph_def": F(9, "bytes", oneof="what")}


def summary_values(data):
    """(tag, has metadata) of each value of a serialized Summary, read without decoding what the values hold (a
    histogram's buckets, an image): all that merging summaries and writing them to an event file look at."""
    found, pos = [], 0
    tag_number, metadata_number = Summary.Value.FIELDS["tag"].number, Summary.Value.FIELDS["metadata"].number
    while pos < len(data):
        number, _, raw, pos = read_field(data, pos)
        if number != Summary.FIELDS["value"].number:
            continue
        tag, metadata, inner = "", False, 0
        while inner < len(raw):
            number, _, field, inner = read_field(raw, inner)
            if number == tag_number:
                tag = field.decode("utf-8")
            metadata = metadata or number == metadata_number
        found.append((tag, metadata))
    return found


def summary_event(summary, wall_time, step=None):
    """The serialized Event of a serialized Summary: the bytes Event(wall_time=..., step=..., summary=...) writes,
    with the summary's bytes copied in rather than parsed and written again (a summary op's output every step)."""
    head = Event(wall_time=wall_time, step=step).SerializeToString()
    return head + encode_varint(Event.FIELDS["summary"].number << 3 | LENGTH) + encode_varint(len(summary)) + summary
