"""tf.saved_model.utils: a tensor as a signature's TensorInfo, and back."""
from ..framework.dtypes import as_dtype
from ..framework.graph import get_default_graph
from ..framework.meta_graph import TensorInfo
from ..framework.tensor_shape import TensorShape


def build_tensor_info(tensor):
    """The TensorInfo of a Tensor: its name, dtype and static shape."""
    if not hasattr(tensor, "op") or not hasattr(tensor, "dtype"):
        raise TypeError(f"build_tensor_info takes a Tensor, got {tensor!r}")
    return TensorInfo(name=tensor.name, dtype=as_dtype(tensor.dtype).as_datatype_enum,
                      tensor_shape=TensorShape(tensor.shape).as_proto())


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The Tensor a TensorInfo names in graph (default: the default graph)."""
    if tensor_info.WhichOneof("encoding") != "name":
        raise ValueError(f"TensorInfo {tensor_info} names no dense tensor: ringflow has no sparse or composite "
                         "tensors")
    name = f"{import_scope}/{tensor_info.name}" if import_scope else tensor_info.name
    return (graph or get_default_graph()).get_tensor_by_name(name)
