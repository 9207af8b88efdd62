"""tensorflow.python.framework: the test_util module."""
