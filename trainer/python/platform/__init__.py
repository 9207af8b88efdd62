"""tensorflow.python.platform: the test module, and views of tf.* (tf_logging, gfile, app, flags, googletest)."""
