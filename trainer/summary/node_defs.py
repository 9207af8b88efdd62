"""Operation.node_def: an op as a NodeDef message (tg.NodeDef), the same message a GraphDef's nodes are.

Attribute values become AttrValue fields as TF1's do: a dtype is `type` (the DataType enum), an int `i`, a float
`f`, a bool `b`, a string `s`, an array `tensor`, a list of them `list`. A NodeDef's `attr` here is the list of
(key, value) entries protobuf writes for a map (node_def.attr[i].key / .value).
"""
import numbers

import numpy as np

from ..framework.dtypes import DType, as_dtype
from ..client.step_stats import input_names
from ..framework import operation
from .ops import tensor_proto
from .protos import AttrValue, NodeDef


def _datatype(value):
    try:
        return as_dtype(value).as_datatype_enum
    except (TypeError, KeyError, ValueError):
        return None


def attr_value(value):
    """An attribute value as an AttrValue, or None when it has no AttrValue form (a Python object)."""
    if isinstance(value, (DType, np.dtype)) or (isinstance(value, type) and issubclass(value, np.generic)):
        enum = _datatype(value)
        return None if enum is None else AttrValue(type=enum)
    if isinstance(value, (bool, np.bool_)):
        return AttrValue(b=bool(value))
    if isinstance(value, numbers.Integral):
        return AttrValue(i=int(value))
    if isinstance(value, numbers.Real):
        return AttrValue(f=float(value))
    if isinstance(value, (str, bytes)):
        return AttrValue(s=value.encode("utf-8") if isinstance(value, str) else value)
    if isinstance(value, np.ndarray):
        try:
            return AttrValue(tensor=tensor_proto(value))
        except TypeError:
            return None
    if isinstance(value, (list, tuple)):
        return _list_value(value)
    return None


def _list_value(values):
    kinds = {"i": numbers.Integral, "f": numbers.Real, "s": (str, bytes)}
    for field, kind in kinds.items():
        if all(isinstance(v, kind) and not isinstance(v, bool) for v in values):
            items = [v.encode("utf-8") if isinstance(v, str) else v for v in values]
            return AttrValue(list=AttrValue.ListValue(**{field: items}))
    if all(isinstance(v, bool) for v in values):
        return AttrValue(list=AttrValue.ListValue(b=list(values)))
    return None


def node_def_message(op):
    """`op` as a NodeDef: name, op type, inputs ("name:k", "^control"), device and its attributes."""
    attrs = {"T": op.outputs[0].dtype} if op.outputs and "dtype" not in op.attrs else {}
    attrs.update(op.attrs)
    entries = []
    for key in sorted(attrs):
        value = attr_value(attrs[key])
        if value is not None:
            entries.append(NodeDef.AttrEntry(key=key, value=value))
    return NodeDef(name=op.name, op=op.type, input=input_names(op), device=op.device, attr=entries)


operation.NODE_DEF_ENCODER[:] = [node_def_message]
