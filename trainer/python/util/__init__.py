"""tensorflow.python.util: nest, TF's nested-structure utilities (tf.nest)."""
