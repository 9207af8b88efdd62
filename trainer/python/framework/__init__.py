"""tensorflow.python.framework: ops, test_util, graph_util, and views of tf.* (constant_op, dtypes, errors, ...)."""
