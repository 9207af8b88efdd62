"""tensorflow.python.framework: the ops, test_util and graph_util modules."""
