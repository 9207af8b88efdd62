"""tensorflow.python.framework.tensor_shape: TensorShape, Dimension and their helpers, ringflow's own module's."""
# ruff: noqa: F401
from ...framework.tensor_shape import (Dimension, TensorShape, as_dimension, as_shape, dimension_value, scalar,
                                       unknown_shape)
