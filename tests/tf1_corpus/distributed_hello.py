# Mirrors tensorflow/tensorflow: tensorflow/docs_src/deploy/distributed.md (r1 guide: Hello distributed TensorFlow)
"""A one-task in-process cluster from tf.train.Server.create_local_server(), and a session on its target.

Changed from the guide: the interactive lines are a script; the session is also used as a context manager.
"""
from __future__ import print_function

import tensorflow as tf

c = tf.constant("Hello, distributed TensorFlow!")
server = tf.train.Server.create_local_server()
sess = tf.Session(server.target)
print(sess.run(c))

with tf.Session(server.target) as sess2:
    x = tf.placeholder(tf.float32)
    print(sess2.run(x * 2, feed_dict={x: 21.0}))
