"""tensorflow.contrib.learn.python: the path of TF1's contrib.learn.python.learn package."""
