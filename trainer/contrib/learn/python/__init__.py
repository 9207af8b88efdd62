"""tensorflow.contrib.learn.python: the path of TF1's datasets package (contrib.learn.python.learn.datasets)."""
