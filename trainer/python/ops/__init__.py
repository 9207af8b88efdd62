"""tensorflow.python.ops: the resources module."""
