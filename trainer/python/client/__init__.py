"""tensorflow.python.client: the timeline module, and session (a view of tf's Session names)."""
