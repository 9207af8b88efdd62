"""tensorflow.python.framework.tensor_util: TensorProtos to and from numpy arrays, ringflow's own module's
(MakeNdarray is TF's internal name of make_ndarray)."""
# ruff: noqa: F401
from ...framework.tensor_util import make_ndarray, make_ndarray as MakeNdarray, make_tensor_proto  # noqa: N812
