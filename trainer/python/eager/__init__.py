"""tensorflow.python.eager: the context module."""
