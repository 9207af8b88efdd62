"""TF's MetaGraphDef and the messages around it (meta_graph.proto, saver.proto, variable.proto,
saved_model.proto), with TF's field numbers, so `.meta` and `saved_model.pb` files read in TensorFlow and back.

`attr_python` turns an AttrValue back into the Python value an op's attrs hold (node_def.attr_value's inverse).
"""
import numpy as np

from ..platform.protobuf import Field, Message
from .dtypes import as_dtype
from .node_def import GraphDef
from .tensor_shape import TensorShape, TensorShapeProto
from .tensor_util import make_ndarray


class VariableDef(Message):
    """A variable by the names of its ops: what the "variables" collections of a MetaGraphDef hold."""
    FIELDS = {"variable_name": Field(1, "string"), "initial_value_name": Field(6, "string"),
              "initializer_name": Field(2, "string"), "snapshot_name": Field(3, "string"),
              "save_slice_info_def": Field(4, "any"), "is_resource": Field(5, "bool"),
              "trainable": Field(7, "bool"), "synchronization": Field(8, "enum"), "aggregation": Field(9, "enum")}


class SaverDef(Message):
    """A Saver: its ops by name, how many checkpoints it keeps, the checkpoint format (2: V2)."""
    FIELDS = {"filename_tensor_name": Field(1, "string"), "save_tensor_name": Field(2, "string"),
              "restore_op_name": Field(3, "string"), "max_to_keep": Field(4, "int32"), "sharded": Field(5, "bool"),
              "keep_checkpoint_every_n_hours": Field(6, "float"), "version": Field(7, "enum")}


class CollectionDef(Message):
    """One collection: node (op or tensor) names, serialized protos (bytes), int64s or floats."""

    class NodeList(Message):
        FIELDS = {"value": Field(1, "string", repeated=True)}

    class BytesList(Message):
        FIELDS = {"value": Field(1, "bytes", repeated=True)}

    class Int64List(Message):
        FIELDS = {"value": Field(1, "int64", repeated=True)}

    class FloatList(Message):
        FIELDS = {"value": Field(1, "float", repeated=True)}

    FIELDS = {"node_list": Field(1, "message", NodeList, oneof="kind"),
              "bytes_list": Field(2, "message", BytesList, oneof="kind"),
              "int64_list": Field(3, "message", Int64List, oneof="kind"),
              "float_list": Field(4, "message", FloatList, oneof="kind"), "any_list": Field(5, "any", oneof="kind")}


class TensorInfo(Message):
    """A tensor of a signature: its name, dtype and shape."""
    FIELDS = {"name": Field(1, "string", oneof="encoding"), "coo_sparse": Field(4, "any", oneof="encoding"),
              "composite_tensor": Field(5, "any", oneof="encoding"), "dtype": Field(2, "enum"),
              "tensor_shape": Field(3, "message", TensorShapeProto)}


class SignatureDef(Message):
    """A serving signature: named inputs and outputs and the method ("tensorflow/serving/predict")."""
    FIELDS = {"inputs": Field(1, "map", TensorInfo, key="string"), "outputs": Field(2, "map", TensorInfo, key="string"),
              "method_name": Field(3, "string"), "defaults": Field(4, "any")}


class MetaGraphDef(Message):
    """A graph with what a program needs to go on with it: collections, the Saver, signatures."""

    class MetaInfoDef(Message):
        FIELDS = {"meta_graph_version": Field(1, "string"), "stripped_op_list": Field(2, "any"),
                  "any_info": Field(3, "any"), "tags": Field(4, "string", repeated=True),
                  "tensorflow_version": Field(5, "string"), "tensorflow_git_version": Field(6, "string"),
                  "stripped_default_attrs": Field(7, "bool"), "function_aliases": Field(8, "any")}

    FIELDS = {"meta_info_def": Field(1, "message", MetaInfoDef), "graph_def": Field(2, "message", GraphDef),
              "saver_def": Field(3, "message", SaverDef),
              "collection_def": Field(4, "map", CollectionDef, key="string"),
              "signature_def": Field(5, "map", SignatureDef, key="string"), "asset_file_def": Field(6, "any"),
              "object_graph_def": Field(7, "any")}


class SavedModel(Message):
    """saved_model.pb: one MetaGraphDef per set of tags."""
    FIELDS = {"saved_model_schema_version": Field(1, "int64"),
              "meta_graphs": Field(2, "message", MetaGraphDef, repeated=True)}


def _scalar(kind, value):
    if kind == "s":
        return value.decode("utf-8", "surrogateescape")
    if kind == "type":
        return as_dtype(value)
    if kind == "shape":
        return TensorShape(value)
    if kind == "tensor":
        return np.asarray(make_ndarray(value))
    return value


def attr_python(value):
    """An AttrValue as the Python value an op's attrs hold: str, int, float, bool, DType, TensorShape, an
    array, or a tuple of them for a list (node_def.attr_value's inverse)."""
    kind = value.WhichOneof("value")
    if kind == "list":
        items = value.list
        for name in ("s", "i", "f", "b", "type", "shape", "tensor"):
            if len(getattr(items, name)):
                return tuple(_scalar(name, v) for v in getattr(items, name))
        return ()
    return None if kind is None else _scalar(kind, getattr(value, kind))
