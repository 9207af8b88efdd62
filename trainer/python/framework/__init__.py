"""tensorflow.python.framework: the ops and test_util modules."""
