# Mirrors aymericdamien/TensorFlow-Examples: examples/1_Introduction/basic_operations.py
"""Constants, placeholders fed through feed_dict, and a matrix product."""
from __future__ import print_function

import tensorflow as tf

a = tf.constant(3)
b = tf.constant(4)

with tf.Session() as sess:
    print("a=3, b=4")
    print("Addition with constants: %i" % sess.run(a + b))
    print("Multiplication with constants: %i" % sess.run(a * b))

a = tf.placeholder(tf.int16)
b = tf.placeholder(tf.int16)

add = tf.add(a, b)
mul = tf.multiply(a, b)

with tf.Session() as sess:
    print("Addition with variables: %i" % sess.run(add, feed_dict={a: 5, b: 7}))
    print("Multiplication with variables: %i" % sess.run(mul, feed_dict={a: 5, b: 7}))
    print("dtype of the sum:", sess.run(add, feed_dict={a: 5, b: 7}).dtype)

matrix1 = tf.constant([[3., 3.]])
matrix2 = tf.constant([[2.], [2.]])
product = tf.matmul(matrix1, matrix2)

with tf.Session() as sess:
    result = sess.run(product)
    print(result)
