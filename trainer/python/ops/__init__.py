"""tensorflow.python.ops: the resources module, and views of tf.* (array_ops, math_ops, nn_ops, variables, ...)."""
