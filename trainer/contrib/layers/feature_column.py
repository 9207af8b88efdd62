"""tf.contrib.layers' feature columns as tf.feature_column's: real_valued_column is numeric_column, and
infer_real_valued_columns reads the columns off the features themselves."""
from ...feature_column.feature_column import numeric_column
from ...framework import dtypes
from ...ops.core_ops import convert_to_tensor


def real_valued_column(column_name, dimension=1, default_value=None, dtype=dtypes.float32, normalizer=None):
    """`dimension` real values of feature `column_name` per example: tf.feature_column.numeric_column."""
    if dimension is None:
        raise NotImplementedError(f"real_valued_column({column_name!r}, dimension=None): variable-length (sparse) "
                                  "real values are not in ringflow; give the dimension, or use "
                                  "tf.feature_column.weighted_categorical_column")
    if isinstance(default_value, (int, float)) and dimension > 1:
        default_value = [default_value] * dimension
    return numeric_column(column_name, shape=(dimension,), default_value=default_value, dtype=dtype,
                          normalizer_fn=normalizer)


def infer_real_valued_columns(features):
    """One real_valued_column per feature (a bare Tensor is the feature ''), as wide as its non-batch dims."""
    if not isinstance(features, dict):
        features = {"": features}
    columns = []
    for key, value in sorted(features.items()):
        value = convert_to_tensor(value)
        dims = value.shape.as_list()[1:]
        if any(d is None for d in dims):
            raise ValueError(f"Feature {key!r} has shape {value.shape.as_list()}: infer_real_valued_columns needs "
                             "every dimension but the batch known")
        if value.dtype.kind not in "iuf":
            raise ValueError(f"Feature {key!r} is {value.dtype.name}: only numeric features make real-valued columns")
        width = 1
        for d in dims:
            width *= d
        columns.append(real_valued_column(key, dimension=width,
                                          dtype=dtypes.float32 if value.dtype.kind == "f" else value.dtype))
    return columns
