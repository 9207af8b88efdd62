"""tensorflow.python.util: nest (tf.nest's nested-structure utilities) and compat."""
