"""tensorflow.python.util: the compat module."""
