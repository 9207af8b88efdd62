"""A tf.string constant fetched in a session: under Python 3 the fetch is `bytes`, decoded to print as text."""
import tensorflow as tf

greeting = tf.constant("Hello, TensorFlow!")
session = tf.Session()
raw = session.run(greeting)
print(raw)
print(raw.decode("utf-8"))
session.close()
