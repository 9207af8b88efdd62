"""tensorflow.python.training: tf.train's modules by TF's internal paths (views of tf.train)."""
