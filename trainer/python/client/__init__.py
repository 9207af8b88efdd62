"""tensorflow.python.client: the timeline module."""
