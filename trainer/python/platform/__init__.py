"""tensorflow.python.platform: the test module."""
