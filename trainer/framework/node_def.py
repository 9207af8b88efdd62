"""An Operation as TF1 prints it (`str(op)`): a NodeDef in protobuf text format.

Separate from operation.py because it is presentation only: nothing builds or runs a graph through it.
"""
import numpy as np

from .dtypes import DType
from .tensor import format_shape


def node_def_text(op):
    """`op`'s name, type, inputs ("^name" for control inputs) and attributes, one field a line."""
    lines = [f'name: "{op.name}"', f'op: "{op.type}"']
    for t in op.inputs:
        lines.append(f'input: "{t.op.name}"' if t.value_index == 0 else f'input: "{t.name}"')
    lines += [f'input: "^{c.name}"' for c in op.control_inputs]
    attrs = {"T": op.outputs[0].dtype} if op.outputs and "dtype" not in op.attrs else {}
    attrs.update(sorted(op.attrs.items()))
    for key, value in attrs.items():
        lines += ["attr {", f'  key: "{key}"', "  value {", f"    {_attr_text(value)}", "  }", "}"]
    return "\n".join(lines) + "\n"


def _attr_text(value):
    if isinstance(value, bool):
        return f"b: {str(value).lower()}"
    if isinstance(value, DType):
        value = value.dtype
    if isinstance(value, np.dtype):
        return "type: DT_" + {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}.get(
            value.name, value.name.upper())
    if isinstance(value, int):
        return f"i: {value}"
    if isinstance(value, float):
        return f"f: {value}"
    if isinstance(value, str):
        return f's: "{value}"'
    if isinstance(value, np.ndarray):
        return f"tensor {{ dtype: {_attr_text(value.dtype)[6:]} shape: {format_shape(value.shape)} }}"
    return f"list: {value!r}"
