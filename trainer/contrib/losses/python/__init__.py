"""tensorflow.contrib.losses.python: the path of TF1's contrib.losses.python.losses package."""
