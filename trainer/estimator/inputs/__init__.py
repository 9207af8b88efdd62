"""tf.estimator.inputs: input_fns over in-memory data."""
from .numpy_io import numpy_input_fn


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1,
                    target_column="target"):
    """TF1's input_fn over a pandas DataFrame: not implemented in ringflow."""
    raise NotImplementedError("tg.estimator.inputs.pandas_input_fn is not implemented in ringflow: pass the "
                              "DataFrame's columns as numpy arrays to numpy_input_fn, e.g. "
                              "numpy_input_fn({k: x[k].values for k in x.columns}, y.values, shuffle=...)")


__all__ = ["numpy_input_fn", "pandas_input_fn"]
