"""tf.train.Example and its parts (tensorflow/core/example/example.proto, feature.proto): the records TF1 programs
write into TFRecord files and read back with tf.parse_example."""
from .protobuf import Field, Message


class BytesList(Message):
    FIELDS = {"value": Field(1, "bytes", repeated=True)}


class FloatList(Message):
    FIELDS = {"value": Field(1, "float", repeated=True)}


class Int64List(Message):
    FIELDS = {"value": Field(1, "int64", repeated=True)}


class Feature(Message):
    FIELDS = {"bytes_list": Field(1, "message", BytesList, oneof="kind"),
              "float_list": Field(2, "message", FloatList, oneof="kind"),
              "int64_list": Field(3, "message", Int64List, oneof="kind")}


class Features(Message):
    FIELDS = {"feature": Field(1, "map", Feature, key="string")}


class FeatureList(Message):
    FIELDS = {"feature": Field(1, "message", Feature, repeated=True)}


class FeatureLists(Message):
    FIELDS = {"feature_list": Field(1, "map", FeatureList, key="string")}


class Example(Message):
    FIELDS = {"features": Field(1, "message", Features)}


class SequenceExample(Message):
    FIELDS = {"context": Field(1, "message", Features), "feature_lists": Field(2, "message", FeatureLists)}
