"""Arithmetic on constants, on int16 placeholders fed through feed_dict (the fetch keeps the int16 dtype), and
a [1, 2] x [2, 1] tf.matmul of float constants."""
import tensorflow as tf

six, two = tf.constant(6), tf.constant(2)
with tf.Session() as session:
    print("sum of constants: %d" % session.run(six + two))
    print("product of constants: %d" % session.run(six * two))

left = tf.placeholder(tf.int16, name="left")
right = tf.placeholder(tf.int16, name="right")
total, product = tf.add(left, right), tf.multiply(left, right)
feed = {left: 4, right: 9}
with tf.Session() as session:
    got_total, got_product = session.run([total, product], feed_dict=feed)
    print("sum of fed values: %d" % got_total)
    print("product of fed values: %d" % got_product)
    print("fed sum dtype:", got_total.dtype)

row = tf.constant([[1.5, 2.0]])
column = tf.constant([[4.0], [3.0]])
with tf.Session() as session:
    print(session.run(tf.matmul(row, column)))
