# Mirrors aymericdamien/TensorFlow-Examples: examples/1_Introduction/helloworld.py
"""A string constant run in a session (TF1 returns Python 3 `bytes`)."""
from __future__ import print_function

import tensorflow as tf

hello = tf.constant('Hello, TensorFlow!')

sess = tf.Session()
print(sess.run(hello))
print(sess.run(hello).decode())
